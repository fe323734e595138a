// The few JSON Schema builders the environment schema (config.ts) is written with, named and shaped
// as TypeBox's. Every command reads the configuration first, and loading TypeBox (hundreds of
// modules) for these plain objects cost more CPU than the rest of a failed start together.
import { isIP } from 'node:net';
import { isOneOf } from './lists.js';

export type TSchema = Record<string, unknown>;

type Options = Record<string, unknown>;
type TObject<P extends Record<string, TSchema>> = {
  type: 'object';
  properties: P;
  required?: string[];
};

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

/** Readers of an environment checked against its schema: ajv has coerced every variable to its
 * schema's type and filled its default, so a defaulted variable always has a value of its type
 * (`missing` is the error for one that has not). */
export function envReaders<Name extends string>(
  env: Record<string, unknown>,
  missing: (name: Name) => Error,
) {
  const num = (name: Name): number | undefined => {
    const v = env[name];
    return typeof v === 'number' ? v : undefined;
  };
  const str = (name: Name): string | undefined => {
    const v = env[name];
    return typeof v === 'string' ? v : undefined;
  };
  const fail = (name: Name): never => {
    throw missing(name);
  };
  return {
    num,
    str,
    /** A defaulted number. */
    n: (name: Name): number => num(name) ?? fail(name),
    /** A defaulted text. */
    s: (name: Name): string => str(name) ?? fail(name),
    flag: (name: Name): boolean => env[name] === true,
    /** A defaulted text that its schema limits to one of `list`. */
    oneOf: <T extends string>(name: Name, list: readonly T[]): T => {
      const v = str(name);
      return v !== undefined && isOneOf(list, v) ? v : fail(name);
    },
  };
}

/** A listening address: an IP address (v4 or v6) or a host name of letters, digits and hyphens. */
export function hostAddress(value: string): boolean {
  if (isIP(value)) return true;
  return (
    value.length <= 253 &&
    value
      .replace(/\.$/, '')
      .split('.')
      .every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label))
  );
}
