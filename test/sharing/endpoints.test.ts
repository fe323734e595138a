// Every share endpoint: success, bad input, someone else's resource, wrong scope, basic plan,
// no token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';
import { api, FULL_PRIVILEGES, ROLES, VIEWER_PRIVILEGES } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let other: TestTeam;
let a: ReturnType<typeof api>;
const clock = new TestClock('2026-07-01T08:30:00.250Z');
const HEX = /^[0-9a-f]{32}$/;
const MISSING = '0123456789abcdef0123456789abcdef';

beforeAll(async () => {
  server = await startServer({ clock });
  t = await makeTeam(server);
  other = await makeTeam(server, {}, 'Rivals');
  a = api(server);
});
afterAll(() => server.close());

const c = () => server.client;

async function refusesScopePlanToken(method: string, path: string, scope: string, body?: unknown) {
  const noScope = await server.account({ scopes: ['users_read'] });
  const s = await c().request(method, path, { token: noScope.token, body });
  expect(s.status, `${method} ${path} without scope`).toBe(403);
  expect(s.body.error.id).toBe('1014');
  expect(s.body.error.message).toContain(scope);
  const basic = await server.account({ plan: 'basic', scopes: ['users_read', scope as 'roles_read'] });
  const b = await c().request(method, path, { token: basic.token, body });
  expect(b.status, `${method} ${path} on basic`).toBe(403);
  expect(b.body.error.id).toBe('1015');
  const n = await c().request(method, path, { body });
  expect(n.status).toBe(401);
  expect(n.body.error.id).toBe('1010');
}

function expectError(res: { status: number; body: any }, status: number, id: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.id).toBe(id);
}

describe('POST /workgroups/{id}/shares', () => {
  let survey: { id: string };
  let wg: { id: string };
  beforeAll(async () => {
    survey = await a.survey(t.owner.token, 'Quarterly');
    wg = await a.workgroup(t.owner.token, 'Analysts', [t.regular.user.id]);
  });

  it('shares a survey: 201 with the share (32-hex id, dates without offset, the default role)', async () => {
    const res = await c().post(
      `/v3/workgroups/${wg.id}/shares`,
      { resource_type: 'survey', resource_id: survey.id },
      { token: t.owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(HEX);
    expect(res.body).toEqual({
      id: res.body.id,
      organization_id: t.team.id,
      workgroup_id: wg.id,
      owner_user_id: t.owner.user.id,
      resource_type: 'survey',
      resource_id: survey.id,
      role_id: ROLES.fullAccess,
      created_at: '2026-07-01T08:30:00',
      updated_at: '2026-07-01T08:30:00',
      href: `${server.url}/v3/workgroups/${wg.id}/shares/${res.body.id}`,
      privileges: FULL_PRIVILEGES,
      role: { id: ROLES.fullAccess, name: 'Full Access' },
    });
    const read = await c().get(`/v3/workgroups/${wg.id}`, { token: t.owner.token });
    expect(read.body.shares_count).toBe(1);
  });

  it('refuses bad bodies with 400/1002', async () => {
    const other = await a.survey(t.owner.token, 'Other');
    for (const body of [
      {},
      { resource_type: 'survey' },
      { resource_id: other.id },
      { resource_type: 'collector', resource_id: other.id },
      { resource_type: 'survey', resource_id: 'abc' },
      { resource_type: 'survey', resource_id: 1.5 },
      { resource_type: 'survey', resource_id: other.id, role_id: 'Viewer' },
      { resource_type: 'survey', resource_id: other.id, role_id: MISSING },
      { resource_type: 'survey', resource_id: other.id, colour: 'red' },
    ]) {
      const res = await c().post(`/v3/workgroups/${wg.id}/shares`, body, { token: t.owner.token });
      expectError(res, 400, '1002');
    }
    const text = await c().request('POST', `/v3/workgroups/${wg.id}/shares`, {
      token: t.owner.token,
      rawBody: 'resource_type=survey',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
  });

  it('refuses a survey shared already (409/1026) and one that does not exist (404/1020)', async () => {
    expectError(
      await c().post(
        `/v3/workgroups/${wg.id}/shares`,
        { resource_type: 'survey', resource_id: survey.id },
        { token: t.owner.token },
      ),
      409,
      '1026',
    );
    expectError(
      await c().post(
        `/v3/workgroups/${wg.id}/shares`,
        { resource_type: 'survey', resource_id: '99999999999' },
        { token: t.owner.token },
      ),
      404,
      '1020',
    );
  });

  it('refuses someone else’s survey (404/1020) and another team’s workgroup (404/1020)', async () => {
    const theirs = await a.survey(other.owner.token, 'Rival plans');
    expectError(
      await c().post(
        `/v3/workgroups/${wg.id}/shares`,
        { resource_type: 'survey', resource_id: theirs.id },
        { token: t.owner.token },
      ),
      404,
      '1020',
    );
    const mine = await a.survey(other.owner.token, 'Mine');
    expectError(
      await c().post(
        `/v3/workgroups/${wg.id}/shares`,
        { resource_type: 'survey', resource_id: mine.id },
        { token: other.owner.token },
      ),
      404,
      '1020',
    );
  });

  it('refuses a team member who only sees the workgroup (not a member, not a manager): 403/1016', async () => {
    const visible = await c().post(
      '/v3/workgroups',
      { name: 'Open', is_visible: true },
      { token: t.admin.token },
    );
    const own = await a.survey(t.regular.token, 'Regular’s');
    expectError(
      await c().post(
        `/v3/workgroups/${visible.body.id}/shares`,
        { resource_type: 'survey', resource_id: own.id },
        { token: t.regular.token },
      ),
      403,
      '1016',
    );
  });

  it('a 404 for a workgroup id that cannot exist', async () => {
    expectError(
      await c().post(
        '/v3/workgroups/not-a-workgroup/shares',
        { resource_type: 'survey', resource_id: survey.id },
        { token: t.owner.token },
      ),
      404,
      '1020',
    );
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('POST', `/v3/workgroups/${wg.id}/shares`, 'workgroups_shares_write', {
      resource_type: 'survey',
      resource_id: survey.id,
    });
  });
});

describe('POST /workgroups/{id}/shares/bulk', () => {
  let wg: { id: string };
  beforeAll(async () => {
    wg = await a.workgroup(t.owner.token, 'Bulk');
  });

  it('shares several surveys at once, each with its role', async () => {
    const s1 = await a.survey(t.owner.token, 'One');
    const s2 = await a.survey(t.owner.token, 'Two');
    const res = await c().post(
      `/v3/workgroups/${wg.id}/shares/bulk`,
      {
        shares: [
          { resource_type: 'survey', resource_id: s1.id },
          { resource_type: 'survey', resource_id: s2.id, role_id: ROLES.viewer },
        ],
      },
      { token: t.owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.shares.map((s: any) => [s.resource_id, s.role_id, s.privileges])).toEqual([
      [s1.id, ROLES.fullAccess, FULL_PRIVILEGES],
      [s2.id, ROLES.viewer, VIEWER_PRIVILEGES],
    ]);
    const list = await c().get(`/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
    expect(list.body.total).toBe(2);
  });

  it('is all or none: one bad survey and nothing is shared', async () => {
    const ok = await a.survey(t.owner.token, 'Fine');
    const theirs = await a.survey(other.owner.token, 'Not yours');
    const res = await c().post(
      `/v3/workgroups/${wg.id}/shares/bulk`,
      {
        shares: [
          { resource_type: 'survey', resource_id: ok.id },
          { resource_type: 'survey', resource_id: theirs.id },
        ],
      },
      { token: t.owner.token },
    );
    expectError(res, 404, '1020');
    const list = await c().get(`/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
    expect(list.body.data.map((s: any) => s.resource_id)).not.toContain(ok.id);
  });

  it('refuses bad bodies with 400/1002', async () => {
    const s = await a.survey(t.owner.token, 'Twice');
    for (const body of [
      {},
      { shares: [] },
      { shares: 'x' },
      { shares: [{ resource_type: 'survey' }] },
      {
        shares: [
          { resource_type: 'survey', resource_id: s.id },
          { resource_type: 'survey', resource_id: s.id },
        ],
      },
      { shares: Array.from({ length: 101 }, () => ({ resource_type: 'survey', resource_id: s.id })) },
    ]) {
      const res = await c().post(`/v3/workgroups/${wg.id}/shares/bulk`, body, { token: t.owner.token });
      expectError(res, 400, '1002');
    }
  });

  it('refuses another team’s workgroup (404/1020)', async () => {
    const theirs = await a.survey(other.owner.token, 'Theirs');
    expectError(
      await c().post(
        `/v3/workgroups/${wg.id}/shares/bulk`,
        { shares: [{ resource_type: 'survey', resource_id: theirs.id }] },
        { token: other.owner.token },
      ),
      404,
      '1020',
    );
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('POST', `/v3/workgroups/${wg.id}/shares/bulk`, 'workgroups_shares_write', {
      shares: [{ resource_type: 'survey', resource_id: '1' }],
    });
  });
});

describe('GET /workgroups/{id}/shares', () => {
  let wg: { id: string };
  let surveys: Array<{ id: string; title: string }>;
  beforeAll(async () => {
    wg = await a.workgroup(t.owner.token, 'Listed', [t.regular.user.id]);
    surveys = [];
    for (const title of ['A', 'B', 'C']) {
      const s = await a.survey(t.owner.token, title);
      surveys.push(s);
      await a.share(t.owner.token, wg.id, s.id, ROLES.viewer);
      clock.advance(1000);
    }
  });

  it('lists the shares, oldest first, paged, to any member', async () => {
    const res = await c().get(`/v3/workgroups/${wg.id}/shares?per_page=2`, { token: t.regular.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, per_page: 2, page: 1 });
    expect(res.body.data.map((s: any) => s.resource_id)).toEqual([surveys[0].id, surveys[1].id]);
    expect(res.body.links.next).toContain('page=2');
    expect(res.body.data[0]).not.toHaveProperty('privileges');
    expect(res.body.data[0]).not.toHaveProperty('resource_details');
    const page2 = await c().get(`/v3/workgroups/${wg.id}/shares?per_page=2&page=2`, {
      token: t.regular.token,
    });
    expect(page2.body.data.map((s: any) => s.resource_id)).toEqual([surveys[2].id]);
  });

  it('include=permissions,resource_details adds the privileges, role and the survey', async () => {
    const res = await c().get(`/v3/workgroups/${wg.id}/shares?include=permissions,resource_details`, {
      token: t.owner.token,
    });
    expect(res.body.data[0]).toMatchObject({
      privileges: VIEWER_PRIVILEGES,
      role: { id: ROLES.viewer, name: 'Viewer' },
      resource_details: {
        id: surveys[0].id,
        title: 'A',
        nickname: '',
        owner_user_id: t.owner.user.id,
        href: `${server.url}/v3/surveys/${surveys[0].id}`,
      },
    });
  });

  it('refuses bad queries with 400/1003', async () => {
    for (const q of ['include=everything', 'per_page=0', 'page=0', 'per_page=abc', 'include=permissions,x']) {
      const res = await c().get(`/v3/workgroups/${wg.id}/shares?${q}`, { token: t.owner.token });
      expectError(res, 400, '1003');
    }
  });

  it('hides another team’s workgroup and a hidden workgroup of one’s own team (404/1020)', async () => {
    expectError(await c().get(`/v3/workgroups/${wg.id}/shares`, { token: other.owner.token }), 404, '1020');
    const hidden = await a.workgroup(t.owner.token, 'Hidden from regular');
    expectError(await c().get(`/v3/workgroups/${hidden.id}/shares`, { token: t.regular.token }), 404, '1020');
    expect((await c().get(`/v3/workgroups/${hidden.id}/shares`, { token: t.admin.token })).status).toBe(200);
  });

  it('answers HEAD and OPTIONS', async () => {
    const head = await c().request('HEAD', `/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
    expect(head.status).toBe(200);
    const options = await c().request('OPTIONS', `/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
    expect(options.status).toBeLessThan(300);
    expect(String(options.headers.allow)).toMatch(/GET.*POST|POST.*GET/);
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('GET', `/v3/workgroups/${wg.id}/shares`, 'workgroups_shares_read');
  });
});

describe('GET /workgroups/{id}/shares/{share_id}', () => {
  let wg: { id: string };
  let share: any;
  beforeAll(async () => {
    const s = await a.survey(t.owner.token, 'Single');
    wg = await a.workgroup(t.owner.token, 'Single', [t.regular.user.id]);
    share = await a.share(t.owner.token, wg.id, s.id, ROLES.analyzer);
  });

  it('reads a share; include adds the privileges and the survey', async () => {
    const res = await c().get(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.regular.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: share.id, role_id: ROLES.analyzer, resource_type: 'survey' });
    expect(res.body).not.toHaveProperty('privileges');
    const more = await c().get(
      `/v3/workgroups/${wg.id}/shares/${share.id}?include=permissions,resource_details`,
      {
        token: t.regular.token,
      },
    );
    expect(more.body.privileges).toEqual(['design.read_only', 'collect.read_only', 'analyze.full_access']);
    expect(more.body.resource_details.title).toBe('Single');
  });

  it('answers 404/1020 for a share id that is malformed, unknown or of another workgroup', async () => {
    const elsewhere = await a.workgroup(t.owner.token, 'Elsewhere');
    for (const path of [
      `/v3/workgroups/${wg.id}/shares/nope`,
      `/v3/workgroups/${wg.id}/shares/${MISSING}`,
      `/v3/workgroups/${elsewhere.id}/shares/${share.id}`,
    ])
      expectError(await c().get(path, { token: t.owner.token }), 404, '1020');
    expectError(
      await c().get(`/v3/workgroups/${wg.id}/shares/${share.id}?include=all`, { token: t.owner.token }),
      400,
      '1003',
    );
  });

  it('hides another team’s share (404/1020)', async () => {
    expectError(
      await c().get(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: other.owner.token }),
      404,
      '1020',
    );
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken(
      'GET',
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      'workgroups_shares_read',
    );
  });
});

describe('PATCH /workgroups/{id}/shares/{share_id}', () => {
  let wg: { id: string };
  let share: any;
  beforeAll(async () => {
    const s = await a.survey(t.owner.token, 'Patched');
    wg = await a.workgroup(t.owner.token, 'Patched', [t.regular.user.id]);
    share = await a.share(t.owner.token, wg.id, s.id, ROLES.viewer);
  });

  it('gives the share another role; updated_at moves, created_at stays', async () => {
    clock.advance(3_600_000);
    const res = await c().patch(
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      { role_id: ROLES.collector },
      { token: t.owner.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: share.id,
      role_id: ROLES.collector,
      role: { id: ROLES.collector, name: 'Collector' },
      privileges: ['design.read_only', 'collect.full_access', 'analyze.read_only'],
      created_at: share.created_at,
    });
    expect(res.body.updated_at).not.toBe(share.updated_at);
    const read = await c().get(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.owner.token });
    expect(read.body.role_id).toBe(ROLES.collector);
  });

  it('refuses bad bodies with 400/1002', async () => {
    for (const body of [
      {},
      { role_id: 'Viewer' },
      { role_id: MISSING },
      { role_id: ROLES.viewer, x: 1 },
      { privileges: [] },
    ]) {
      const res = await c().patch(`/v3/workgroups/${wg.id}/shares/${share.id}`, body, {
        token: t.owner.token,
      });
      expectError(res, 400, '1002');
    }
  });

  it('refuses a member who may not share the survey (403/1016), another team (404/1020), an unknown share (404/1020)', async () => {
    expectError(
      await c().patch(
        `/v3/workgroups/${wg.id}/shares/${share.id}`,
        { role_id: ROLES.fullAccess },
        { token: t.regular.token },
      ),
      403,
      '1016',
    );
    expectError(
      await c().patch(
        `/v3/workgroups/${wg.id}/shares/${share.id}`,
        { role_id: ROLES.viewer },
        { token: other.owner.token },
      ),
      404,
      '1020',
    );
    expectError(
      await c().patch(
        `/v3/workgroups/${wg.id}/shares/${MISSING}`,
        { role_id: ROLES.viewer },
        { token: t.owner.token },
      ),
      404,
      '1020',
    );
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken(
      'PATCH',
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      'workgroups_shares_write',
      {
        role_id: ROLES.viewer,
      },
    );
  });
});

describe('DELETE /workgroups/{id}/shares/{share_id}', () => {
  let wg: { id: string };
  let share: any;
  beforeAll(async () => {
    const s = await a.survey(t.owner.token, 'Removed');
    wg = await a.workgroup(t.owner.token, 'Removed', [t.regular.user.id]);
    share = await a.share(t.owner.token, wg.id, s.id, ROLES.viewer);
  });

  it('refuses a member who may not share the survey and does not manage the workgroup (403/1016)', async () => {
    expectError(
      await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.regular.token }),
      403,
      '1016',
    );
  });

  it('refuses another team (404/1020) and a malformed id (404/1020)', async () => {
    expectError(
      await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: other.owner.token }),
      404,
      '1020',
    );
    expectError(
      await c().delete(`/v3/workgroups/${wg.id}/shares/123`, { token: t.owner.token }),
      404,
      '1020',
    );
  });

  it('removes the share and answers it; a second delete is 404/1020', async () => {
    const res = await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: share.id, resource_id: share.resource_id });
    expectError(
      await c().get(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.owner.token }),
      404,
      '1020',
    );
    expectError(
      await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.owner.token }),
      404,
      '1020',
    );
    expect((await c().get(`/v3/workgroups/${wg.id}`, { token: t.owner.token })).body.shares_count).toBe(0);
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken(
      'DELETE',
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      'workgroups_shares_write',
    );
  });
});

describe('GET /users/{id}/shared', () => {
  let s1: { id: string };
  let s2: { id: string };
  let wg: { id: string };
  let shares: any[];
  beforeAll(async () => {
    const team = await makeTeam(server, {}, 'Shared records');
    Object.assign(shared, team);
    s1 = await a.survey(team.owner.token, 'First');
    s2 = await a.survey(team.owner.token, 'Second');
    wg = await a.workgroup(team.owner.token, 'Records', [team.regular.user.id]);
    shares = [await a.share(team.owner.token, wg.id, s1.id, ROLES.viewer)];
    clock.advance(1000);
    shares.push(await a.share(team.owner.token, wg.id, s2.id, ROLES.editor));
  });
  const shared = {} as TestTeam;

  it('lists what is shared with the user, with the privileges each share gives them', async () => {
    const res = await c().get('/v3/users/me/shared', { token: shared.regular.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.data).toEqual([
      {
        share_id: shares[0].id,
        workgroup_id: wg.id,
        owner_user_id: shared.owner.user.id,
        resource_type: 'survey',
        resource_id: s1.id,
        privileges: VIEWER_PRIVILEGES,
      },
      {
        share_id: shares[1].id,
        workgroup_id: wg.id,
        owner_user_id: shared.owner.user.id,
        resource_type: 'survey',
        resource_id: s2.id,
        privileges: ['design.full_access', 'collect.read_only', 'analyze.read_only'],
      },
    ]);
    const byId = await c().get(`/v3/users/${shared.regular.user.id}/shared?per_page=1`, {
      token: shared.regular.token,
    });
    expect(byId.body).toMatchObject({ total: 2, per_page: 1 });
    expect(byId.body.data[0].share_id).toBe(shares[0].id);
  });

  it('filters by resource_type and resource_id (a comma list)', async () => {
    const one = await c().get(`/v3/users/me/shared?resource_type=survey&resource_id=${s2.id}`, {
      token: shared.regular.token,
    });
    expect(one.body.data.map((r: any) => r.resource_id)).toEqual([s2.id]);
    const both = await c().get(`/v3/users/me/shared?resource_type=survey&resource_id=${s2.id},${s1.id}`, {
      token: shared.regular.token,
    });
    expect(both.body.total).toBe(2);
    const none = await c().get('/v3/users/me/shared?resource_type=survey&resource_id=42', {
      token: shared.regular.token,
    });
    expect(none.body).toMatchObject({ total: 0, data: [] });
  });

  it('include=permissions,resource_details adds the role and the survey', async () => {
    const res = await c().get('/v3/users/me/shared?include=permissions,resource_details', {
      token: shared.regular.token,
    });
    expect(res.body.data[0]).toMatchObject({
      role: { id: ROLES.viewer, name: 'Viewer' },
      resource_details: { id: s1.id, title: 'First', owner_user_id: shared.owner.user.id },
    });
  });

  it('a team admin may ask about a member; others get 404/1020', async () => {
    const byAdmin = await c().get(`/v3/users/${shared.regular.user.id}/shared`, {
      token: shared.admin.token,
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.total).toBe(2);
    expectError(
      await c().get(`/v3/users/${shared.regular.user.id}/shared`, { token: other.owner.token }),
      404,
      '1020',
    );
    expectError(
      await c().get(`/v3/users/${shared.admin.user.id}/shared`, { token: shared.regular.token }),
      404,
      '1020',
    );
    expectError(await c().get('/v3/users/someone/shared', { token: shared.regular.token }), 404, '1020');
  });

  it('a team member outside the workgroup has nothing shared with them', async () => {
    const res = await c().get('/v3/users/me/shared', { token: shared.admin.token });
    expect(res.body.total).toBe(0);
  });

  it('refuses bad queries with 400/1003', async () => {
    for (const q of [
      `resource_id=${s1.id}`,
      'resource_type=collector',
      'resource_type=survey&resource_id=abc',
      'resource_type=survey&resource_id=1,,2',
      'include=everything',
      'per_page=0',
    ]) {
      const res = await c().get(`/v3/users/me/shared?${q}`, { token: shared.regular.token });
      expectError(res, 400, '1003');
    }
  });

  it('answers HEAD and OPTIONS', async () => {
    const head = await c().request('HEAD', '/v3/users/me/shared', { token: shared.regular.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const options = await c().request('OPTIONS', '/v3/users/me/shared', { token: shared.regular.token });
    expect(options.status).toBeLessThan(300);
    expect(String(options.headers.allow)).toContain('GET');
  });

  it('refuses a missing scope, the basic plan and no token', async () => {
    await refusesScopePlanToken('GET', '/v3/users/me/shared', 'workgroups_shares_read');
  });
});
