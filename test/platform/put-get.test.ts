// A PUT with the body a GET of the same resource returned is accepted: fields
// the server owns (id, href, dates, counts, type) are ignored when they equal the stored value.
// Every PUT of /v3/openapi.json is covered, so a new one is tested without editing this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryResource, type OwnedResources, ownedIdFor } from '../security/fixtures.js';

let server: TestServer;
let owner: TestAccount;
let ids: OwnedResources;
let puts: string[];
let patches: string[];

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  owner = await server.account();
  ids = await createEveryResource(server, owner, await server.account());
  const doc = (await server.client.get('/v3/openapi.json')).body;
  puts = Object.entries<Record<string, unknown>>(doc.paths)
    .filter(([, item]) => item.put && item.get)
    .map(([path]) => path);
  patches = Object.entries<Record<string, unknown>>(doc.paths)
    .filter(([, item]) => item.patch && item.get)
    .map(([path]) => path);
});
afterAll(() => server.close());

const fill = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ownedIdFor(ids, name, path)!));

/** What a GET answers that changes on every write. */
const volatile = new Set(['date_modified', 'date_last_login']);
const stable = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !volatile.has(k)));

describe('PUT with the body of a GET', () => {
  it('is accepted on every resource that has both, and changes nothing', async () => {
    expect(puts.length).toBeGreaterThanOrEqual(8);
    const t = { token: owner.token };
    for (const template of puts) {
      const path = fill(template);
      const before = await server.client.get(path, t);
      expect(before.status, `GET ${template}`).toBe(200);
      const res = await server.client.put(path, before.body, t);
      expect(res.status, `PUT ${template}: ${res.text.slice(0, 300)}`).toBe(200);
      const after = await server.client.get(path, t);
      expect(stable(after.body), template).toEqual(stable(before.body));
    }
  });

  it('PATCH with the body of a GET is accepted too', async () => {
    const t = { token: owner.token };
    for (const template of patches) {
      const path = fill(template);
      const before = await server.client.get(path, t);
      if (before.status !== 200) continue; // a PATCH-only resource (no GET of its own)
      const res = await server.client.patch(path, before.body, t);
      expect(res.status, `PATCH ${template}: ${res.text.slice(0, 300)}`).toBe(200);
    }
  });

  it('refuses a read-only field sent with another value, naming it (400/1002)', async () => {
    const t = { token: owner.token };
    const path = `/v3/surveys/${ids.surveyId}`;
    const before = (await server.client.get(path, t)).body;
    for (const [field, value] of [
      ['id', '1'],
      ['question_count', 99],
      ['href', 'https://elsewhere.example/v3/surveys/1'],
    ] as const) {
      const res = await server.client.put(path, { ...before, [field]: value }, t);
      expect(res.status, field).toBe(400);
      expect(res.body.error.id).toBe('1002');
      expect(res.body.error.message, field).toContain(field);
    }
  });
});
