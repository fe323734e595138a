// What published v3 clients send that a strict reading of the schemas would refuse, read the way
// the original service reads it (docs/clients.md lists the clients): booleans as True/TRUE/1 in
// query strings or as strings in bodies, and ids as JSON numbers. Values are rewritten in place
// before validation, guided by the route's schema; anything else is left for validation to judge.

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  pattern?: string;
};

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** An id field: the shared digit-string id schema, or a plain string named like an id. */
function isIdSchema(schema: Schema, key: string | undefined): boolean {
  if (schema.type !== 'string') return false;
  if (schema.pattern === '^[0-9]{1,20}$') return true;
  return key !== undefined && (key === 'id' || key.endsWith('_id') || key.endsWith('_ids'));
}

/** The value `schema` would accept for `value`, when a client's spelling of it is known; else `value`. */
export function lenientValue(value: unknown, schema: Schema | undefined, key?: string): unknown {
  if (!schema || value === null || value === undefined) return value;
  if (schema.anyOf) {
    // Nullable(T) and similar: only rewrite when exactly one branch can hold a non-null value.
    const branches = schema.anyOf.filter((s) => s.type !== 'null');
    return branches.length === 1 ? lenientValue(value, branches[0], key) : value;
  }
  switch (schema.type) {
    case 'boolean':
      if (typeof value === 'string') {
        const lower = value.toLowerCase();
        if (TRUE.has(lower)) return true;
        if (FALSE.has(lower)) return false;
      }
      return value;
    case 'string':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && isIdSchema(schema, key)
        ? String(value)
        : value;
    case 'array':
      if (Array.isArray(value))
        for (let i = 0; i < value.length; i++) value[i] = lenientValue(value[i], schema.items, key);
      return value;
    case 'object':
      if (schema.properties && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        for (const [name, sub] of Object.entries(schema.properties))
          if (name in record) record[name] = lenientValue(record[name], sub, name);
      }
      return value;
    default:
      return value;
  }
}
