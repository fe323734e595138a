import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../src/domain/teams/teams.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let other: TestTeam;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock });
  t = await makeTeam(server);
  other = await makeTeam(server, {}, 'Other team');
});
afterAll(() => server.close());

const get = (path: string, token?: string) => server.client.get(path, { token });

describe('GET /groups', () => {
  it("lists the caller's one team", async () => {
    const res = await get('/v3/groups', t.regular.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: t.team.id, name: 'Research', href: `${server.url}/v3/groups/${t.team.id}` }],
      per_page: 50,
      page: 1,
      total: 1,
      links: { self: `${server.url}/v3/groups?page=1&per_page=50` },
    });
  });

  it('lists nothing for a user without a team, or with only a pending invitation', async () => {
    const loner = await server.account();
    const res = await get('/v3/groups', loner.token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
    expect(res.body.data).toEqual([]);
    const third = await makeTeam(server, {}, 'Third');
    await addMember(
      server.deps,
      third.team.id,
      { username: loner.user.username, pending: true },
      { userId: third.owner.user.id },
    );
    const pending = await get('/v3/groups', loner.token);
    expect(pending.body.total).toBe(0);
    expect((await get(`/v3/groups/${third.team.id}`, loner.token)).status).toBe(404);
    const members = await get(`/v3/groups/${third.team.id}/members?include=status`, third.owner.token);
    expect(members.body.data.map((m: { status: string }) => m.status)).toEqual([
      'active',
      'active',
      'active',
      'pending',
    ]);
  });

  it('refuses bad paging, a missing scope, the basic plan and no token', async () => {
    const bad = await get('/v3/groups?per_page=0', t.owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.id).toBe('1003');
    const noScope = await server.account({ scopes: ['users_read'] });
    const scope = await get('/v3/groups', noScope.token);
    expect(scope.status).toBe(403);
    expect(scope.body.error.id).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    const plan = await get('/v3/groups', basic.token);
    expect(plan.status).toBe(403);
    expect(plan.body.error.id).toBe('1015');
    const none = await get('/v3/groups');
    expect(none.status).toBe(401);
    expect(none.body.error.id).toBe('1010');
  });
});

describe('GET /groups/{id}', () => {
  it('shows owners and admins the size and limits of the team', async () => {
    for (const who of [t.owner, t.admin]) {
      const res = await get(`/v3/groups/${t.team.id}`, who.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: t.team.id,
        name: 'Research',
        member_count: 3,
        max_invites: 100,
        date_created: '2026-06-01T12:00:00+00:00',
        href: `${server.url}/v3/groups/${t.team.id}`,
      });
    }
  });

  it("shows a plain member the owner's email instead", async () => {
    const res = await get(`/v3/groups/${t.team.id}`, t.regular.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t.team.id,
      name: 'Research',
      owner_email: t.owner.user.email,
      href: `${server.url}/v3/groups/${t.team.id}`,
    });
  });

  it("answers 404/1020 for another team's group and for ids that cannot exist", async () => {
    const res = await get(`/v3/groups/${other.team.id}`, t.owner.token);
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
    expect((await get('/v3/groups/abc', t.owner.token)).status).toBe(404);
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    const noScope = await server.account({ scopes: ['users_read'] });
    expect((await get(`/v3/groups/${t.team.id}`, noScope.token)).body.error.id).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect((await get(`/v3/groups/${t.team.id}`, basic.token)).body.error.id).toBe('1015');
    expect((await get(`/v3/groups/${t.team.id}`)).status).toBe(401);
  });

  it('answers HEAD and OPTIONS', async () => {
    const head = await server.client.request('HEAD', `/v3/groups/${t.team.id}`, { token: t.owner.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const options = await server.client.request('OPTIONS', `/v3/groups/${t.team.id}`);
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});

describe('GET /groups/{id}/members', () => {
  it('lists id, username and href of every member, oldest first', async () => {
    const res = await get(`/v3/groups/${t.team.id}/members`, t.regular.token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.data).toEqual(
      [
        [t.memberIds.owner, t.owner],
        [t.memberIds.admin, t.admin],
        [t.memberIds.regular, t.regular],
      ].map(([id, a]) => ({
        id,
        username: (a as typeof t.owner).user.username,
        href: `${server.url}/v3/groups/${t.team.id}/members/${id}`,
      })),
    );
  });

  it('adds the properties named by include', async () => {
    const res = await get(
      `/v3/groups/${t.team.id}/members?include=type,status,email,user_id,first_name,last_name,language`,
      t.owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data[1]).toEqual({
      id: t.memberIds.admin,
      username: t.admin.user.username,
      href: `${server.url}/v3/groups/${t.team.id}/members/${t.memberIds.admin}`,
      type: 'admin',
      status: 'active',
      email: t.admin.user.email,
      user_id: t.admin.user.id,
      first_name: 'Test',
      last_name: 'User',
      language: 'en',
    });
    expect(res.body.data.map((m: { type: string }) => m.type)).toEqual(['account_owner', 'admin', 'regular']);
    const some = await get(`/v3/groups/${t.team.id}/members?include=type`, t.owner.token);
    expect(Object.keys(some.body.data[0]).sort()).toEqual(['href', 'id', 'type', 'username']);
  });

  it('pages, keeping the other query parameters in the links', async () => {
    const res = await get(`/v3/groups/${t.team.id}/members?per_page=2&page=1&include=type`, t.owner.token);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.links.next).toBe(
      `${server.url}/v3/groups/${t.team.id}/members?page=2&per_page=2&include=type`,
    );
    const p2 = await get(`/v3/groups/${t.team.id}/members?per_page=2&page=2`, t.owner.token);
    expect(p2.body.data.map((m: { id: string }) => m.id)).toEqual([t.memberIds.regular]);
    expect(p2.body.links.next).toBeUndefined();
  });

  it('filters by division_ids (member ids)', async () => {
    const res = await get(
      `/v3/groups/${t.team.id}/members?division_ids=${t.memberIds.regular},${t.memberIds.owner}`,
      t.owner.token,
    );
    expect(res.body.total).toBe(2);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([t.memberIds.owner, t.memberIds.regular]);
    const foreign = await get(
      `/v3/groups/${t.team.id}/members?division_ids=${other.memberIds.admin}`,
      t.owner.token,
    );
    expect(foreign.body.total).toBe(0);
  });

  it('refuses an unknown include, bad division_ids and bad paging with 400/1003', async () => {
    for (const q of ['include=password', 'include=', 'division_ids=x,1', 'page=0', 'per_page=1001']) {
      const res = await get(`/v3/groups/${t.team.id}/members?${q}`, t.owner.token);
      expect(res.status, q).toBe(400);
      expect(res.body.error.id).toBe('1003');
    }
  });

  it("answers 404 for another team's members, and refuses scope, plan and no token", async () => {
    expect((await get(`/v3/groups/${other.team.id}/members`, t.owner.token)).status).toBe(404);
    const noScope = await server.account({ scopes: ['users_read'] });
    expect((await get(`/v3/groups/${t.team.id}/members`, noScope.token)).body.error.id).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect((await get(`/v3/groups/${t.team.id}/members`, basic.token)).body.error.id).toBe('1015');
    expect((await get(`/v3/groups/${t.team.id}/members`)).status).toBe(401);
  });
});

describe('GET /groups/{id}/members/{id}', () => {
  it('reads a member', async () => {
    const res = await get(`/v3/groups/${t.team.id}/members/${t.memberIds.regular}`, t.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t.memberIds.regular,
      user_id: t.regular.user.id,
      username: t.regular.user.username,
      first_name: 'Test',
      last_name: 'User',
      email: t.regular.user.email,
      language: 'en',
      type: 'regular',
      status: 'active',
      date_created: '2026-06-01T12:00:00+00:00',
      href: `${server.url}/v3/groups/${t.team.id}/members/${t.memberIds.regular}`,
    });
  });

  it("answers 404/1020 for another team's member, even under our group id", async () => {
    const a = await get(`/v3/groups/${t.team.id}/members/${other.memberIds.regular}`, t.owner.token);
    expect(a.status).toBe(404);
    expect(a.body.error.id).toBe('1020');
    const b = await get(`/v3/groups/${other.team.id}/members/${other.memberIds.regular}`, t.owner.token);
    expect(b.status).toBe(404);
    expect((await get(`/v3/groups/${t.team.id}/members/nope`, t.owner.token)).status).toBe(404);
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    const path = `/v3/groups/${t.team.id}/members/${t.memberIds.owner}`;
    const noScope = await server.account({ scopes: ['users_read'] });
    expect((await get(path, noScope.token)).body.error.id).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect((await get(path, basic.token)).body.error.id).toBe('1015');
    expect((await get(path)).status).toBe(401);
  });
});

describe('PATCH /groups/{id}/members/{id}', () => {
  const path = (id: string) => `/v3/groups/${t.team.id}/members/${id}`;

  it('lets a member change their own email, and the change shows everywhere', async () => {
    const res = await server.client.patch(
      path(t.memberIds.regular),
      { email: 'new.regular@example.org' },
      { token: t.regular.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('new.regular@example.org');
    expect(res.body.id).toBe(t.memberIds.regular);
    const read = await get(path(t.memberIds.regular), t.owner.token);
    expect(read.body.email).toBe('new.regular@example.org');
    const me = await get('/v3/users/me', t.regular.token);
    expect(me.body.email).toBe('new.regular@example.org');
  });

  it("lets an admin change a regular member's email but not the account owner's", async () => {
    const ok = await server.client.patch(
      path(t.memberIds.regular),
      { email: 'by.admin@example.org' },
      { token: t.admin.token },
    );
    expect(ok.status).toBe(200);
    const owner = await server.client.patch(
      path(t.memberIds.owner),
      { email: 'x@example.org' },
      { token: t.admin.token },
    );
    expect(owner.status).toBe(403);
    expect(owner.body.error.id).toBe('1016');
    const byOwner = await server.client.patch(
      path(t.memberIds.admin),
      { email: 'admin2@example.org' },
      { token: t.owner.token },
    );
    expect(byOwner.status).toBe(200);
  });

  it("refuses a regular member changing someone else's email with 403/1016", async () => {
    const res = await server.client.patch(
      path(t.memberIds.admin),
      { email: 'z@example.org' },
      { token: t.regular.token },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1016');
  });

  it('refuses an address another member uses with 409/1026 (case-insensitively)', async () => {
    const res = await server.client.patch(
      path(t.memberIds.regular),
      { email: t.owner.user.email.toUpperCase() },
      { token: t.regular.token },
    );
    expect(res.status).toBe(409);
    expect(res.body.error.id).toBe('1026');
    expect(res.body.error.message).toContain('already uses');
  });

  it('refuses bad bodies with 400/1002', async () => {
    for (const body of [
      { email: 'not-an-email' },
      { email: 42 },
      {},
      { email: 'a@b.co', name: 'x' },
      undefined,
    ]) {
      const res = await server.client.patch(path(t.memberIds.regular), body, { token: t.regular.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
    const malformed = await server.client.request('PATCH', path(t.memberIds.regular), {
      token: t.regular.token,
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.body.error.id).toBe('1001');
  });

  it("answers 404 for another team's member, and refuses scope, plan and no token", async () => {
    const foreign = await server.client.patch(
      `/v3/groups/${other.team.id}/members/${other.memberIds.regular}`,
      { email: 'a@example.org' },
      { token: t.owner.token },
    );
    expect(foreign.status).toBe(404);
    const noScope = await server.account({ scopes: ['users_read'] });
    expect(
      (
        await server.client.patch(
          path(t.memberIds.regular),
          { email: 'a@example.org' },
          { token: noScope.token },
        )
      ).body.error.id,
    ).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect(
      (
        await server.client.patch(
          path(t.memberIds.regular),
          { email: 'a@example.org' },
          { token: basic.token },
        )
      ).body.error.id,
    ).toBe('1015');
    expect((await server.client.patch(path(t.memberIds.regular), { email: 'a@example.org' })).status).toBe(
      401,
    );
  });
});
