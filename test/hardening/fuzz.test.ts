// Bad input against every endpoint the OpenAPI document lists: malformed JSON, wrong types, huge
// strings, deep nesting, odd unicode, negative and overflowing integers, bad ids and bad dates.
// Whatever the input, the service answers with a status below 500 and, for errors, the
// catalogue's body. The cases are generated from a fixed seed, so a failure reproduces.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/platform/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let token: string;
let operations: Array<{ method: string; path: string; query: string[]; hasBody: boolean }>;

beforeAll(async () => {
  server = await startServer();
  token = (await server.account()).token;
  const doc = (await server.client.get('/v3/openapi.json')).body;
  operations = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    if (!path.startsWith('/v3/')) continue;
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const query = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
      operations.push({ method: method.toUpperCase(), path, query, hasBody: !!op.requestBody });
    }
  }
});
afterAll(() => server.close());

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const BAD_IDS = [
  'abc',
  '-1',
  '0',
  '99999999999999999999',
  '2147483648',
  '1.5',
  '%00',
  '%F0%9F%92%A9',
  'a'.repeat(300),
  "1' OR '1'='1",
];
const BAD_VALUES = [
  '-1',
  '0',
  '2147483648',
  '99999999999999999999',
  'abc',
  '',
  '2026-13-45T99:99:99',
  'null',
  '%00',
  '%E2%80%AE',
  '1e309',
  '[]',
];
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const BAD_BODIES: Array<string | Buffer> = [
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
  '{"constructor": {"prototype": {"x": 1}}}',
  deep(5000),
  `{"a": ${deep(2000)}}`,
  JSON.stringify({ title: 'x'.repeat(2_000_000) }),
  JSON.stringify({ title: '\ud800\udfff\u202e\u0000 \u{1F4A9}' }),
  '{"title": "\\ud800"}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
];
const WRONG_TYPES = [
  { title: 12 },
  { title: null },
  { title: ['x'] },
  { name: { nested: true } },
  { per_page: -1, page: 2147483648 },
  { id: 99999999999999999999 },
  { email: 'not-an-email' },
  { position: -5 },
  { position: 2147483648 },
  { is_visible: 'yes' },
  { pages: 'many' },
  { pages: [{ questions: [{ family: 'nope', subtype: 'nope', headings: 'x' }] }] },
];

function fill(path: string, id: string) {
  return path.replace(/\{[^}]+\}/g, id);
}

function check(res: { status: number; body: any; text: string }, what: string) {
  expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    const err = res.body?.error;
    expect(err, `${what}: error body`).toBeDefined();
    const entry = errorCatalogue.get(Number(err.id));
    expect(entry, `${what}: code ${err.id} in catalogue`).toBeDefined();
    expect(err.http_status_code).toBe(res.status);
    expect(entry!.status).toBe(res.status);
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/); // no stack traces
  }
}

it('lists the endpoints it fuzzes', () => {
  expect(operations.length).toBeGreaterThan(0);
});

it('answers bad ids, bad query values and bad bodies on every endpoint without a 5xx', async () => {
  const random = rng(20261121);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  let sent = 0;
  for (const op of operations) {
    const hasParams = op.path.includes('{');
    const ids = hasParams ? BAD_IDS : [''];
    for (const id of ids) {
      const path = fill(op.path, id);
      const res = await server.client.request(op.method, path, { token, body: op.hasBody ? {} : undefined });
      check(res, `${op.method} ${path}`);
      sent++;
    }
    const path = fill(op.path, '100000001');
    for (const name of op.query) {
      for (const value of BAD_VALUES) {
        const res = await server.client.request(op.method, `${path}?${name}=${value}`, { token });
        check(res, `${op.method} ${path}?${name}=${value}`);
        sent++;
      }
    }
    if (op.hasBody) {
      for (const raw of BAD_BODIES) {
        const res = await server.client.request(op.method, path, {
          token,
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        check(res, `${op.method} ${path} body ${String(raw).slice(0, 40)}`);
        sent++;
      }
      for (const body of WRONG_TYPES) {
        const res = await server.client.request(op.method, path, { token, body });
        check(res, `${op.method} ${path} body ${JSON.stringify(body).slice(0, 60)}`);
        sent++;
      }
      const odd = await server.client.request(op.method, path, {
        token,
        rawBody: '<xml/>',
        headers: {
          'content-type': pick([
            'text/xml',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
          ]),
        },
      });
      check(odd, `${op.method} ${path} odd content type`);
      sent++;
    }
  }
  expect(sent).toBeGreaterThan(operations.length);
});

it('answers malformed JSON with 400/1001 and a wrong content type with 400/1004 where a body is read', async () => {
  const writes = operations.filter((o) => o.hasBody && !o.path.includes('{'));
  expect(writes.length).toBeGreaterThan(0);
  for (const op of writes) {
    const bad = await server.client.request(op.method, op.path, {
      token,
      rawBody: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status, `${op.method} ${op.path}`).toBe(400);
    expect(bad.body.error.id).toBe('1001');
    const type = await server.client.request(op.method, op.path, {
      token,
      rawBody: 'a=b',
      headers: { 'content-type': 'text/plain' },
    });
    expect(type.status, `${op.method} ${op.path}`).toBe(400);
    expect(type.body.error.id).toBe('1004');
  }
});
