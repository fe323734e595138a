import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, removeMember } from '../../src/domain/teams/teams.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let other: TestTeam;
const clock = new TestClock('2026-07-01T08:30:00Z');
const FULL_ACCESS = '03decb5be70a42428d50f52ac38df3d7';
const VIEWER = 'f24b9ce183b8430e811d5175831b5937';

beforeAll(async () => {
  server = await startServer({ clock });
  t = await makeTeam(server);
  other = await makeTeam(server, {}, 'Rivals');
});
afterAll(() => server.close());

const c = () => server.client;
async function create(token: string, body: Record<string, unknown>) {
  const res = await c().post('/v3/workgroups', body, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function refusesScopePlanToken(method: string, path: string, scope: string, body?: unknown) {
  const noScope = await server.account({ scopes: ['users_read'] });
  const a = await c().request(method, path, { token: noScope.token, body });
  expect(a.status, `${method} ${path} without scope`).toBe(403);
  expect(a.body.error.id).toBe('1014');
  expect(a.body.error.message).toContain(scope);
  const basic = await server.account({ plan: 'basic', scopes: ['users_read', scope as 'roles_read'] });
  const b = await c().request(method, path, { token: basic.token, body });
  expect(b.status, `${method} ${path} on basic`).toBe(403);
  expect(b.body.error.id).toBe('1015');
  const n = await c().request(method, path, { body });
  expect(n.status).toBe(401);
  expect(n.body.error.id).toBe('1010');
}

describe('POST /workgroups', () => {
  it('creates a workgroup whose creator is its sole owner, with the Full Access default role', async () => {
    const wg = await create(t.regular.token, {
      name: 'Field team',
      is_visible: true,
      metadata: { region: 'north' },
      description: 'Collects in the north',
    });
    expect(wg.id).toMatch(/^[0-9a-f]{32}$/);
    expect(wg).toMatchObject({
      name: 'Field team',
      description: 'Collects in the north',
      is_visible: true,
      metadata: { region: 'north' },
      created_at: '2026-07-01T08:30:00',
      updated_at: '2026-07-01T08:30:00',
      members: [{ user_id: t.regular.user.id, is_owner: true }],
      membership: { is_owner: true, status: 'active' },
      shares_count: 0,
      share_count: '0',
      members_count: 1,
      organization_id: t.team.id,
    });
    expect(wg.default_role).toEqual({
      id: FULL_ACCESS,
      name: 'Full Access',
      description: expect.any(String),
      is_enabled: true,
      metadata: {},
    });
  });

  it('accepts a body without metadata or description', async () => {
    const wg = await create(t.owner.token, { name: 'Bare', is_visible: false });
    expect(wg.metadata).toEqual({});
    expect(wg.description).toBe('');
  });

  it('refuses bad bodies with 400/1002', async () => {
    for (const body of [
      { is_visible: true },
      { name: 'x' },
      { name: '', is_visible: true },
      { name: '   ', is_visible: true },
      { name: 'x', is_visible: 'often' },
      { name: 'x', is_visible: true, metadata: [] },
      { name: 'x', is_visible: true, description: 5 },
      { name: 'x', is_visible: true, colour: 'red' },
      { name: 'x'.repeat(101), is_visible: true },
    ]) {
      const res = await c().post('/v3/workgroups', body, { token: t.owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('POST', '/v3/workgroups', 'workgroups_write', {
      name: 'x',
      is_visible: true,
    });
  });
});

describe('visibility', () => {
  let hidden: { id: string };
  let visible: { id: string };
  beforeAll(async () => {
    hidden = await create(t.owner.token, { name: 'Hidden', is_visible: false });
    visible = await create(t.owner.token, { name: 'Open', is_visible: true });
  });

  it('shows a hidden workgroup only to its members and the team owner and admins', async () => {
    const byAdmin = await c().get(`/v3/workgroups/${hidden.id}`, { token: t.admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.membership).toEqual({ is_owner: false, status: null });
    const byRegular = await c().get(`/v3/workgroups/${hidden.id}`, { token: t.regular.token });
    expect(byRegular.status).toBe(404);
    expect(byRegular.body.error.id).toBe('1020');
    const list = await c().get('/v3/workgroups', { token: t.regular.token });
    const names = list.body.data.map((w: { name: string }) => w.name);
    expect(names).toContain('Open');
    expect(names).not.toContain('Hidden');
    const adminList = await c().get('/v3/workgroups', { token: t.admin.token });
    expect(adminList.body.data.map((w: { name: string }) => w.name)).toEqual(
      expect.arrayContaining(['Hidden', 'Open', 'Field team', 'Bare']),
    );
  });

  it("never shows another team's workgroups", async () => {
    for (const id of [hidden.id, visible.id]) {
      const res = await c().get(`/v3/workgroups/${id}`, { token: other.owner.token });
      expect(res.status).toBe(404);
    }
    const list = await c().get('/v3/workgroups', { token: other.owner.token });
    expect(list.body.total).toBe(0);
    expect((await c().get('/v3/workgroups/not-hex', { token: t.owner.token })).status).toBe(404);
  });

  it('lets a user without a team keep workgroups to themselves', async () => {
    const loner = await server.account();
    const wg = await create(loner.token, { name: 'Solo', is_visible: true });
    expect(wg.organization_id).toBe(loner.user.id);
    expect((await c().get(`/v3/workgroups/${wg.id}`, { token: t.owner.token })).status).toBe(404);
    const add = await c().post(
      `/v3/workgroups/${wg.id}/members`,
      { user_id: t.regular.user.id, is_workgroup_owner: false },
      { token: loner.token },
    );
    expect(add.status).toBe(404);
  });

  it('pages the list', async () => {
    const res = await c().get('/v3/workgroups?per_page=1&page=2', { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.total).toBe(4);
    expect(res.body.links.prev).toBeDefined();
    expect((await c().get('/v3/workgroups?page=x', { token: t.admin.token })).body.error.id).toBe('1003');
  });

  it('refuses a missing scope, the basic plan and no token for reads', async () => {
    await refusesScopePlanToken('GET', '/v3/workgroups', 'workgroups_shares_read');
    await refusesScopePlanToken('GET', `/v3/workgroups/${visible.id}`, 'workgroups_shares_read');
  });
});

describe('PATCH and DELETE /workgroups/{id}', () => {
  it('lets an owner change every field and the default role', async () => {
    const wg = await create(t.regular.token, { name: 'Before', is_visible: true });
    clock.advance(60_000);
    const res = await c().patch(
      `/v3/workgroups/${wg.id}`,
      { name: 'After', description: 'New', is_visible: false, metadata: { a: 1 }, default_role_id: VIEWER },
      { token: t.regular.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'After',
      description: 'New',
      is_visible: false,
      metadata: { a: 1 },
      created_at: '2026-07-01T08:30:00',
      updated_at: '2026-07-01T08:31:00',
    });
    expect(res.body.default_role.name).toBe('Viewer');
    const read = await c().get(`/v3/workgroups/${wg.id}`, { token: t.regular.token });
    expect(read.body.name).toBe('After');
  });

  it('lets a team admin change a workgroup they are not in, but not a plain member who only sees it', async () => {
    const wg = await create(t.owner.token, { name: 'Owned', is_visible: true });
    const admin = await c().patch(
      `/v3/workgroups/${wg.id}`,
      { description: 'by admin' },
      { token: t.admin.token },
    );
    expect(admin.status).toBe(200);
    const regular = await c().patch(`/v3/workgroups/${wg.id}`, { name: 'nope' }, { token: t.regular.token });
    expect(regular.status).toBe(403);
    expect(regular.body.error.id).toBe('1016');
    const foreign = await c().patch(
      `/v3/workgroups/${wg.id}`,
      { name: 'nope' },
      { token: other.owner.token },
    );
    expect(foreign.status).toBe(404);
  });

  it('refuses bad bodies with 400/1002', async () => {
    const wg = await create(t.owner.token, { name: 'Strict', is_visible: true });
    for (const body of [
      { name: '' },
      { is_visible: 1 },
      { metadata: 'x' },
      { owner: 'me' },
      { default_role_id: 'ff' },
    ]) {
      const res = await c().patch(`/v3/workgroups/${wg.id}`, body, { token: t.owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
    await refusesScopePlanToken('PATCH', `/v3/workgroups/${wg.id}`, 'workgroups_write', { name: 'y' });
  });

  it('deletes a workgroup and answers it; then it is gone', async () => {
    const wg = await create(t.admin.token, { name: 'Doomed', is_visible: true });
    const regular = await c().delete(`/v3/workgroups/${wg.id}`, { token: t.regular.token });
    expect(regular.status).toBe(403);
    const foreign = await c().delete(`/v3/workgroups/${wg.id}`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    await refusesScopePlanToken('DELETE', `/v3/workgroups/${wg.id}`, 'workgroups_write');
    const res = await c().delete(`/v3/workgroups/${wg.id}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(wg.id);
    expect(res.body.name).toBe('Doomed');
    expect((await c().get(`/v3/workgroups/${wg.id}`, { token: t.admin.token })).status).toBe(404);
    expect((await c().delete(`/v3/workgroups/${wg.id}`, { token: t.admin.token })).status).toBe(404);
  });
});

describe('workgroup members', () => {
  let wg: { id: string };
  const path = () => `/v3/workgroups/${wg.id}/members`;
  beforeAll(async () => {
    wg = await create(t.admin.token, { name: 'Crew', is_visible: false });
  });

  it('adds a member of the team', async () => {
    clock.advance(1000);
    const res = await c().post(
      path(),
      { user_id: t.regular.user.id, is_workgroup_owner: false },
      { token: t.admin.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: t.regular.user.id,
      workgroup_id: wg.id,
      is_workgroup_owner: false,
      role_assignment_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    // The new member now sees the hidden workgroup, and it counts them.
    const seen = await c().get(`/v3/workgroups/${wg.id}`, { token: t.regular.token });
    expect(seen.status).toBe(200);
    expect(seen.body.members_count).toBe(2);
    expect(seen.body.membership).toEqual({ is_owner: false, status: 'active' });
  });

  it('refuses a second add of the same user (409/1026) and users of other teams (404/1020)', async () => {
    const again = await c().post(
      path(),
      { user_id: t.regular.user.id, is_workgroup_owner: true },
      { token: t.admin.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.id).toBe('1026');
    const foreign = await c().post(
      path(),
      { user_id: other.regular.user.id, is_workgroup_owner: false },
      { token: t.admin.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.id).toBe('1020');
  });

  it('refuses bad bodies with 400/1002', async () => {
    for (const body of [
      {},
      { user_id: t.owner.user.id },
      { user_id: 1.5, is_workgroup_owner: false },
      { user_id: 'abc', is_workgroup_owner: false },
      { user_id: t.owner.user.id, is_workgroup_owner: false, extra: 1 },
    ]) {
      const res = await c().post(path(), body, { token: t.admin.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
  });

  it('only lets owners and team admins add', async () => {
    const res = await c().post(
      path(),
      { user_id: t.owner.user.id, is_workgroup_owner: false },
      { token: t.regular.token },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1016');
  });

  it('adds in bulk, all or none; a pending invitee is a pending member', async () => {
    const invitee = await server.account();
    await addMember(
      server.deps,
      t.team.id,
      { username: invitee.user.username, pending: true },
      { userId: t.owner.user.id },
    );
    const bad = await c().post(
      `${path()}/bulk`,
      {
        members: [
          { user_id: t.owner.user.id, is_workgroup_owner: true },
          { user_id: other.owner.user.id, is_workgroup_owner: false },
        ],
      },
      { token: t.admin.token },
    );
    expect(bad.status).toBe(404);
    const res = await c().post(
      `${path()}/bulk`,
      {
        members: [
          { user_id: t.owner.user.id, is_workgroup_owner: true },
          { user_id: invitee.user.id, is_workgroup_owner: false },
        ],
      },
      { token: t.admin.token },
    );
    expect(res.status).toBe(201);
    expect(
      res.body.members.map((m: { id: string; status: string; is_workgroup_owner: boolean }) => [
        m.id,
        m.status,
        m.is_workgroup_owner,
      ]),
    ).toEqual([
      [t.owner.user.id, 'active', true],
      [invitee.user.id, 'pending', false],
    ]);
    const read = await c().get(`/v3/workgroups/${wg.id}`, { token: t.admin.token });
    expect(read.body.members_count).toBe(4);
    expect(read.body.members.map((m: { user_id: string }) => m.user_id)).not.toContain(invitee.user.id);
    expect(read.body.members).toHaveLength(3);
    for (const body of [{ members: [] }, { members: 'x' }, {}]) {
      const r = await c().post(`${path()}/bulk`, body, { token: t.admin.token });
      expect(r.status).toBe(400);
      expect(r.body.error.id).toBe('1002');
    }
    const dup = await c().post(
      `${path()}/bulk`,
      { members: [{ user_id: t.regular.user.id, is_workgroup_owner: false }] },
      { token: t.admin.token },
    );
    expect(dup.status).toBe(409);
  });

  it('lists and reads members', async () => {
    const list = await c().get(path(), { token: t.regular.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(4);
    expect(list.body.data[0]).toMatchObject({
      id: t.admin.user.id,
      is_workgroup_owner: true,
      status: 'active',
    });
    const one = await c().get(`${path()}/${t.regular.user.id}`, { token: t.regular.token });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(t.regular.user.id);
    expect((await c().get(`${path()}/${other.owner.user.id}`, { token: t.admin.token })).status).toBe(404);
    expect((await c().get(path(), { token: other.owner.token })).status).toBe(404);
    expect((await c().get(`${path()}?per_page=abc`, { token: t.admin.token })).body.error.id).toBe('1003');
  });

  it('changes ownership, but never leaves a workgroup without an owner', async () => {
    const solo = await create(t.admin.token, { name: 'Solo owner', is_visible: true });
    const demote = await c().patch(
      `/v3/workgroups/${solo.id}/members/${t.admin.user.id}`,
      { is_workgroup_owner: false },
      { token: t.admin.token },
    );
    expect(demote.status).toBe(409);
    expect(demote.body.error.id).toBe('1025');
    const leave = await c().delete(`/v3/workgroups/${solo.id}/members/${t.admin.user.id}`, {
      token: t.admin.token,
    });
    expect(leave.status).toBe(409);

    const promote = await c().patch(
      `${path()}/${t.regular.user.id}`,
      { is_workgroup_owner: true },
      { token: t.admin.token },
    );
    expect(promote.status).toBe(200);
    expect(promote.body.is_workgroup_owner).toBe(true);
    for (const body of [{}, { is_workgroup_owner: 'yes' }, { is_workgroup_owner: true, role: 'x' }]) {
      const r = await c().patch(`${path()}/${t.regular.user.id}`, body, { token: t.admin.token });
      expect(r.status).toBe(400);
      expect(r.body.error.id).toBe('1002');
    }
    const foreign = await c().patch(
      `${path()}/${t.regular.user.id}`,
      { is_workgroup_owner: false },
      { token: other.owner.token },
    );
    expect(foreign.status).toBe(404);
  });

  it('removes a member, who then no longer sees the hidden workgroup; a member may leave', async () => {
    const byStranger = await c().delete(`${path()}/${t.regular.user.id}`, { token: other.admin.token });
    expect(byStranger.status).toBe(404);
    const res = await c().delete(`${path()}/${t.regular.user.id}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(t.regular.user.id);
    expect((await c().get(`/v3/workgroups/${wg.id}`, { token: t.regular.token })).status).toBe(404);
    expect((await c().delete(`${path()}/${t.regular.user.id}`, { token: t.admin.token })).status).toBe(404);
    const leaves = await c().delete(`${path()}/${t.owner.user.id}`, { token: t.owner.token });
    expect(leaves.status).toBe(200);
  });

  it('drops a user from the team workgroups when they leave the team', async () => {
    const team = await makeTeam(server, {}, 'Leavers');
    const w = await create(team.owner.token, { name: 'W', is_visible: false });
    await c().post(
      `/v3/workgroups/${w.id}/members`,
      { user_id: team.regular.user.id, is_workgroup_owner: true },
      { token: team.owner.token },
    );
    await removeMember(server.deps, team.team.id, team.regular.user.username, { userId: team.owner.user.id });
    const read = await c().get(`/v3/workgroups/${w.id}`, { token: team.owner.token });
    expect(read.body.members).toEqual([{ user_id: team.owner.user.id, is_owner: true }]);
  });

  it('refuses missing scopes, the basic plan and no token', async () => {
    await refusesScopePlanToken('GET', path(), 'workgroups_members_read');
    await refusesScopePlanToken('GET', `${path()}/${t.admin.user.id}`, 'workgroups_members_read');
    await refusesScopePlanToken('POST', path(), 'workgroups_members_write', {
      user_id: t.owner.user.id,
      is_workgroup_owner: false,
    });
    await refusesScopePlanToken('POST', `${path()}/bulk`, 'workgroups_members_write', { members: [] });
    await refusesScopePlanToken('PATCH', `${path()}/${t.admin.user.id}`, 'workgroups_members_write', {
      is_workgroup_owner: true,
    });
    await refusesScopePlanToken('DELETE', `${path()}/${t.admin.user.id}`, 'workgroups_members_write');
  });
});

describe('GET /users/{id}/workgroups', () => {
  it("lists the caller's own workgroups (by id or as me)", async () => {
    const team = await makeTeam(server, {}, 'Users');
    const a = await create(team.regular.token, { name: 'Mine', is_visible: true });
    await create(team.owner.token, { name: 'Not mine', is_visible: true });
    for (const id of [team.regular.user.id, 'me']) {
      const res = await c().get(`/v3/users/${id}/workgroups`, { token: team.regular.token });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(1);
      expect(res.body.data[0]).toMatchObject({
        id: a.id,
        name: 'Mine',
        membership: { is_owner: true, status: 'active' },
      });
    }
    const byAdmin = await c().get(`/v3/users/${team.regular.user.id}/workgroups`, {
      token: team.admin.token,
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.map((w: { name: string }) => w.name)).toEqual(['Mine']);
    const byPeer = await c().get(`/v3/users/${team.owner.user.id}/workgroups`, { token: team.regular.token });
    expect(byPeer.status).toBe(404);
    const foreign = await c().get(`/v3/users/${team.regular.user.id}/workgroups`, {
      token: other.owner.token,
    });
    expect(foreign.status).toBe(404);
    expect((await c().get('/v3/users/x1/workgroups', { token: team.regular.token })).status).toBe(404);
    expect(
      (await c().get('/v3/users/me/workgroups?per_page=0', { token: team.regular.token })).body.error.id,
    ).toBe('1003');
    await refusesScopePlanToken('GET', '/v3/users/me/workgroups', 'workgroups_read');
  });
});

describe('roles', () => {
  it('lists the five system roles with their privileges', async () => {
    const res = await c().get('/v3/roles', { token: t.regular.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    const byName = Object.fromEntries(
      res.body.data.map((r: { name: string; privileges: string[] }) => [r.name, r.privileges]),
    );
    expect(byName).toEqual({
      'Full Access': ['design.full_access', 'collect.full_access', 'analyze.full_access'],
      Viewer: ['design.read_only', 'collect.read_only', 'analyze.read_only'],
      Editor: ['design.full_access', 'collect.read_only', 'analyze.read_only'],
      Collector: ['design.read_only', 'collect.full_access', 'analyze.read_only'],
      Analyzer: ['design.read_only', 'collect.read_only', 'analyze.full_access'],
    });
    for (const r of res.body.data) {
      expect(r.id).toMatch(/^[0-9a-f]{32}$/);
      expect(r.is_system_role).toBe(true);
      expect(r.is_enabled).toBe(true);
      expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    }
    const paged = await c().get('/v3/roles?per_page=2&page=3', { token: t.regular.token });
    expect(paged.body.data).toHaveLength(1);
    expect((await c().get('/v3/roles?per_page=-1', { token: t.regular.token })).body.error.id).toBe('1003');
  });

  it('reads one role; unknown ids are 404/1020', async () => {
    const res = await c().get(`/v3/roles/${VIEWER}`, { token: t.owner.token });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Viewer');
    expect(
      (await c().get('/v3/roles/0123456789abcdef0123456789abcdef', { token: t.owner.token })).status,
    ).toBe(404);
    expect((await c().get('/v3/roles/viewer', { token: t.owner.token })).body.error.id).toBe('1020');
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('GET', '/v3/roles', 'roles_read');
    await refusesScopePlanToken('GET', `/v3/roles/${VIEWER}`, 'roles_read');
  });
});
