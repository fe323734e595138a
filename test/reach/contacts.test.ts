import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setContactStatus } from '../../src/domain/contacts/contacts.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock, env: { CONTACT_LIMIT_BASIC: '5' } });
});
afterAll(() => server.close());

const ann = { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.org' };

describe('POST /v3/contacts and GET /v3/contacts/{id}', () => {
  it('creates a contact with custom fields and reads it back', async () => {
    const a = await server.account();
    const res = await server.client.post(
      '/v3/contacts',
      { ...ann, phone_number: '+15551234567', custom_fields: { '1': 'gold', '6': 'x' } },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.org',
      phone_number: '+15551234567',
      status: 'active',
      custom_fields: { '1': 'gold', '2': '', '3': '', '4': '', '5': '', '6': 'x' },
      href: `${server.client.baseUrl}/v3/contacts/${res.body.id}`,
    });
    const got = await server.client.get(`/v3/contacts/${res.body.id}`, { token: a.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const phoneOnly = await server.client.post(
      '/v3/contacts',
      { phone_number: '+15550000001' },
      { token: a.token },
    );
    expect(phoneOnly.status).toBe(201);
    expect(phoneOnly.body).toMatchObject({ email: null, first_name: '', last_name: '' });
  });

  it.each([
    [{ first_name: 'x' }, /email.*phone_number/],
    [{ email: 'not-an-email' }, /not an email/],
    [{ phone_number: '12ab' }, /phone/],
    [{ email: 'a@b.co', custom_fields: { '7': 'x' } }, /7/],
    [{ email: 'a@b.co', custom_fields: { '1': 5 } }, /custom_fields/],
    [{ email: 'a@b.co', nickname: 'x' }, /nickname/],
    [{ email: 42 }, /email/],
    [{ email: 'a@b.co', first_name: 'a\u0000b' }, /first_name/],
  ])('answers 400/1002 for a bad contact %#', async (body, message) => {
    const a = await server.account();
    const res = await server.client.post('/v3/contacts', body, { token: a.token });
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1002');
    expect(res.body.error.message).toMatch(message);
  });

  it('answers 409/1026 for an email already in the address book (any case)', async () => {
    const a = await server.account();
    expect((await server.client.post('/v3/contacts', ann, { token: a.token })).status).toBe(201);
    const again = await server.client.post('/v3/contacts', { email: 'ANN@example.org' }, { token: a.token });
    expect(again.status).toBe(409);
    expect(again.body.error.id).toBe('1026');
    const b = await server.account();
    expect((await server.client.post('/v3/contacts', ann, { token: b.token })).status).toBe(201);
  });

  it('enforces the plan contact limit with 403/1017 and a clear message', async () => {
    const a = await server.account({ plan: 'basic' });
    const five = Array.from({ length: 4 }, (_, i) => ({ email: `c${i}@example.org` }));
    expect(
      (await server.client.post('/v3/contacts/bulk', { contacts: five }, { token: a.token })).status,
    ).toBe(200);
    expect(
      (await server.client.post('/v3/contacts', { email: 'c4@example.org' }, { token: a.token })).status,
    ).toBe(201);
    const over = await server.client.post('/v3/contacts', { email: 'c5@example.org' }, { token: a.token });
    expect(over.status).toBe(403);
    expect(over.body.error.id).toBe('1017');
    expect(over.body.error.message).toMatch(/basic plan allows at most 5 contacts/);
    const bulk = await server.client.post(
      '/v3/contacts/bulk',
      { contacts: [{ email: 'c0@example.org' }, { email: 'c9@example.org' }] },
      { token: a.token },
    );
    expect(bulk.status).toBe(403);
    expect(bulk.body.error.id).toBe('1017');
    // Existing contacts alone do not count against the limit.
    const existingOnly = await server.client.post(
      '/v3/contacts/bulk',
      { contacts: [{ email: 'c0@example.org' }] },
      { token: a.token },
    );
    expect(existingOnly.status).toBe(200);
  });
});

describe('PATCH, PUT, DELETE /v3/contacts/{id}', () => {
  it('merges with PATCH, replaces with PUT and deletes with a JSON body', async () => {
    const a = await server.account();
    const c = (
      await server.client.post(
        '/v3/contacts',
        { ...ann, custom_fields: { '1': 'a', '2': 'b' } },
        { token: a.token },
      )
    ).body;
    const patched = await server.client.patch(
      `/v3/contacts/${c.id}`,
      { last_name: 'Park', custom_fields: { '2': 'B' } },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      first_name: 'Ann',
      last_name: 'Park',
      custom_fields: { '1': 'a', '2': 'B' },
    });
    const put = await server.client.put(
      `/v3/contacts/${c.id}`,
      { email: 'new@example.org' },
      { token: a.token },
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      first_name: '',
      last_name: '',
      email: 'new@example.org',
      custom_fields: { '1': '', '2': '' },
    });
    const bad = await server.client.patch(`/v3/contacts/${c.id}`, { email: 'nope' }, { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.id).toBe('1002');
    const other = (
      await server.client.post('/v3/contacts', { email: 'other@example.org' }, { token: a.token })
    ).body;
    const clash = await server.client.patch(
      `/v3/contacts/${other.id}`,
      { email: 'NEW@example.org' },
      { token: a.token },
    );
    expect(clash.status).toBe(409);
    expect(clash.body.error.id).toBe('1026');
    const del = await server.client.delete(`/v3/contacts/${c.id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(c.id);
    expect((await server.client.get(`/v3/contacts/${c.id}`, { token: a.token })).status).toBe(404);
  });
});

describe('GET /v3/contacts (filters) and /v3/contacts/bulk', () => {
  it('filters by status, searches and sorts', async () => {
    const a = await server.account();
    const people = [
      { first_name: 'Cleo', last_name: 'Zed', email: 'cleo@example.org', custom_fields: { '3': 'b' } },
      { first_name: 'Abe', last_name: 'Young', email: 'abe@example.org', custom_fields: { '3': 'c' } },
      { first_name: 'Bea', last_name: 'Xu', email: 'bea@sample.net', custom_fields: { '3': 'a' } },
      { first_name: 'Dan', last_name: 'Wu', email: 'dan@example.org' },
      { first_name: 'Eve', last_name: 'Vo', email: 'eve_100%@example.org' },
    ];
    const created = await server.client.post('/v3/contacts/bulk', { contacts: people }, { token: a.token });
    expect(created.body.succeeded).toHaveLength(5);
    await setContactStatus(server.deps, a.user.id, 'dan@example.org', 'optout');
    await setContactStatus(server.deps, a.user.id, 'EVE_100%@example.org', 'bounced');

    const active = await server.client.get('/v3/contacts', { token: a.token });
    expect(active.status).toBe(200);
    expect(active.body.data.map((c: any) => c.email)).toEqual([
      'abe@example.org',
      'bea@sample.net',
      'cleo@example.org',
    ]);
    expect(active.body.data[0]).toEqual({
      id: expect.any(String),
      first_name: 'Abe',
      last_name: 'Young',
      email: 'abe@example.org',
      phone_number: null,
      status: 'active',
      href: expect.stringContaining('/v3/contacts/'),
    });
    const opt = await server.client.get('/v3/contacts?status=optout', { token: a.token });
    expect(opt.body.data.map((c: any) => c.first_name)).toEqual(['Dan']);
    const bounced = await server.client.get('/v3/contacts?status=bounced', { token: a.token });
    expect(bounced.body.data.map((c: any) => c.status)).toEqual(['bounced']);

    const byLast = await server.client.get('/v3/contacts?sort_by=last_name&sort_order=DESC', {
      token: a.token,
    });
    expect(byLast.body.data.map((c: any) => c.last_name)).toEqual(['Zed', 'Young', 'Xu']);
    const byCustom = await server.client.get('/v3/contacts?sort_by=3', { token: a.token });
    expect(byCustom.body.data.map((c: any) => c.first_name)).toEqual(['Bea', 'Cleo', 'Abe']);
    const search = await server.client.get('/v3/contacts?search=EXAMPLE', { token: a.token });
    expect(search.body.total).toBe(2);
    const byName = await server.client.get('/v3/contacts?search_by=first_name&search=e', { token: a.token });
    expect(byName.body.data.map((c: any) => c.first_name)).toEqual(['Abe', 'Bea', 'Cleo']);
    const literal = await server.client.get('/v3/contacts?status=bounced&search=100%25', { token: a.token });
    expect(literal.body.total).toBe(1);
    const noWildcard = await server.client.get('/v3/contacts?search=a_e', { token: a.token });
    expect(noWildcard.body.total).toBe(0);

    const paged = await server.client.get('/v3/contacts/bulk?per_page=2&page=2', { token: a.token });
    expect(paged.status).toBe(200);
    expect(paged.body).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect(paged.body.data[0]).toMatchObject({ email: 'cleo@example.org', custom_fields: { '3': 'b' } });
    expect(paged.body.links.prev).toContain('page=1');

    for (const q of [
      'status=gone',
      'sort_by=age',
      'sort_order=up',
      'per_page=5000',
      'search_by=7',
      'search=%00',
    ]) {
      const bad = await server.client.get(`/v3/contacts?${q}`, { token: a.token });
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.id).toBe('1003');
    }
    const other = await server.account();
    expect((await server.client.get('/v3/contacts', { token: other.token })).body.total).toBe(0);
  });
});

describe('POST /v3/contacts/bulk', () => {
  it('sorts each contact into succeeded, existing or invalids', async () => {
    const a = await server.account();
    await server.client.post('/v3/contacts', { ...ann, custom_fields: { '1': 'keep' } }, { token: a.token });
    const res = await server.client.post(
      '/v3/contacts/bulk',
      {
        contacts: [
          { first_name: 'New', email: 'new@example.org' },
          { first_name: 'Changed', email: 'ANN@example.org' },
          { email: 'broken' },
          { first_name: 'Twice', email: 'new@example.org' },
          { phone_number: '+15557654321' },
        ],
      },
      { token: a.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.succeeded.map((c: any) => c.email ?? c.phone_number)).toEqual([
      'new@example.org',
      '+15557654321',
    ]);
    expect(res.body.existing).toHaveLength(1);
    expect(res.body.existing[0]).toMatchObject({ email: 'ann@example.org', first_name: 'Ann' });
    expect(res.body.invalids).toEqual([
      { email: 'broken', error: expect.stringMatching(/not an email/) },
      { first_name: 'Twice', email: 'new@example.org', error: expect.stringMatching(/earlier/) },
    ]);

    const update = await server.client.post(
      '/v3/contacts/bulk',
      {
        contacts: [{ first_name: 'Changed', email: 'ann@example.org', custom_fields: { '2': 'two' } }],
        update_existing: true,
      },
      { token: a.token },
    );
    expect(update.body.succeeded).toHaveLength(1);
    expect(update.body.succeeded[0]).toMatchObject({
      first_name: 'Changed',
      last_name: 'Lee',
      custom_fields: { '1': 'keep', '2': 'two' },
    });
    expect(update.body.existing).toEqual([]);

    for (const body of [
      {},
      { contacts: [] },
      { contacts: 'x' },
      { contacts: [{ email: 'a@b.co' }], update_existing: 'yes' },
    ]) {
      const bad = await server.client.post('/v3/contacts/bulk', body, { token: a.token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.id).toBe('1002');
    }
  });
});

describe('large bulk requests', () => {
  it('matches existing contacts across many items (case-insensitively)', async () => {
    const a = await server.account();
    const first = Array.from({ length: 250 }, (_, i) => ({
      email: `p${i}@example.org`,
      first_name: `P${i}`,
    }));
    const r1 = await server.client.post('/v3/contacts/bulk', { contacts: first }, { token: a.token });
    expect(r1.body.succeeded).toHaveLength(250);
    const second = Array.from({ length: 250 }, (_, i) => ({ email: `P${i + 50}@EXAMPLE.org` }));
    const r2 = await server.client.post('/v3/contacts/bulk', { contacts: second }, { token: a.token });
    expect(r2.body.existing).toHaveLength(200);
    expect(r2.body.succeeded.map((c: any) => c.email)).toEqual(
      Array.from({ length: 50 }, (_, i) => `P${i + 250}@EXAMPLE.org`),
    );
    expect((await server.client.get('/v3/contacts?per_page=1', { token: a.token })).body.total).toBe(300);
  });
});

describe('contact lists', () => {
  it('creates, reads, renames, copies, merges and deletes lists', async () => {
    const a = await server.account();
    const created = await server.client.post('/v3/contact_lists', { name: 'Customers' }, { token: a.token });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Customers',
      href: `${server.client.baseUrl}/v3/contact_lists/${created.body.id}`,
    });
    clock.advance(1000); // lists are listed in creation order
    const unnamed = await server.client.post('/v3/contact_lists', {}, { token: a.token });
    expect(unnamed.body.name).toBe('New List');
    const list = created.body.id;

    const one = await server.client.post(`/v3/contact_lists/${list}/contacts`, ann, { token: a.token });
    expect(one.status).toBe(201);
    const bulk = await server.client.post(
      `/v3/contact_lists/${list}/contacts/bulk`,
      { contacts: [{ email: 'b@example.org' }, { email: 'ann@example.org' }, { email: 'bad' }] },
      { token: a.token },
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body.succeeded).toHaveLength(1);
    expect(bulk.body.existing).toHaveLength(1);
    expect(bulk.body.invalids).toHaveLength(1);
    // A contact outside the list is not listed.
    await server.client.post('/v3/contacts', { email: 'outside@example.org' }, { token: a.token });
    const members = await server.client.get(`/v3/contact_lists/${list}/contacts`, { token: a.token });
    expect(members.body.data.map((c: any) => c.email)).toEqual(['ann@example.org', 'b@example.org']);
    const membersBulk = await server.client.get(`/v3/contact_lists/${list}/contacts/bulk?search=ann`, {
      token: a.token,
    });
    expect(membersBulk.body.data).toHaveLength(1);
    expect(membersBulk.body.data[0].custom_fields).toBeDefined();

    const renamed = await server.client.patch(
      `/v3/contact_lists/${list}`,
      { name: 'Clients' },
      { token: a.token },
    );
    expect(renamed.body.name).toBe('Clients');
    const put = await server.client.put(`/v3/contact_lists/${list}`, { name: 'Buyers' }, { token: a.token });
    expect(put.body.name).toBe('Buyers');
    expect(
      (await server.client.patch(`/v3/contact_lists/${list}`, { name: '' }, { token: a.token })).body.error
        .id,
    ).toBe('1002');
    expect((await server.client.put(`/v3/contact_lists/${list}`, {}, { token: a.token })).body.error.id).toBe(
      '1002',
    );

    const copy = await server.client.post(`/v3/contact_lists/${list}/copy`, undefined, { token: a.token });
    expect(copy.status).toBe(201);
    expect(copy.body.name).toBe('Copy of Buyers');
    expect(
      (await server.client.get(`/v3/contact_lists/${copy.body.id}/contacts`, { token: a.token })).body.total,
    ).toBe(2);

    const other = (await server.client.post('/v3/contact_lists', { name: 'Other' }, { token: a.token })).body;
    await server.client.post(
      `/v3/contact_lists/${other.id}/contacts`,
      { email: 'c@example.org' },
      { token: a.token },
    );
    await server.client.post(
      `/v3/contact_lists/${other.id}/contacts/bulk`,
      { contacts: [{ email: 'ann@example.org' }] },
      { token: a.token },
    );
    const merged = await server.client.post(
      `/v3/contact_lists/${list}/merge`,
      { list_id: other.id },
      { token: a.token },
    );
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: list, name: 'Buyers' });
    expect(
      (await server.client.get(`/v3/contact_lists/${list}/contacts`, { token: a.token })).body.total,
    ).toBe(3);
    expect(
      (await server.client.post(`/v3/contact_lists/${list}/merge`, {}, { token: a.token })).body.error.id,
    ).toBe('1002');
    expect(
      (
        await server.client.post(
          `/v3/contact_lists/${list}/merge`,
          { list_id: '999999999' },
          { token: a.token },
        )
      ).status,
    ).toBe(404);

    const lists = await server.client.get('/v3/contact_lists', { token: a.token });
    expect(lists.body.total).toBe(4);
    expect(lists.body.data[0]).toEqual({
      id: list,
      name: 'Buyers',
      href: expect.stringContaining(`/contact_lists/${list}`),
    });

    const del = await server.client.delete(`/v3/contact_lists/${list}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(list);
    expect((await server.client.get(`/v3/contact_lists/${list}`, { token: a.token })).status).toBe(404);
    // Its contacts stay in the address book.
    expect((await server.client.get('/v3/contacts?search=ann', { token: a.token })).body.total).toBe(1);
  });

  it('removes a deleted contact from its lists', async () => {
    const a = await server.account();
    const list = (await server.client.post('/v3/contact_lists', { name: 'L' }, { token: a.token })).body.id;
    const c = (await server.client.post(`/v3/contact_lists/${list}/contacts`, ann, { token: a.token })).body;
    await server.client.delete(`/v3/contacts/${c.id}`, { token: a.token });
    expect(
      (await server.client.get(`/v3/contact_lists/${list}/contacts`, { token: a.token })).body.total,
    ).toBe(0);
  });
});

describe('contact fields', () => {
  it('lists six fields with default labels and relabels one', async () => {
    const a = await server.account();
    const res = await server.client.get('/v3/contact_fields', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(res.body.data[0]).toEqual({
      id: '1',
      label: 'Custom 1',
      href: `${server.client.baseUrl}/v3/contact_fields/1`,
    });
    const patched = await server.client.patch(
      '/v3/contact_fields/2',
      { label: 'Company' },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      id: '2',
      label: 'Company',
      href: `${server.client.baseUrl}/v3/contact_fields/2`,
    });
    expect((await server.client.get('/v3/contact_fields/2', { token: a.token })).body.label).toBe('Company');
    // Labels belong to the account.
    const b = await server.account();
    expect((await server.client.get('/v3/contact_fields/2', { token: b.token })).body.label).toBe('Custom 2');
    expect((await server.client.get('/v3/contact_fields/7', { token: a.token })).status).toBe(404);
    for (const body of [{}, { label: '' }, { label: 3 }, { label: 'x', extra: 1 }]) {
      const bad = await server.client.patch('/v3/contact_fields/2', body, { token: a.token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.id).toBe('1002');
    }
  });
});

describe('authorization on every contacts endpoint', () => {
  it("answers 401/1010 without a token, 403/1014 without the scope, 404/1020 for another account's resource", async () => {
    const owner = await server.account();
    const contact = (await server.client.post('/v3/contacts', ann, { token: owner.token })).body.id;
    const list = (await server.client.post('/v3/contact_lists', { name: 'L' }, { token: owner.token })).body
      .id;
    const otherList = (await server.client.post('/v3/contact_lists', { name: 'M' }, { token: owner.token }))
      .body.id;
    const stranger = await server.account();
    const strangerList = (
      await server.client.post('/v3/contact_lists', { name: 'S' }, { token: stranger.token })
    ).body.id;
    const readOnly = await server.account({ scopes: ['contacts_read'] });
    const writeOnly = await server.account({ scopes: ['contacts_write'] });

    const endpoints: Array<[string, string, unknown, 'read' | 'write', boolean]> = [
      ['GET', '/v3/contacts', undefined, 'read', false],
      ['GET', '/v3/contacts/bulk', undefined, 'read', false],
      ['POST', '/v3/contacts', { email: 'z@example.org' }, 'write', false],
      ['POST', '/v3/contacts/bulk', { contacts: [{ email: 'z@example.org' }] }, 'write', false],
      ['GET', `/v3/contacts/${contact}`, undefined, 'read', true],
      ['PATCH', `/v3/contacts/${contact}`, { first_name: 'Z' }, 'write', true],
      ['PUT', `/v3/contacts/${contact}`, { email: 'z2@example.org' }, 'write', true],
      ['DELETE', `/v3/contacts/${contact}`, undefined, 'write', true],
      ['GET', '/v3/contact_lists', undefined, 'read', false],
      ['POST', '/v3/contact_lists', { name: 'N' }, 'write', false],
      ['GET', `/v3/contact_lists/${list}`, undefined, 'read', true],
      ['PATCH', `/v3/contact_lists/${list}`, { name: 'N' }, 'write', true],
      ['PUT', `/v3/contact_lists/${list}`, { name: 'N' }, 'write', true],
      ['POST', `/v3/contact_lists/${list}/copy`, undefined, 'write', true],
      ['POST', `/v3/contact_lists/${list}/merge`, { list_id: otherList }, 'write', true],
      ['GET', `/v3/contact_lists/${list}/contacts`, undefined, 'read', true],
      ['GET', `/v3/contact_lists/${list}/contacts/bulk`, undefined, 'read', true],
      ['POST', `/v3/contact_lists/${list}/contacts`, { email: 'y@example.org' }, 'write', true],
      [
        'POST',
        `/v3/contact_lists/${list}/contacts/bulk`,
        { contacts: [{ email: 'y@example.org' }] },
        'write',
        true,
      ],
      ['DELETE', `/v3/contact_lists/${list}`, undefined, 'write', true],
      ['GET', '/v3/contact_fields', undefined, 'read', false],
      ['GET', '/v3/contact_fields/1', undefined, 'read', false],
      ['PATCH', '/v3/contact_fields/1', { label: 'L' }, 'write', false],
    ];
    for (const [method, path, body, kind, owned] of endpoints) {
      const anon = await server.client.request(method, path, { body });
      expect(anon.status, `${method} ${path}`).toBe(401);
      expect(anon.body.error.id).toBe('1010');
      const wrong = kind === 'read' ? writeOnly : readOnly;
      const scoped = await server.client.request(method, path, { body, token: wrong.token });
      expect(scoped.status, `${method} ${path}`).toBe(403);
      expect(scoped.body.error.id).toBe('1014');
      if (owned) {
        const theirs = await server.client.request(method, path, { body, token: stranger.token });
        expect(theirs.status, `${method} ${path}`).toBe(404);
        expect(theirs.body.error.id).toBe('1020');
      }
    }
    // Merging someone else's list into your own is refused the same way.
    const mergeTheirs = await server.client.post(
      `/v3/contact_lists/${list}/merge`,
      { list_id: strangerList },
      { token: owner.token },
    );
    expect(mergeTheirs.status).toBe(404);
  });
});
