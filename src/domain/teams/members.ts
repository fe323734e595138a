// Reading a team and its members, and the member changes made through the API (email).
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { emailKey } from '../../db/account-keys.js';
import { ApiError } from '../../platform/errors.js';
import { takenError } from '../accounts/users.js';
import { queueVerification } from '../accounts/verification.js';
import { countAndPage } from '../core/owned.js';
import { isAdminType, membershipOf, type TeamMember } from './membership.js';
import { requireTeam, type Team } from './teams.js';

export interface MemberRow {
  id: string;
  team_id: string;
  user_id: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  language: string;
  type: string;
  status: string;
  date_created: string;
}

export interface CallerInTeam {
  team: Team;
  /** the caller's own membership (always active) */
  me: TeamMember;
  admin: boolean;
}

/**
 * The team as the caller may see it: only its active members see a team at all; anyone else
 * (another team's user, a pending invitee) gets 404/1020, so team ids cannot be probed.
 */
export async function teamForCaller(deps: Deps, userId: string, teamId: string): Promise<CallerInTeam> {
  const me = await membershipOf(deps, userId);
  if (!me || me.team_id !== teamId || me.status !== 'active') throw new ApiError(1020, 'Group not found.');
  const team = await requireTeam(deps, teamId);
  return { team, me, admin: isAdminType(me.type) };
}

export async function countMembers(deps: Deps, teamId: string, status?: string): Promise<number> {
  let q = deps.db.kysely
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId);
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

function membersQuery(deps: Deps, teamId: string) {
  return deps.db.kysely
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.team_id', '=', teamId);
}

const MEMBER_COLUMNS = [
  'm.id',
  'm.team_id',
  'm.user_id',
  'u.username',
  'u.first_name',
  'u.last_name',
  'u.email',
  'u.language',
  'm.type',
  'm.status',
  'm.date_created',
] as const;

export async function listMembers(
  deps: Deps,
  teamId: string,
  options: { memberIds?: string[]; offset: number; limit: number },
): Promise<{ total: number; rows: MemberRow[] }> {
  let base = membersQuery(deps, teamId);
  if (options.memberIds) {
    if (options.memberIds.length === 0) return { total: 0, rows: [] };
    base = base.where('m.id', 'in', options.memberIds);
  }
  return countAndPage(base, options, (q) =>
    q.select(MEMBER_COLUMNS).orderBy('m.date_created').orderBy('m.id'),
  );
}

export async function findMember(deps: Deps, teamId: string, memberId: string): Promise<MemberRow> {
  const row = await membersQuery(deps, teamId)
    .select(MEMBER_COLUMNS)
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Member not found.');
  return row;
}

/**
 * Changes a member's email address (the account's). The member may change their own; an owner or
 * admin may change other members' (an admin not the account owner's). An address another member
 * of the team, or any other account, already uses is refused with 409/1026. The new address is
 * unconfirmed until the link emailed to it is opened.
 */
export async function changeMemberEmail(
  deps: Deps,
  caller: CallerInTeam,
  memberId: string,
  email: string,
): Promise<MemberRow> {
  const member = await findMember(deps, caller.team.id, memberId);
  const self = member.user_id === caller.me.user_id;
  if (!self) {
    if (!caller.admin) throw new ApiError(1016, "only an owner or admin may change another member's email");
    if (member.type === 'account_owner' && caller.me.type !== 'account_owner')
      throw new ApiError(1016, "only the account owner may change the account owner's email");
  }
  const address = email.trim();
  const taken = await membersQuery(deps, caller.team.id)
    .select('m.id')
    .where('m.id', '!=', member.id)
    .where((eb) =>
      eb.or([
        eb('u.email_key', '=', emailKey(address)),
        eb.and([eb('u.email_key', 'is', null), eb(sql<string>`lower(u.email)`, '=', address.toLowerCase())]),
      ]),
    )
    .executeTakeFirst();
  if (taken) throw new ApiError(1026, `another member of the team already uses ${address}`);
  if (address !== member.email) {
    // A changed address is unconfirmed until the link sent to it is opened (as on the account page).
    const emailId = await deps.ids.one();
    await deps.db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ email: address, email_verified: 0, email_key: emailKey(address) })
          .where('id', '=', member.user_id)
          .execute();
        await queueVerification(
          deps,
          trx,
          { id: member.user_id, username: member.username, email: address },
          emailId,
        );
      })
      // One address per account (a unique index): an address used outside the team is refused too.
      .catch((err) => {
        throw takenError(err, { username: member.username, email: address });
      });
  }
  return { ...member, email: address };
}
