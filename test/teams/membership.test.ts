// The team helpers other areas call (private apps: "users must belong to the owner's team").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activeTeamOf, allInTeamOf, isTeamAdmin, sameTeam } from '../../src/domain/teams/membership.js';
import { addMember } from '../../src/domain/teams/teams.js';
import { activeWorkgroupsOf } from '../../src/domain/workgroups/members.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let other: TestTeam;

beforeAll(async () => {
  server = await startServer();
  t = await makeTeam(server);
  other = await makeTeam(server, {}, 'Other');
});
afterAll(() => server.close());

it('sameTeam: true only for two active members of one team', async () => {
  const d = server.deps;
  expect(await sameTeam(d, t.owner.user.id, t.regular.user.id)).toBe(true);
  expect(await sameTeam(d, t.regular.user.id, t.admin.user.id)).toBe(true);
  expect(await sameTeam(d, t.owner.user.id, other.owner.user.id)).toBe(false);
  const loner = await server.account();
  expect(await sameTeam(d, loner.user.id, loner.user.id)).toBe(false);
  expect(await sameTeam(d, t.owner.user.id, t.owner.user.id)).toBe(true);
  expect(await sameTeam(d, t.owner.user.id, loner.user.id)).toBe(false);
  await addMember(
    d,
    t.team.id,
    { username: loner.user.username, pending: true },
    { userId: t.owner.user.id },
  );
  expect(await sameTeam(d, t.owner.user.id, loner.user.id)).toBe(false);
  expect(await activeTeamOf(d, loner.user.id)).toBeNull();
  expect(await activeTeamOf(d, t.admin.user.id)).toBe(t.team.id);
});

it("allInTeamOf: every user must be an active member of the owner's team", async () => {
  const d = server.deps;
  expect(await allInTeamOf(d, t.owner.user.id, [t.admin.user.id, t.regular.user.id, t.owner.user.id])).toBe(
    true,
  );
  expect(await allInTeamOf(d, t.owner.user.id, [t.admin.user.id, other.regular.user.id])).toBe(false);
  const loner = await server.account();
  expect(await allInTeamOf(d, loner.user.id, [loner.user.id])).toBe(false);
});

it('isTeamAdmin: owners and admins of that team only', async () => {
  const d = server.deps;
  expect(await isTeamAdmin(d, t.owner.user.id, t.team.id)).toBe(true);
  expect(await isTeamAdmin(d, t.admin.user.id, t.team.id)).toBe(true);
  expect(await isTeamAdmin(d, t.regular.user.id, t.team.id)).toBe(false);
  expect(await isTeamAdmin(d, t.admin.user.id, other.team.id)).toBe(false);
});

it('activeWorkgroupsOf: memberships with effect, not those of a pending team member', async () => {
  const d = server.deps;
  const team = await makeTeam(server, {}, 'Effect');
  const invitee = await server.account();
  await addMember(
    d,
    team.team.id,
    { username: invitee.user.username, pending: true },
    { userId: team.owner.user.id },
  );
  const wg = await server.client.post(
    '/v3/workgroups',
    { name: 'W', is_visible: false },
    { token: team.admin.token },
  );
  for (const [user, owner] of [
    [team.regular.user.id, false],
    [invitee.user.id, false],
  ] as const) {
    const r = await server.client.post(
      `/v3/workgroups/${wg.body.id}/members`,
      { user_id: user, is_workgroup_owner: owner },
      { token: team.admin.token },
    );
    expect(r.status).toBe(201);
  }
  expect(await activeWorkgroupsOf(d, team.admin.user.id)).toEqual([
    { workgroup_id: wg.body.id, role_id: wg.body.default_role.id, is_owner: true },
  ]);
  expect(await activeWorkgroupsOf(d, team.regular.user.id)).toEqual([
    { workgroup_id: wg.body.id, role_id: wg.body.default_role.id, is_owner: false },
  ]);
  expect(await activeWorkgroupsOf(d, invitee.user.id)).toEqual([]);
  expect(await activeWorkgroupsOf(d, team.owner.user.id)).toEqual([]);
});
