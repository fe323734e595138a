// A team of three for tests: an account owner, an admin and a regular member, each with a token,
// built with the same services the `team create` and `team add` verbs use.
import { addMember, createTeam, type Team } from '../../src/domain/teams/teams.js';
import type { AccountOptions, TestAccount } from '../helpers/accounts.js';
import type { TestServer } from '../helpers/server.js';

export interface TestTeam {
  team: Team;
  owner: TestAccount;
  admin: TestAccount;
  regular: TestAccount;
  /** member ids by role */
  memberIds: { owner: string; admin: string; regular: string };
}

export async function makeTeam(
  server: TestServer,
  options: AccountOptions = {},
  name = 'Research',
): Promise<TestTeam> {
  const owner = await server.account(options);
  const admin = await server.account(options);
  const regular = await server.account(options);
  const team = await createTeam(server.deps, owner.user, { name });
  const by = { userId: owner.user.id, ip: '198.51.100.7' };
  const a = await addMember(server.deps, team.id, { username: admin.user.username, type: 'admin' }, by);
  const r = await addMember(server.deps, team.id, { username: regular.user.username }, by);
  const ownerRow = await server.deps.db.kysely
    .selectFrom('team_members')
    .select('id')
    .where('user_id', '=', owner.user.id)
    .executeTakeFirstOrThrow();
  return { team, owner, admin, regular, memberIds: { owner: ownerRow.id, admin: a.id, regular: r.id } };
}

/** Makes the account's app a deployed public app (as deployment will). */
export async function makePublic(server: TestServer, account: TestAccount): Promise<void> {
  await server.deps.db.kysely
    .updateTable('apps')
    .set({ status: 'public' })
    .where('id', '=', account.app.id)
    .execute();
}
