// Bad input against every endpoint the OpenAPI document lists: malformed JSON, wrong types, huge
// strings, deep nesting, odd unicode (lone surrogates, NUL, RTL marks), negative and overflowing
// integers in path ids, queries and bodies, bad ids in every path position and impossible dates.
// Whatever the input, the service answers with a status below 500 and, for errors, the
// catalogue's body. The corpus (./corpus.ts) is generated from the document, so it reproduces.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/platform/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryResource, ownedIdFor } from '../security/fixtures.js';
import { fillPath, fuzzCases, type Operation, operationsOf } from './corpus.js';

let server: TestServer;
let token: string;
let operations: Operation[];
let real: (name: string, path: string) => string | undefined;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  const owner = await server.account();
  token = owner.token;
  const ids = await createEveryResource(server, owner, await server.account());
  real = (name, path) => ownedIdFor(ids, name, path);
  operations = operationsOf((await server.client.get('/v3/openapi.json')).body);
});
afterAll(() => server.close());

/** What is wrong with a reply to bad input (a 5xx, or an error outside the catalogue), or null. */
function problem(res: { status: number; body: any; text: string }, what: string): string | null {
  const seen = `${what} → ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return seen;
  if (res.status < 400) return null;
  const err = res.body?.error;
  const entry = errorCatalogue.get(Number(err?.id));
  if (!entry || entry.status !== res.status || err.http_status_code !== res.status)
    return `not in the catalogue: ${seen}`;
  if (/at .*\.(js|ts):\d+/.test(res.text)) return `stack trace: ${seen}`;
  return null;
}

it('lists the endpoints it fuzzes', () => {
  expect(operations.length).toBeGreaterThan(0);
});

it('answers bad ids, bad query values and bad bodies on every endpoint without a 5xx', async () => {
  const cases = fuzzCases(operations, token, real);
  expect(cases.length).toBeGreaterThan(operations.length * 20);
  const problems: string[] = [];
  for (const c of cases) {
    const found = problem(await server.client.request(c.method, c.path, c.options), c.what);
    if (found) problems.push(found);
  }
  expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
}, 600_000);

it('answers malformed JSON with 400/1001 and a wrong content type with 400/1004 where a body is read', async () => {
  const writes = operations.filter((o) => o.body && !o.path.includes('{'));
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

it('reads a JSON null body as no body, and answers a number, a string or a list with a 400', async () => {
  // Every endpoint that reads a body, on the caller's own ids (DELETEs left out: they would go).
  const writes = operations.filter((o) => o.body && o.method !== 'DELETE');
  const problems: string[] = [];
  const send = (op: (typeof writes)[number], rawBody?: string) =>
    server.client.request(
      op.method,
      fillPath(op.path, (name) => real(name, op.path)),
      {
        token,
        ...(rawBody === undefined ? {} : { rawBody, headers: { 'content-type': 'application/json' } }),
      },
    );
  for (const op of writes) {
    const none = await send(op);
    const nul = await send(op, 'null');
    if (nul.status !== none.status)
      problems.push(`${op.method} ${op.path} null: ${nul.status}, no body: ${none.status}`);
    for (const rawBody of ['7', '"x"', '[]']) {
      const res = await send(op, rawBody);
      // 400, or the 404 the same path gives without a body (an id the fixtures do not own)
      const expected = none.status === 404 ? 404 : 400;
      if (res.status !== expected || typeof res.body?.error?.id !== 'string')
        problems.push(`${op.method} ${op.path} ${rawBody}: ${res.status}`);
    }
  }
  expect(problems).toEqual([]);
});

it('answers a path that is not valid percent-encoded UTF-8 with the catalogue’s 404/1020', async () => {
  for (const path of ['/v3/surveys/%ED%A0%80', '/v3/surveys/%C0%AF/pages', '/v3/collectors/%FF']) {
    const res = await server.client.get(path, { token });
    expect(res.status, path).toBe(404);
    expect(res.body.error.id).toBe('1020');
    expect(res.headers['access-control-allow-origin'], path).toBeDefined();
  }
});

it('refuses NUL characters in bodies and queries by name (PostgreSQL cannot store them)', async () => {
  const survey = real('survey_id', '/v3/surveys/{survey_id}');
  const collector = real('collector_id', '/v3/collectors/{collector_id}/responses');
  const body = await server.client.post(
    `/v3/collectors/${collector}/responses`,
    { custom_value: 'a\u0000b', pages: [] },
    { token },
  );
  expect(body.status).toBe(400);
  expect(body.body.error).toMatchObject({ id: '1002', message: expect.stringContaining('custom_value') });
  const key = await server.client.post(
    `/v3/collectors/${collector}/responses`,
    { custom_variables: { 'a\u0000': 'x' }, pages: [] },
    { token },
  );
  expect(key.body.error.id).toBe('1002');
  const query = await server.client.get(`/v3/surveys/${survey}/responses?first_name=a%00b`, { token });
  expect(query.status).toBe(400);
  expect(query.body.error).toMatchObject({ id: '1003', message: expect.stringContaining('first_name') });
});

it('filters by total time beyond the integer range without a database error', async () => {
  const survey = real('survey_id', '/v3/surveys/{survey_id}');
  const all = (await server.client.get(`/v3/surveys/${survey}/responses`, { token })).body.total;
  expect(all).toBeGreaterThan(0);
  for (const [query, total] of [
    ['total_time_min=2147483648', 0],
    ['total_time_min=1000000&total_time_units=hour', 0],
    ['total_time_max=2147483648', all],
    ['total_time_max=1000000&total_time_units=hour', all],
  ] as const) {
    const res = await server.client.get(`/v3/surveys/${survey}/responses?${query}`, { token });
    expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
    expect(res.body.total, query).toBe(total);
    const rollups = await server.client.get(`/v3/surveys/${survey}/rollups?${query}`, { token });
    expect(rollups.status, query).toBe(200);
  }
});
