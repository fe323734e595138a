// The few JSON Schema builders the environment schema (config.ts) is written with, named and shaped
// as TypeBox's. Every command reads the configuration first, and loading TypeBox (hundreds of
// modules) for these plain objects cost more CPU than the rest of a failed start together.
export type TSchema = Record<string, unknown>;

type Options = Record<string, unknown>;
interface TObject<P extends Record<string, TSchema>> {
  type: 'object';
  properties: P;
  required?: string[];
}

export const Type = {
  Integer: (options: Options = {}): TSchema => ({ type: 'integer', ...options }),
  Boolean: (options: Options = {}): TSchema => ({ type: 'boolean', ...options }),
  String: (options: Options = {}): TSchema => ({ type: 'string', ...options }),
  Literal: (value: string): TSchema => ({ type: 'string', const: value }),
  Union: (anyOf: TSchema[], options: Options = {}): TSchema => ({ anyOf, ...options }),
  Object: <P extends Record<string, TSchema>>(properties: P): TObject<P> => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
  }),
  /** Every property optional. */
  Partial: <P extends Record<string, TSchema>>({ properties }: TObject<P>): TObject<P> => ({
    type: 'object',
    properties,
  }),
};
