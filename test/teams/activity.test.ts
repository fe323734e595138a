// A team of three whose actions produce exactly the activity list and series they should.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateUser } from '../../src/domain/accounts/users.js';
import { recordEvent } from '../../src/domain/core/events.js';
import { invitationToken } from '../../src/domain/teams/invitations.js';
import {
  addMember,
  createTeam,
  removeMember,
  renameTeam,
  resendInvitation,
  setMemberType,
  type Team,
} from '../../src/domain/teams/teams.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makePublic, makeTeam } from './fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-03-02T08:00:00Z'); // a Monday
let owner: TestAccount;
let admin: TestAccount;
let regular: TestAccount;
let team: Team;
let strangerTeam: Awaited<ReturnType<typeof makeTeam>>;

async function acceptByForm(token: string, password: string) {
  return server.client.request('POST', '/teams/invitations/accept', {
    rawBody: new URLSearchParams({ token, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
  });
}

async function memberRow(userId: string) {
  return server.deps.db.kysely
    .selectFrom('team_members')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  server = await startServer({ clock });
  owner = await server.account({ username: 'olivia' });
  admin = await server.account({ username: 'adam' });
  regular = await server.account({ username: 'rita' });
  await server.account({ username: 'ivan' });
  const deps = server.deps;
  team = await createTeam(deps, owner.user, { name: 'Panel' });
  const O = { userId: owner.user.id, ip: '203.0.113.1' };

  // Mon 2 March 09:00: Olivia invites Adam as an admin; 10:00 he accepts on the page.
  clock.set('2026-03-02T09:00:00Z');
  const invite = await addMember(deps, team.id, { username: 'adam', type: 'admin', pending: true }, O);
  clock.set('2026-03-02T10:00:00Z');
  const accepted = await acceptByForm(invitationToken(deps, invite), admin.password);
  expect(accepted.status).toBe(200);
  const A = { userId: admin.user.id, ip: '203.0.113.2' };

  // Tue 3 March: Olivia adds Rita directly; Rita creates a survey (recorded by the surveys area).
  clock.set('2026-03-03T11:00:00Z');
  await addMember(deps, team.id, { username: 'rita' }, O);
  clock.set('2026-03-03T11:30:00Z');
  const [e1, e2, e3] = await deps.ids.take(3);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await recordEvent(deps, trx, e1, {
      type: 'survey_created',
      ownerId: regular.user.id,
      actorId: regular.user.id,
      resourceType: 'survey',
      resourceId: '555',
      ip: '203.0.113.3',
      data: { title: 'Customer pulse' },
    });
    // A respondent's answer has no actor: it is not team activity.
    await recordEvent(deps, trx, e2, { type: 'response_created', ownerId: regular.user.id, resourceId: '9' });
  });

  // Wed 4 March: Olivia renames the team; Adam invites Ivan.
  clock.set('2026-03-04T12:00:00Z');
  await renameTeam(deps, team.id, 'Panel Team', O);
  clock.set('2026-03-04T13:00:00Z');
  await addMember(deps, team.id, { username: 'ivan', pending: true }, A);

  // Wed 11 March: Adam resends the invitation; Olivia makes Rita an admin; Rita copies her survey.
  clock.set('2026-03-11T09:00:00Z');
  await resendInvitation(deps, team.id, 'ivan', A);
  clock.set('2026-03-11T09:30:00Z');
  await setMemberType(deps, team.id, 'rita', 'admin', O);
  clock.set('2026-03-11T10:00:00Z');
  await recordEvent(deps, deps.db.kysely, e3, {
    type: 'survey_created',
    ownerId: regular.user.id,
    actorId: regular.user.id,
    resourceType: 'survey',
    resourceId: '556',
    ip: '203.0.113.3',
    data: { title: 'Customer pulse (copy)', from_survey_id: '555' },
  });

  // Fri 10 April: Adam withdraws Ivan's invitation.
  clock.set('2026-04-10T16:00:00Z');
  await removeMember(deps, team.id, 'ivan', A);

  // Someone in another team acts too; it never shows in this team's log.
  strangerTeam = await makeTeam(server, {}, 'Elsewhere');
  await renameTeam(deps, strangerTeam.team.id, 'Elsewhere 2', { userId: strangerTeam.owner.user.id });
  clock.set('2026-04-12T00:00:00Z');
});
afterAll(() => server.close());

const row = (date: string, who: TestAccount, memberType: string, type: string, msg: string, ip: string) => ({
  date_created: date,
  user_id: Number(who.user.id),
  user_name: who.user.username,
  email: who.user.email,
  member_type: memberType,
  group_id: Number(team.id),
  activity_type: type,
  activity_msg: msg,
  ip_address: ip,
  city: null,
  country: null,
  division_name: null,
});

describe('GET /groups/{id}/activities', () => {
  it('lists exactly what the team did, newest first, with who, when, where', async () => {
    const res = await server.client.get(`/v3/groups/${team.id}/activities`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      limit: 50,
      offset: 0,
      total: 10,
      sl_translate: 'activity_msg,member_type',
      results: [
        row(
          '2026-04-10 16:00:00',
          admin,
          'admin',
          'member_deleted',
          'Removed ivan from the team',
          '203.0.113.2',
        ),
        row(
          '2026-03-11 10:00:00',
          regular,
          'admin',
          'survey_info_copy',
          'Created survey "Customer pulse (copy)" as a copy of survey 555',
          '203.0.113.3',
        ),
        row(
          '2026-03-11 09:30:00',
          owner,
          'account_owner',
          'member_updated_group_member_type',
          'Changed the member type of rita from regular to admin',
          '203.0.113.1',
        ),
        row(
          '2026-03-11 09:00:00',
          admin,
          'admin',
          'invite_resent',
          'Resent the team invitation to ivan',
          '203.0.113.2',
        ),
        row(
          '2026-03-04 13:00:00',
          admin,
          'admin',
          'invite_created',
          'Invited ivan to the team',
          '203.0.113.2',
        ),
        row(
          '2026-03-04 12:00:00',
          owner,
          'account_owner',
          'group_info_updated_group_name',
          'Renamed the team from "Panel" to "Panel Team"',
          '203.0.113.1',
        ),
        row(
          '2026-03-03 11:30:00',
          regular,
          'regular',
          'survey_info_create',
          'Created survey "Customer pulse"',
          '203.0.113.3',
        ),
        row('2026-03-03 11:00:00', regular, 'regular', 'member_joined', 'Joined the team', ''),
        row('2026-03-02 10:00:00', admin, 'admin', 'member_joined', 'Joined the team', '127.0.0.1'),
        row(
          '2026-03-02 09:00:00',
          owner,
          'account_owner',
          'invite_created',
          'Invited adam to the team',
          '203.0.113.1',
        ),
      ],
    });
  });

  it('is append-only: the log keeps what was true when it happened', async () => {
    // Rita was regular when she joined and created the survey, admin when she copied it.
    const res = await server.client.get(`/v3/groups/${team.id}/activities?limit=100`, { token: admin.token });
    const rita = res.body.results.filter((r: { user_name: string }) => r.user_name === 'rita');
    expect(rita.map((r: { member_type: string }) => r.member_type)).toEqual(['admin', 'regular', 'regular']);
  });

  it('pages with limit and offset, and filters by date', async () => {
    const page = await server.client.get(`/v3/groups/${team.id}/activities?limit=3&offset=2`, {
      token: owner.token,
    });
    expect(page.body.limit).toBe(3);
    expect(page.body.offset).toBe(2);
    expect(page.body.total).toBe(10);
    expect(page.body.results.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'member_updated_group_member_type',
      'invite_resent',
      'invite_created',
    ]);
    const march3 = await server.client.get(
      `/v3/groups/${team.id}/activities?start_date=2026-03-03&end_date=2026-03-04`,
      { token: owner.token },
    );
    expect(march3.body.total).toBe(4);
    expect(march3.body.results.map((r: { date_created: string }) => r.date_created)).toEqual([
      '2026-03-04 13:00:00',
      '2026-03-04 12:00:00',
      '2026-03-03 11:30:00',
      '2026-03-03 11:00:00',
    ]);
    const upTo = await server.client.get(`/v3/groups/${team.id}/activities?end_date=2026-03-02T09:00:00`, {
      token: owner.token,
    });
    expect(upTo.body.results.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'invite_created',
    ]);
  });

  it('counts only the total when the page is past the end', async () => {
    const res = await server.client.get(`/v3/groups/${team.id}/activities?offset=50`, { token: owner.token });
    expect(res.body.total).toBe(10);
    expect(res.body.results).toEqual([]);
  });

  it('refuses bad query values with 400/1003', async () => {
    for (const q of [
      'limit=0',
      'limit=x',
      'offset=-1',
      'start_date=yesterday',
      'end_date=2026-02-31',
      'start_date=2026-03-05&end_date=2026-03-01',
    ]) {
      const res = await server.client.get(`/v3/groups/${team.id}/activities?${q}`, { token: owner.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error.id).toBe('1003');
    }
  });

  it('through a public app, only owners and admins may read it', async () => {
    const [pubRegular, pubAdmin] = [await server.account(), await server.account()];
    const pub = await makeTeam(server, {}, 'Public users');
    await addMember(
      server.deps,
      pub.team.id,
      { username: pubRegular.user.username },
      { userId: pub.owner.user.id },
    );
    await addMember(
      server.deps,
      pub.team.id,
      { username: pubAdmin.user.username, type: 'admin' },
      { userId: pub.owner.user.id },
    );
    // A regular member through a draft app may read.
    expect(
      (await server.client.get(`/v3/groups/${pub.team.id}/activities`, { token: pubRegular.token })).status,
    ).toBe(200);
    await makePublic(server, pubRegular);
    await makePublic(server, pubAdmin);
    const denied = await server.client.get(`/v3/groups/${pub.team.id}/activities`, {
      token: pubRegular.token,
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.id).toBe('1016');
    const deniedSeries = await server.client.get(
      `/v3/groups/${pub.team.id}/activities/member_joined?interval=daily`,
      { token: pubRegular.token },
    );
    expect(deniedSeries.status).toBe(403);
    const ok = await server.client.get(`/v3/groups/${pub.team.id}/activities`, { token: pubAdmin.token });
    expect(ok.status).toBe(200);
    expect(ok.body.total).toBe(4);
  });

  it("answers 404/1020 for another team's log or a pending invitee, and refuses scope, plan and no token", async () => {
    const foreign = await server.client.get(`/v3/groups/${strangerTeam.team.id}/activities`, {
      token: owner.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.id).toBe('1020');
    const mine = await server.client.get(`/v3/groups/${strangerTeam.team.id}/activities`, {
      token: strangerTeam.owner.token,
    });
    expect(mine.body.results.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'group_info_updated_group_name',
      'member_joined',
      'member_joined',
    ]);
    const noScope = await server.account({ scopes: ['users_read'] });
    expect(
      (await server.client.get(`/v3/groups/${team.id}/activities`, { token: noScope.token })).body.error.id,
    ).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect(
      (await server.client.get(`/v3/groups/${team.id}/activities`, { token: basic.token })).body.error.id,
    ).toBe('1015');
    expect((await server.client.get(`/v3/groups/${team.id}/activities`)).status).toBe(401);
  });
});

describe('GET /groups/{id}/activities/{action_type}', () => {
  const series = (type: string, q: string, token = owner.token) =>
    server.client.get(`/v3/groups/${team.id}/activities/${type}?${q}`, { token });

  it('counts per day, with every day of the range present', async () => {
    const res = await series('member_joined', 'interval=daily&start_date=2026-03-01&end_date=2026-03-05');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      interval: 'daily',
      series: [0, 1, 1, 0, 0],
      times: ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'],
    });
  });

  it('counts per week (from Monday), month and year', async () => {
    const weekly = await series(
      'invite_created',
      'interval=weekly&start_date=2026-03-01&end_date=2026-03-20',
    );
    expect(weekly.body).toEqual({
      interval: 'weekly',
      series: [0, 2, 0, 0],
      times: ['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16'],
    });
    const monthly = await series(
      'member_deleted',
      'interval=monthly&start_date=2026-01-15&end_date=2026-04-30',
    );
    expect(monthly.body).toEqual({
      interval: 'monthly',
      series: [0, 0, 0, 1],
      times: ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'],
    });
    const yearly = await series(
      'survey_info_create',
      'interval=yearly&start_date=2025-06-01&end_date=2026-12-31',
    );
    expect(yearly.body).toEqual({ interval: 'yearly', series: [0, 1], times: ['2025-01-01', '2026-01-01'] });
  });

  it("defaults to the team's creation until now", async () => {
    const res = await series('member_joined', 'interval=monthly');
    expect(res.body).toEqual({ interval: 'monthly', series: [2, 0], times: ['2026-03-01', '2026-04-01'] });
    const none = await series('export_downloaded', 'interval=monthly');
    expect(none.body.series).toEqual([0, 0]);
  });

  it('refuses a missing or unknown interval, an unknown action type and bad dates with 400/1003', async () => {
    for (const [type, q] of [
      ['member_joined', ''],
      ['member_joined', 'interval=hourly'],
      ['member_joineded', 'interval=daily'],
      ['member_joined', 'interval=daily&start_date=soon'],
      ['member_joined', 'interval=daily&start_date=1900-01-01'],
    ]) {
      const res = await series(type, q);
      expect(res.status, `${type}?${q}`).toBe(400);
      expect(res.body.error.id).toBe('1003');
    }
  });

  it('answers 404 for another team, and refuses scope, plan and no token', async () => {
    const foreign = await server.client.get(
      `/v3/groups/${strangerTeam.team.id}/activities/member_joined?interval=daily`,
      { token: owner.token },
    );
    expect(foreign.status).toBe(404);
    const noScope = await server.account({ scopes: ['users_read'] });
    expect((await series('member_joined', 'interval=daily', noScope.token)).body.error.id).toBe('1014');
    const basic = await server.account({ plan: 'basic', scopes: ['users_read', 'groups_read'] });
    expect((await series('member_joined', 'interval=daily', basic.token)).body.error.id).toBe('1015');
    expect(
      (await server.client.get(`/v3/groups/${team.id}/activities/member_joined?interval=daily`)).status,
    ).toBe(401);
  });
});

describe('invitations', () => {
  it('keeps an invitee pending, out of the team, until they accept', async () => {
    const t2 = await makeTeam(server, {}, 'Invites');
    const guest = await server.account();
    const inv = await addMember(
      server.deps,
      t2.team.id,
      { username: guest.user.username, pending: true },
      { userId: t2.admin.user.id },
    );
    expect((await memberRow(guest.user.id)).status).toBe('pending');
    const notYet = await server.client.get(`/v3/groups/${t2.team.id}/activities`, { token: guest.token });
    expect(notYet.status).toBe(404);
    // A resend voids the first link.
    clock.advance(1000);
    const resent = await resendInvitation(server.deps, t2.team.id, guest.user.username, {
      userId: t2.owner.user.id,
    });
    const stale = await acceptByForm(invitationToken(server.deps, inv), guest.password);
    expect(stale.status).toBe(404);
    const wrong = await acceptByForm(invitationToken(server.deps, resent), 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That password is not right');
    expect((await memberRow(guest.user.id)).status).toBe('pending');
    const ok = await acceptByForm(invitationToken(server.deps, resent), guest.password);
    expect(ok.status).toBe(200);
    expect((await memberRow(guest.user.id)).status).toBe('active');
    const again = await acceptByForm(invitationToken(server.deps, resent), guest.password);
    expect(again.status).toBe(404);
    const groups = await server.client.get('/v3/groups', { token: guest.token });
    expect(groups.body.data.map((g: { name: string }) => g.name)).toEqual(['Invites']);
  });

  it('refuses a second team, a duplicate, a non-admin inviter and a full team', async () => {
    const t3 = await makeTeam(server, {}, 'Rules');
    const t4 = await makeTeam(server, {}, 'Rules 2');
    await expect(
      addMember(
        server.deps,
        t3.team.id,
        { username: t4.regular.user.username },
        { userId: t3.owner.user.id },
      ),
    ).rejects.toMatchObject({ code: 1025 });
    await expect(
      addMember(
        server.deps,
        t3.team.id,
        { username: t3.regular.user.username },
        { userId: t3.owner.user.id },
      ),
    ).rejects.toMatchObject({ code: 1026 });
    const x = await server.account();
    await expect(
      addMember(server.deps, t3.team.id, { username: x.user.username }, { userId: t3.regular.user.id }),
    ).rejects.toMatchObject({ code: 1016 });
    await server.deps.db.kysely
      .updateTable('teams')
      .set({ max_invites: 3 })
      .where('id', '=', t3.team.id)
      .execute();
    await expect(
      addMember(
        server.deps,
        t3.team.id,
        { username: x.user.username, pending: true },
        { userId: t3.owner.user.id },
      ),
    ).rejects.toMatchObject({ code: 1017 });
  });

  it('follows the sign-in throttle: locked after ten wrong passwords; refuses an account that is not active', async () => {
    const t6 = await makeTeam(server, {}, 'Guarded');
    const target = await server.account();
    const inv = await addMember(
      server.deps,
      t6.team.id,
      { username: target.user.username, pending: true },
      { userId: t6.owner.user.id },
    );
    const token = invitationToken(server.deps, inv);
    // Past the third failure each guess must wait (429 until then), as on /login.
    for (let i = 0; i < 10; i++) {
      expect((await acceptByForm(token, `guess ${i}`)).status).toBe(401);
      if (i >= 2) expect((await acceptByForm(token, target.password)).status).toBe(429);
      clock.advance(61_000);
    }
    const locked = await acceptByForm(token, target.password);
    expect(locked.status).toBe(429);
    expect((await memberRow(target.user.id)).status).toBe('pending');
    clock.advance(16 * 60_000);
    await updateUser(server.deps, target.user.username, { state: 'soft_deleted' });
    expect((await acceptByForm(token, target.password)).status).toBe(404);
    await updateUser(server.deps, target.user.username, { state: 'active' });
    expect((await acceptByForm(token, target.password)).status).toBe(200);
    expect((await memberRow(target.user.id)).status).toBe('active');
  });

  it('expires a link after 30 days', async () => {
    const t5 = await makeTeam(server, {}, 'Slow');
    const late = await server.account();
    const inv = await addMember(
      server.deps,
      t5.team.id,
      { username: late.user.username, pending: true },
      { userId: t5.owner.user.id },
    );
    clock.advance(31 * 86_400_000);
    try {
      expect((await acceptByForm(invitationToken(server.deps, inv), late.password)).status).toBe(404);
    } finally {
      clock.advance(-31 * 86_400_000);
    }
  });
});
