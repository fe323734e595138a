// A team of three shares, re-roles and unshares a survey; the group activity log and series show
// exactly those share events, with who, when and from where.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';
import { ROLES } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
const clock = new TestClock('2026-05-04T08:00:00Z'); // a Monday
const IP = { owner: '203.0.113.10', admin: '203.0.113.20', regular: '203.0.113.30' };
const SHARE_TYPES = [
  'permission_created',
  'permission_updated',
  'shared_view_created',
  'shared_view_updated',
];

function as(who: TestAccount, ip: string) {
  return { token: who.token, headers: { 'x-forwarded-for': ip } };
}

async function call(method: string, path: string, who: TestAccount, ip: string, body?: unknown) {
  const res = await server.client.request(method, path, { ...as(who, ip), body });
  return res;
}

beforeAll(async () => {
  server = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
  t = await makeTeam(server, {}, 'Finance');
  const { owner, admin, regular } = t;

  // Mon 4 May 09:00: Olivia (owner) writes a survey; Rita (regular) makes a workgroup with Olivia and Adam.
  clock.set('2026-05-04T09:00:00Z');
  const survey = (await call('POST', '/v3/surveys', owner, IP.owner, { title: 'Budget' })).body;
  const wg = (
    await call('POST', '/v3/workgroups', regular, IP.regular, { name: 'Planning', is_visible: false })
  ).body;
  const added = await call('POST', `/v3/workgroups/${wg.id}/members/bulk`, regular, IP.regular, {
    members: [
      { user_id: owner.user.id, is_workgroup_owner: false },
      { user_id: admin.user.id, is_workgroup_owner: false },
    ],
  });
  expect(added.status).toBe(201);

  // 10:00 Olivia shares Budget with Planning (Full Access).
  clock.set('2026-05-04T10:00:00Z');
  const share = await call('POST', `/v3/workgroups/${wg.id}/shares`, owner, IP.owner, {
    resource_type: 'survey',
    resource_id: survey.id,
  });
  expect(share.status).toBe(201);

  // 11:00 Adam (full access through the share) turns it into a Viewer share; then he may not change it back.
  clock.set('2026-05-04T11:00:00Z');
  const path = `/v3/workgroups/${wg.id}/shares/${share.body.id}`;
  expect((await call('PATCH', path, admin, IP.admin, { role_id: ROLES.viewer })).status).toBe(200);
  clock.set('2026-05-04T11:30:00Z');
  expect((await call('PATCH', path, admin, IP.admin, { role_id: ROLES.fullAccess })).status).toBe(403);
  // the same role again changes nothing and records nothing
  expect((await call('PATCH', path, owner, IP.owner, { role_id: ROLES.viewer })).status).toBe(200);

  // 12:00 Rita, owner of the workgroup, stops the sharing.
  clock.set('2026-05-04T12:00:00Z');
  expect((await call('DELETE', path, regular, IP.regular)).status).toBe(200);

  // Wed 6 May 09:00 Olivia shares it again as Editor.
  clock.set('2026-05-06T09:00:00Z');
  const again = await call('POST', `/v3/workgroups/${wg.id}/shares`, owner, IP.owner, {
    resource_type: 'survey',
    resource_id: survey.id,
    role_id: ROLES.editor,
  });
  expect(again.status).toBe(201);
  clock.set('2026-05-08T00:00:00Z');
});
afterAll(() => server.close());

const row = (date: string, who: TestAccount, memberType: string, type: string, msg: string, ip: string) => ({
  date_created: date,
  user_id: Number(who.user.id),
  user_name: who.user.username,
  email: who.user.email,
  member_type: memberType,
  group_id: Number(t.team.id),
  activity_type: type,
  activity_msg: msg,
  ip_address: ip,
  city: null,
  country: null,
  division_name: null,
});

describe('share events in the group activity log', () => {
  it('lists exactly the share events, newest first, with who and from where', async () => {
    const res = await server.client.get(`/v3/groups/${t.team.id}/activities?limit=100`, {
      token: t.owner.token,
    });
    expect(res.status).toBe(200);
    const shares = res.body.results.filter((r: { activity_type: string }) =>
      SHARE_TYPES.includes(r.activity_type),
    );
    const msg = 'survey "Budget" with workgroup "Planning"';
    expect(shares).toEqual([
      row(
        '2026-05-06 09:00:00',
        t.owner,
        'account_owner',
        'shared_view_created',
        'Created a shared view of survey "Budget"',
        IP.owner,
      ),
      row('2026-05-06 09:00:00', t.owner, 'account_owner', 'permission_created', `Shared ${msg}`, IP.owner),
      row(
        '2026-05-04 12:00:00',
        t.regular,
        'regular',
        'shared_view_updated',
        'Updated a shared view of survey "Budget"',
        IP.regular,
      ),
      row(
        '2026-05-04 12:00:00',
        t.regular,
        'regular',
        'permission_updated',
        `Changed the sharing of ${msg}`,
        IP.regular,
      ),
      row(
        '2026-05-04 11:00:00',
        t.admin,
        'admin',
        'permission_updated',
        `Changed the sharing of ${msg}`,
        IP.admin,
      ),
      row(
        '2026-05-04 10:00:00',
        t.owner,
        'account_owner',
        'shared_view_created',
        'Created a shared view of survey "Budget"',
        IP.owner,
      ),
      row('2026-05-04 10:00:00', t.owner, 'account_owner', 'permission_created', `Shared ${msg}`, IP.owner),
    ]);
    // everything else in the log is the team's forming and the survey's creation
    const rest = res.body.results.filter(
      (r: { activity_type: string }) => !SHARE_TYPES.includes(r.activity_type),
    );
    expect(rest.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'survey_info_create',
      'member_joined',
      'member_joined',
    ]);
  });

  it('counts them per day in the series', async () => {
    const q = 'interval=daily&start_date=2026-05-04&end_date=2026-05-06';
    const get = (type: string) =>
      server.client.get(`/v3/groups/${t.team.id}/activities/${type}?${q}`, { token: t.admin.token });
    const created = await get('permission_created');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ interval: 'daily', series: [1, 0, 1] });
    expect(created.body.times).toHaveLength(3);
    expect((await get('permission_updated')).body.series).toEqual([2, 0, 0]);
    expect((await get('shared_view_created')).body.series).toEqual([1, 0, 1]);
    expect((await get('shared_view_updated')).body.series).toEqual([1, 0, 0]);
  });

  it('records the events in the outbox with the survey owner as owner', async () => {
    const events = await server.deps.db.kysely
      .selectFrom('events')
      .select(['type', 'owner_id', 'actor_id', 'resource_type'])
      .where('type', 'in', SHARE_TYPES as never)
      .orderBy('created_at') // time order: ids are ordered only within one process
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.type, e.owner_id, e.actor_id, e.resource_type])).toEqual([
      ['permission_created', t.owner.user.id, t.owner.user.id, 'survey'],
      ['shared_view_created', t.owner.user.id, t.owner.user.id, 'survey'],
      ['permission_updated', t.owner.user.id, t.admin.user.id, 'survey'],
      ['permission_updated', t.owner.user.id, t.regular.user.id, 'survey'],
      ['shared_view_updated', t.owner.user.id, t.regular.user.id, 'survey'],
      ['permission_created', t.owner.user.id, t.owner.user.id, 'survey'],
      ['shared_view_created', t.owner.user.id, t.owner.user.id, 'survey'],
    ]);
  });
});
