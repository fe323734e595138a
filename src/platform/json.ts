// Pre-serialized JSON, typed. A few hot routes write their response's JSON text themselves
// (splicing stored JSON documents, or V8's JSON.stringify instead of the schema serializer);
// Fastify sends a string with a JSON content type as it is. `JsonOf<S>` is text that holds a
// value of schema S's type, and a route whose response schema is `orJson(S)` may send either a
// value of S's type or a `JsonOf<S>`: any other string or shape fails to compile.
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';
import Value from 'typebox/value';

declare const shape: unique symbol;

/** JSON text of a value of S's type. Made by `stringifyAs`, or by `jsonOf` in a function that
 * writes S's shape field by field. */
export type JsonOf<S extends TSchema> = string & { readonly [shape]: S };

/** The JSON text of a value that has S's type. */
export function stringifyAs<S extends TSchema>(_schema: S, value: Static<S>): JsonOf<S> {
  return jsonOf<S>(JSON.stringify(value));
}

/** Brands `text` as S's JSON (S given explicitly): only for a function that writes S's shape,
 * tested through the API against the schema-serialized path. */
export function jsonOf<S extends TSchema>(text: string): JsonOf<S> {
  return text as JsonOf<S>;
}

/** S as a response schema whose route may also send S's JSON text: the same schema at run time
 * (serializer, validation, OpenAPI), only its static type widened. */
export function orJson<S extends TSchema>(schema: S): TUnsafe<Static<S> | JsonOf<S>> {
  return Type.Unsafe<Static<S> | JsonOf<S>>(schema);
}

export const StringList = Type.Array(Type.String());
export const StringMap = Type.Record(Type.String(), Type.String());
export const JsonObject = Type.Record(Type.String(), Type.Unknown());

/** JSON text read as a value of S's type, checked against S: stored JSON columns are read through it
 * (a value that does not match is a fault, not a request's error). */
export function parseAs<S extends TSchema>(schema: S, text: string): Static<S> {
  const value: unknown = JSON.parse(text);
  if (!Value.Check(schema, value)) throw new Error('stored JSON does not match its schema');
  return value;
}
