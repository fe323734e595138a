// The few JSON Schema builders the environment schema (config.ts) is written with, named and shaped
// as TypeBox's. Every command reads the configuration first, and loading TypeBox (hundreds of
// modules) for these plain objects cost more CPU than the rest of a failed start together.
import { isIP } from 'node:net';
// The formats alone (plain regular expressions and functions), not ajv: see checkEnv.
import { fullFormats } from 'ajv-formats/dist/formats.js';
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

/**
 * Checks `env` (each declared variable as given, unset ones left out) against `schema` as ajv with
 * coerceTypes, useDefaults and allErrors would, in place: fills defaults, turns whole numbers and
 * true/false into their types, and answers the names of the variables that are not allowed. The
 * schema is flat and uses few keywords (type, minimum, maximum, minLength, pattern, format, anyOf
 * of constants, default, and the `keywords` given here); every command checks its environment
 * first, and compiling the schema with ajv took a third of each command's start-up.
 */
export function checkEnv(
  schema: { properties: Record<string, TSchema> },
  env: Record<string, unknown>,
  keywords: Record<string, (value: string) => boolean>,
): string[] {
  const invalid: string[] = [];
  for (const [name, s] of Object.entries(schema.properties)) {
    const raw = env[name];
    if (raw === undefined) {
      if (s.default !== undefined) env[name] = s.default;
      continue;
    }
    const value = coerced(s, String(raw));
    if (value === undefined || !allowedValue(s, value, keywords)) invalid.push(name);
    else env[name] = value;
  }
  return invalid;
}

/** ajv's coercion of a string to the schema's type (undefined: it cannot be coerced). */
function coerced(s: TSchema, raw: string): string | number | boolean | undefined {
  if (s.type === 'integer') {
    const n = Number(raw);
    return raw !== '' && Number.isInteger(n) ? n : undefined;
  }
  if (s.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  return raw;
}

function allowedValue(
  s: TSchema,
  value: string | number | boolean,
  keywords: Record<string, (value: string) => boolean>,
): boolean {
  if (Array.isArray(s.anyOf)) return (s.anyOf as TSchema[]).some((branch) => branch.const === value);
  if (typeof value === 'number')
    return (
      (typeof s.minimum !== 'number' || value >= s.minimum) &&
      (typeof s.maximum !== 'number' || value <= s.maximum)
    );
  if (typeof value !== 'string') return true;
  if (typeof s.minLength === 'number' && [...value].length < s.minLength) return false;
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) return false;
  if (typeof s.format === 'string') {
    const format = fullFormats[s.format as keyof typeof fullFormats];
    const ok =
      format instanceof RegExp
        ? format.test(value)
        : typeof format === 'function'
          ? (format as (v: string) => boolean)(value)
          : false;
    if (!ok) return false;
  }
  return Object.entries(keywords).every(([keyword, check]) => !s[keyword] || check(value));
}
