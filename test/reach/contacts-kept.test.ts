// The contact list's total comes from kept counts (contact_counts), its pages from an index in the
// list's order, and a search from a trigram index (migration 0043). Each answer is compared with
// what the whole list says: totals per status, pages stitched together, and every search (long and
// short terms, LIKE's wildcards, upper case) against a filter of the whole list, before and after
// contacts are added, opted out, edited and deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setContactStatus } from '../../src/domain/contacts/contacts.js';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let other: TestAccount;

interface Listed {
  id: string;
  email: string | null;
  first_name: string;
  last_name: string;
}

async function list(query: string, token = owner.token): Promise<{ total: number; data: Listed[] }> {
  const res = await server.client.get(`/v3/contacts?${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const TERMS = ['example', 'EXAMPLE.org', 'ann', 'an', 'x', '100%', '_', 'smith', 'zzz'];

async function expectListAgrees(): Promise<void> {
  for (const status of ['active', 'optout']) {
    const all = await list(`status=${status}&per_page=1000`);
    expect(all.data).toHaveLength(all.total);
    // Pages of 3 stitched together are the whole list, in the same order.
    const pages: Listed[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 3); page++) {
      const p = await list(`status=${status}&per_page=3&page=${page}`);
      expect(p.total).toBe(all.total);
      pages.push(...p.data);
    }
    expect(pages.map((c) => c.id)).toEqual(all.data.map((c) => c.id));
    for (const term of TERMS)
      for (const by of ['email', 'first_name', 'last_name'] as const) {
        const found = await list(
          `status=${status}&per_page=1000&search_by=${by}&search=${encodeURIComponent(term)}`,
        );
        const want = all.data.filter((c) => (c[by] ?? '').toLowerCase().includes(term.toLowerCase()));
        expect(
          found.data.map((c) => c.id),
          `${status} ${by} ${term}`,
        ).toEqual(want.map((c) => c.id));
        expect(found.total).toBe(want.length);
      }
  }
}

beforeAll(async () => {
  server = await startServer();
  owner = await server.account({ plan: 'premier' });
  other = await server.account({ plan: 'premier' });
  const people = [
    { email: 'ann@example.org', first_name: 'Ann', last_name: 'Smith' },
    { email: 'Bob.Annan@Example.org', first_name: 'Bob', last_name: 'Annan' },
    { email: 'eve_100%@example.org', first_name: 'Eve', last_name: 'X' },
    { phone_number: '+15550001111', first_name: 'Phone', last_name: 'Only' },
    { email: 'zed@other.net', first_name: 'Zed', last_name: 'Smithers' },
    { email: 'dan@example.org', first_name: 'Dan', last_name: 'Annson' },
  ];
  for (const p of people) {
    const res = await server.client.post('/v3/contacts', p, { token: owner.token });
    expect(res.status, res.text).toBe(201);
  }
  // Another account's contacts are neither counted nor found.
  await server.client.post('/v3/contacts', { email: 'ann@example.com' }, { token: other.token });
});
afterAll(() => server.close());

describe('the contact list with kept counts and indexes', () => {
  it('agrees with the whole list: totals, pages and searches', async () => {
    expect((await list('per_page=1000')).total).toBe(6);
    await expectListAgrees();
  });

  it('follows contacts added, opted out, edited and deleted', async () => {
    const tk = { token: owner.token };
    const added = await server.client.post('/v3/contacts', { email: 'new.annie@example.org' }, tk);
    expect(added.status).toBe(201);
    await setContactStatus(server.deps, owner.user.id, 'dan@example.org', 'optout');
    const ann = (await list('search_by=email&search=ann@')).data[0];
    const edited = await server.client.patch(`/v3/contacts/${ann.id}`, { email: 'hannah@example.net' }, tk);
    expect(edited.status, edited.text).toBe(200);
    const zed = (await list('search_by=first_name&search=zed')).data[0];
    expect((await server.client.delete(`/v3/contacts/${zed.id}`, tk)).status).toBe(200);
    expect((await list('per_page=1000')).total).toBe(5);
    expect((await list('status=optout')).total).toBe(1);
    expect((await list('search_by=email&search=hannah')).data.map((c) => c.id)).toEqual([ann.id]);
    expect((await list('search_by=email&search=ann@')).total).toBe(0);
    await expectListAgrees();
    expect((await list('per_page=1000', other.token)).total).toBe(1);
  });
});
