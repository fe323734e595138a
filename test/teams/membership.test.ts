// The team helpers other areas call (private apps: "users must belong to the owner's team").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activeTeamOf, allInTeamOf, isTeamAdmin, sameTeam } from '../../src/domain/teams/membership.js';
import { addMember } from '../../src/domain/teams/teams.js';
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
