// The bad-input corpus, generated from /v3/openapi.json so every endpoint is covered: bad ids in
// every path position (the other positions real), bad values for every query parameter, malformed
// bodies, wrong types, and per-property mutations from each body's schema (overflowing and
// negative integers, impossible dates, odd unicode, huge strings). Shared by the fuzz test and the
// memory test, which replays it against a server process.
import type { RequestOptions } from '../helpers/client.js';

export interface Operation {
  method: string;
  path: string;
  query: Array<{ name: string; schema: any }>;
  body: any | null;
}

export interface Case {
  method: string;
  path: string;
  options: RequestOptions;
  what: string;
}

const WRITES = ['post', 'put', 'patch'];

export function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    if (!path.startsWith('/v3/')) continue;
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'delete', ...WRITES].includes(method)) continue;
      const query = (op.parameters ?? [])
        .filter((p: any) => p.in === 'query')
        .map((p: any) => ({ name: p.name, schema: p.schema ?? {} }));
      const body = op.requestBody ? (op.requestBody.content?.['application/json']?.schema ?? {}) : null;
      out.push({ method: method.toUpperCase(), path, query, body });
    }
  }
  return out;
}

export const BAD_IDS = [
  'abc',
  '-1',
  '0',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9223372036854775808',
  '99999999999999999999',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  '%20%31',
  '%EF%BC%91', // fullwidth 1
  '%D9%A3', // Arabic-Indic 3
  '%00',
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded (invalid UTF-8)
  '%E2%80%8F1', // RTL mark
  '%F0%9F%92%A9',
  'a'.repeat(300),
  "1' OR '1'='1",
];

export const BAD_VALUES = [
  '-1',
  '0',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '99999999999999999999',
  '1.5',
  '1e309',
  'NaN',
  'abc',
  '',
  '2026-13-45',
  '2026-02-30',
  '2026-13-45T99:99:99',
  '0000-00-00T00:00:00',
  '2026-01-01T00:00:00%2B99:99',
  '-271821-04-20T00:00:00Z',
  'null',
  '[]',
  '%00',
  '%ED%A0%80',
  '%E2%80%AE',
  '%E2%80%8F',
  '%EF%BB%BF',
  '%C0%AF',
  'x'.repeat(5000),
];

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
export const BAD_BODIES: Array<string | Buffer> = [
  '{',
  '{"a":',
  'nul',
  '[1,2',
  '"just a string"',
  '12345',
  'true',
  'null',
  '[]',
  '{"__proto__": {"admin": true}}',
  '{"id": 99999999999999999999, "position": 1e400}',
  '{"constructor": {"prototype": {"x": 1}}}',
  deep(5000),
  `{"a": ${deep(2000)}}`,
  JSON.stringify({ title: 'x'.repeat(2_000_000) }),
  JSON.stringify({ title: '\ud800\udfff\u202e\u0000 \u{1F4A9}' }),
  '{"title": "\\ud800"}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"title": "\xed\xa0\x80"}', 'latin1'), // CESU-8 lone surrogate bytes
];

export const WRONG_TYPES = [
  { title: 12 },
  { title: null },
  { title: ['x'] },
  { name: { nested: true } },
  { per_page: -1, page: 2147483648 },
  { email: 'not-an-email' },
  { position: -5 },
  { position: 2147483648 },
  { is_visible: 'yes' },
  { pages: 'many' },
  { pages: [{ questions: [{ family: 'nope', subtype: 'nope', headings: 'x' }] }] },
];

/** Raw JSON texts for a number-typed property (some are beyond what JSON.stringify can write). */
const NUMBER_TEXTS = ['2147483648', '-2147483649', '-1', '9223372036854775808', '1e400', '-0', '1.5'];
/** Values for a string-typed property. */
const STRING_VALUES = [
  '2026-13-45T25:61:00',
  '2026-02-30',
  '\ud800',
  'a\u0000b',
  '\u202e\u200f\u061c mixed',
  '\ufeff',
  'x'.repeat(100_000),
  '<script>x</script>',
];

/** The properties of an object schema, merging anyOf/oneOf/allOf variants. */
function propertiesOf(schema: any): Record<string, any> {
  if (!schema || typeof schema !== 'object') return {};
  const own = schema.properties ?? {};
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return Object.assign({}, ...variants.map(propertiesOf), own);
}

function kinds(schema: any): Set<string> {
  const out = new Set<string>();
  const visit = (s: any) => {
    if (!s || typeof s !== 'object') return;
    if (typeof s.type === 'string') out.add(s.type);
    if (Array.isArray(s.type)) for (const t of s.type) out.add(t);
    for (const v of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(v);
  };
  visit(schema);
  return out;
}

/** Per-property mutations of a body schema, as raw JSON texts. */
export function bodyMutations(schema: any): string[] {
  const out: string[] = [];
  for (const [name, prop] of Object.entries(propertiesOf(schema))) {
    const k = kinds(prop);
    const key = JSON.stringify(name);
    if (k.has('integer') || k.has('number')) for (const n of NUMBER_TEXTS) out.push(`{${key}: ${n}}`);
    if (k.has('string')) for (const v of STRING_VALUES) out.push(JSON.stringify({ [name]: v }));
    if (k.has('array'))
      out.push(`{${key}: [${NUMBER_TEXTS.join(',')}]}`, JSON.stringify({ [name]: STRING_VALUES }));
    if (k.has('object')) out.push(`{${key}: {"a": 2147483648, "b": "\\ud800"}}`);
  }
  return out;
}

/** Replaces path parameters: position `bad` gets `value`, the others `real(name)` (or a fake id). */
export function fillPath(
  path: string,
  real: (name: string) => string | undefined,
  bad = -1,
  value = '',
): string {
  let i = 0;
  return path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    i++ === bad ? value : (real(name) ?? '100000001'),
  );
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Every case for every operation. `real` gives a real id for a path parameter; bodies and queries
 * go to real resources except on DELETE (so the corpus can be replayed without deleting them).
 */
export function fuzzCases(
  operations: Operation[],
  token: string,
  real: (name: string, path: string) => string | undefined,
): Case[] {
  const cases: Case[] = [];
  for (const op of operations) {
    const ids = (name: string) => real(name, op.path);
    const params = (op.path.match(/\{[^}]+\}/g) ?? []).length;
    for (let position = 0; position < params; position++)
      for (const id of BAD_IDS) {
        const path = fillPath(op.path, ids, position, id);
        cases.push({
          method: op.method,
          path,
          options: { token, body: op.body ? {} : undefined },
          what: `${op.method} ${path}`,
        });
      }
    const target = op.method === 'DELETE' ? fillPath(op.path, () => '100000001') : fillPath(op.path, ids);
    for (const q of op.query)
      for (const value of BAD_VALUES) {
        const path = `${target}?${q.name}=${value}`;
        cases.push({
          method: op.method,
          path,
          options: { token },
          what: `${op.method} ${path.slice(0, 200)}`,
        });
      }
    if (!op.body) continue;
    for (const raw of [...BAD_BODIES, ...bodyMutations(op.body)])
      cases.push({
        method: op.method,
        path: target,
        options: { token, rawBody: raw, headers: JSON_HEADERS },
        what: `${op.method} ${target} body ${String(raw).slice(0, 60)}`,
      });
    for (const body of WRONG_TYPES)
      cases.push({
        method: op.method,
        path: target,
        options: { token, body },
        what: `${op.method} ${target} body ${JSON.stringify(body)}`,
      });
    for (const type of [
      'text/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
    ])
      cases.push({
        method: op.method,
        path: target,
        options: { token, rawBody: '<xml/>', headers: { 'content-type': type } },
        what: `${op.method} ${target} as ${type}`,
      });
  }
  return cases;
}
