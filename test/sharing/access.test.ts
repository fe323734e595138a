// Sharing has effect: members of a workgroup see a shared survey and may do what the share's role
// allows; removing the share, the membership or the workgroup takes it away at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, removeMember } from '../../src/domain/teams/teams.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';
import { api, FULL_PRIVILEGES, ROLES } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let other: TestTeam;
let a: ReturnType<typeof api>;
const clock = new TestClock('2026-07-01T08:30:00Z');

beforeAll(async () => {
  server = await startServer({ clock });
  t = await makeTeam(server);
  other = await makeTeam(server, {}, 'Rivals');
  a = api(server);
});
afterAll(() => server.close());

const c = () => server.client;
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((s) => s.id).sort();

describe('a share with the Viewer role', () => {
  let survey: { id: string };
  let ownSurvey: { id: string };
  let wg: { id: string };
  let share: { id: string };

  beforeAll(async () => {
    survey = await a.survey(t.owner.token, 'Staff survey');
    ownSurvey = await a.survey(t.regular.token, 'Regular’s own');
    wg = await a.workgroup(t.owner.token, 'Readers', [t.regular.user.id]);
  });

  it('a member cannot see the survey before it is shared', async () => {
    const res = await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token });
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
    expect(ids(await c().get('/v3/surveys', { token: t.regular.token }))).toEqual([ownSurvey.id]);
  });

  it('once shared, the member sees it in GET /surveys (shared_with) and reads it, is_owner false', async () => {
    share = await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const all = await c().get('/v3/surveys', { token: t.regular.token });
    expect(ids(all)).toEqual([ownSurvey.id, survey.id].sort());
    const sharedWith = await c().get('/v3/surveys?include=shared_with', { token: t.regular.token });
    expect(ids(sharedWith)).toEqual([survey.id]);
    const owned = await c().get('/v3/surveys?include=owned', { token: t.regular.token });
    expect(ids(owned)).toEqual([ownSurvey.id]);
    const read = await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: survey.id, title: 'Staff survey', is_owner: false });
    const details = await c().get(`/v3/surveys/${survey.id}/details`, { token: t.regular.token });
    expect(details.status).toBe(200);
    expect(details.body.is_owner).toBe(false);
    const pages = await c().get(`/v3/surveys/${survey.id}/pages`, { token: t.regular.token });
    expect(pages.status).toBe(200);
  });

  it('the owner finds it with include=shared_by, not their unshared surveys', async () => {
    const unshared = await a.survey(t.owner.token, 'Private');
    const res = await c().get('/v3/surveys?include=shared_by', { token: t.owner.token });
    expect(ids(res)).toEqual([survey.id]);
    const owned = await c().get('/v3/surveys?include=owned', { token: t.owner.token });
    expect(ids(owned)).toEqual([survey.id, unshared.id].sort());
    const rec = await c().get(`/v3/surveys/${survey.id}`, { token: t.owner.token });
    expect(rec.body.is_owner).toBe(true);
  });

  it('a Viewer may not change the design: 403/1016', async () => {
    const patch = await c().patch(
      `/v3/surveys/${survey.id}`,
      { title: 'Hijacked' },
      { token: t.regular.token },
    );
    expect(patch.status).toBe(403);
    expect(patch.body.error.id).toBe('1016');
    const page = await c().post(
      `/v3/surveys/${survey.id}/pages`,
      { title: 'More' },
      { token: t.regular.token },
    );
    expect(page.status).toBe(403);
    expect(page.body.error.id).toBe('1016');
    const del = await c().delete(`/v3/surveys/${survey.id}`, { token: t.regular.token });
    expect(del.status).toBe(403);
    const still = await c().get(`/v3/surveys/${survey.id}`, { token: t.owner.token });
    expect(still.body.title).toBe('Staff survey');
  });

  it('a Viewer may not share it onward: 403/1016', async () => {
    const mine = await a.workgroup(t.regular.token, 'Regular’s group');
    const res = await c().post(
      `/v3/workgroups/${mine.id}/shares`,
      { resource_type: 'survey', resource_id: survey.id },
      { token: t.regular.token },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1016');
  });

  it('someone in the team but not in the workgroup cannot see it (404), nor can another team', async () => {
    for (const token of [t.admin.token, other.owner.token]) {
      const res = await c().get(`/v3/surveys/${survey.id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.error.id).toBe('1020');
      const list = await c().get('/v3/surveys?include=shared_with', { token });
      expect(list.body.data).toEqual([]);
    }
  });

  it('Full Access through PATCH of the share lets the member change the survey', async () => {
    const res = await c().patch(
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      { role_id: ROLES.fullAccess },
      { token: t.owner.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role_id: ROLES.fullAccess, privileges: FULL_PRIVILEGES });
    const patch = await c().patch(
      `/v3/surveys/${survey.id}`,
      { title: 'Edited by a member' },
      { token: t.regular.token },
    );
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ title: 'Edited by a member', is_owner: false });
    const page = await c().post(
      `/v3/surveys/${survey.id}/pages`,
      { title: 'Second' },
      { token: t.regular.token },
    );
    expect(page.status).toBe(201);
    // full access to design is not ownership: only the owner deletes the survey
    const del = await c().delete(`/v3/surveys/${survey.id}`, { token: t.regular.token });
    expect(del.status).toBe(403);
    expect(del.body.error.id).toBe('1016');
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(200);
  });

  it('with full access the member may share it onward; they are the share’s owner_user_id', async () => {
    const theirs = await a.workgroup(t.regular.token, 'Onward', [t.admin.user.id]);
    const onward = await a.share(t.regular.token, theirs.id, survey.id, ROLES.viewer);
    expect(onward.owner_user_id).toBe(t.regular.user.id);
    const byAdmin = await c().get(`/v3/surveys/${survey.id}`, { token: t.admin.token });
    expect(byAdmin.status).toBe(200);
    await c().delete(`/v3/workgroups/${theirs.id}/shares/${onward.id}`, { token: t.regular.token });
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.admin.token })).status).toBe(404);
  });

  it('an Editor may design but the survey stays the owner’s (is_owner false)', async () => {
    await c().patch(
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      { role_id: ROLES.editor },
      { token: t.owner.token },
    );
    const patch = await c().patch(`/v3/surveys/${survey.id}`, { nickname: 'ed' }, { token: t.regular.token });
    expect(patch.status).toBe(200);
    expect(patch.body.is_owner).toBe(false);
    // an Editor lacks full access over collect and analyze, so may not share onward
    const mine = await a.workgroup(t.regular.token, 'Editors own');
    const res = await c().post(
      `/v3/workgroups/${mine.id}/shares`,
      { resource_type: 'survey', resource_id: survey.id },
      { token: t.regular.token },
    );
    expect(res.status).toBe(403);
  });

  it('removing the share takes access away at once', async () => {
    const del = await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.owner.token });
    expect(del.status).toBe(200);
    const res = await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token });
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
    const patch = await c().patch(`/v3/surveys/${survey.id}`, { title: 'x' }, { token: t.regular.token });
    expect(patch.status).toBe(404);
    expect(ids(await c().get('/v3/surveys', { token: t.regular.token }))).toEqual([ownSurvey.id]);
  });

  it('removing the member from the workgroup takes access away at once', async () => {
    await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(200);
    const out = await c().delete(`/v3/workgroups/${wg.id}/members/${t.regular.user.id}`, {
      token: t.owner.token,
    });
    expect(out.status).toBe(200);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(404);
    const shared = await c().get('/v3/users/me/shared', { token: t.regular.token });
    expect(shared.body.data).toEqual([]);
  });
});

describe('membership of the team', () => {
  it('leaving the team takes shared access away', async () => {
    const team = await makeTeam(server, {}, 'Leavers');
    const survey = await a.survey(team.owner.token, 'Exit survey');
    const wg = await a.workgroup(team.owner.token, 'All', [team.regular.user.id]);
    await a.share(team.owner.token, wg.id, survey.id);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: team.regular.token })).status).toBe(200);
    await removeMember(server.deps, team.team.id, team.regular.user.username, { userId: team.owner.user.id });
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: team.regular.token })).status).toBe(404);
  });
});

describe('pending team members', () => {
  it('an invited member who has not joined the team gets nothing from a share until they join', async () => {
    const invited = await server.account();
    await addMember(
      server.deps,
      t.team.id,
      { username: invited.user.username, pending: true },
      { userId: t.owner.user.id },
    );
    const survey = await a.survey(t.owner.token, 'Before joining');
    const wg = await a.workgroup(t.owner.token, 'With a pending member', [invited.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const res = await c().get(`/v3/surveys/${survey.id}`, { token: invited.token });
    expect(res.status).toBe(404);
    expect((await c().get('/v3/users/me/shared', { token: invited.token })).body.total).toBe(0);
    await server.deps.db.kysely
      .updateTable('team_members')
      .set({ status: 'active' })
      .where('user_id', '=', invited.user.id)
      .execute();
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: invited.token })).status).toBe(200);
  });
});

describe('several shares and roles', () => {
  it('a member reached by two shares holds the stronger privileges of each area', async () => {
    const survey = await a.survey(t.owner.token, 'Twice shared');
    const w1 = await a.workgroup(t.owner.token, 'Collectors', [t.admin.user.id]);
    const w2 = await a.workgroup(t.owner.token, 'Editors', [t.admin.user.id]);
    await a.share(t.owner.token, w1.id, survey.id, ROLES.collector);
    expect(
      (await c().patch(`/v3/surveys/${survey.id}`, { title: 'no' }, { token: t.admin.token })).status,
    ).toBe(403);
    clock.advance(60_000);
    await a.share(t.owner.token, w2.id, survey.id, ROLES.editor);
    expect(
      (await c().patch(`/v3/surveys/${survey.id}`, { title: 'yes' }, { token: t.admin.token })).status,
    ).toBe(200);
    const rec = await c().get(`/v3/users/me/shared?resource_type=survey&resource_id=${survey.id}`, {
      token: t.admin.token,
    });
    expect(rec.body.data.map((r: { privileges: string[] }) => r.privileges)).toEqual([
      ['design.read_only', 'collect.full_access', 'analyze.read_only'],
      ['design.full_access', 'collect.read_only', 'analyze.read_only'],
    ]);
  });

  it('a member whose own workgroup role is Viewer gets no more than read access from a Full Access share', async () => {
    const survey = await a.survey(t.owner.token, 'Capped');
    const wg = await a.workgroup(t.owner.token, 'Capped group');
    // members added from now on get the workgroup's default role
    const patched = await c().patch(
      `/v3/workgroups/${wg.id}`,
      { default_role_id: ROLES.viewer },
      { token: t.owner.token },
    );
    expect(patched.status).toBe(200);
    await c().post(
      `/v3/workgroups/${wg.id}/members`,
      { user_id: t.regular.user.id, is_workgroup_owner: false },
      { token: t.owner.token },
    );
    await a.share(t.owner.token, wg.id, survey.id, ROLES.fullAccess);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(200);
    const patch = await c().patch(`/v3/surveys/${survey.id}`, { title: 'no' }, { token: t.regular.token });
    expect(patch.status).toBe(403);
    expect(patch.body.error.id).toBe('1016');
    const rec = await c().get(`/v3/users/me/shared?resource_type=survey&resource_id=${survey.id}`, {
      token: t.regular.token,
    });
    expect(rec.body.data[0].privileges).toEqual([
      'design.read_only',
      'collect.read_only',
      'analyze.read_only',
    ]);
  });

  it('a workgroup owner who does not own the survey cannot raise a share’s privileges, but may remove it', async () => {
    const survey = await a.survey(t.owner.token, 'Not theirs');
    const wg = await a.workgroup(t.regular.token, 'Run by regular');
    // the account owner manages every workgroup of the team, so may share into it
    const share = await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const up = await c().patch(
      `/v3/workgroups/${wg.id}/shares/${share.id}`,
      { role_id: ROLES.fullAccess },
      { token: t.regular.token },
    );
    expect(up.status).toBe(403);
    expect(up.body.error.id).toBe('1016');
    expect(
      (await c().patch(`/v3/surveys/${survey.id}`, { title: 'no' }, { token: t.regular.token })).status,
    ).toBe(403);
    const del = await c().delete(`/v3/workgroups/${wg.id}/shares/${share.id}`, { token: t.regular.token });
    expect(del.status).toBe(200);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(404);
  });
});

describe('deleting things that shares hang on', () => {
  it('deleting the workgroup removes its shares and the access they gave', async () => {
    const survey = await a.survey(t.owner.token, 'Orphan-to-be');
    const wg = await a.workgroup(t.owner.token, 'Short-lived', [t.regular.user.id]);
    await a.share(t.owner.token, wg.id, survey.id);
    const read = await c().get(`/v3/workgroups/${wg.id}`, { token: t.owner.token });
    expect(read.body).toMatchObject({ shares_count: 1, share_count: '1' });
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(200);
    expect((await c().delete(`/v3/workgroups/${wg.id}`, { token: t.owner.token })).status).toBe(200);
    expect((await c().get(`/v3/surveys/${survey.id}`, { token: t.regular.token })).status).toBe(404);
    const left = await server.deps.db.kysely
      .selectFrom('workgroup_shares')
      .select('id')
      .where('workgroup_id', '=', wg.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('deleting the survey removes its shares', async () => {
    const survey = await a.survey(t.owner.token, 'Going away');
    const wg = await a.workgroup(t.owner.token, 'Keeps going', [t.regular.user.id]);
    await a.share(t.owner.token, wg.id, survey.id);
    expect((await c().delete(`/v3/surveys/${survey.id}`, { token: t.owner.token })).status).toBe(200);
    const list = await c().get(`/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
    expect(list.body.total).toBe(0);
    expect((await c().get(`/v3/workgroups/${wg.id}`, { token: t.owner.token })).body.shares_count).toBe(0);
  });
});
