// Teams (groups): creation, invitations, joining, member types, removal and renaming. Every change
// records its event (and so its group activity) in the change's transaction.
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import type { TeamsTable } from '../../db/tables/teams.js';
import { ApiError } from '../../platform/errors.js';
import { findUserById, findUserByUsername, type User } from '../accounts/users.js';
import type { NewEvent } from '../core/event-types.js';
import { recordEvent } from '../core/events.js';
import { isUniqueViolation } from '../core/unique.js';
import { queueInvitation } from './invitation-email.js';
import { isAdminType, type MemberType, membershipOf, type TeamMember } from './membership.js';

export type Team = TeamsTable;
export const DEFAULT_MAX_INVITES = 100;

/** Who did it and from where (the CLI passes no ip). */
export interface Actor {
  userId: string;
  ip?: string | null;
}

export function findTeam(deps: Deps, id: string): Promise<Team | undefined> {
  return deps.db.kysely.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireTeam(deps: Deps, id: string): Promise<Team> {
  const team = await findTeam(deps, id);
  if (!team) throw new ApiError(1020, `no team with id ${id}`);
  return team;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new ApiError(1002, 'a team name must be 1-100 characters');
  return trimmed;
}

export async function createTeam(
  deps: Deps,
  owner: User,
  input: { name: string; maxInvites?: number },
): Promise<Team> {
  const name = checkName(input.name);
  const maxInvites = input.maxInvites ?? DEFAULT_MAX_INVITES;
  if (!Number.isInteger(maxInvites) || maxInvites < 1 || maxInvites > 2147483647)
    throw new ApiError(1002, 'max invites must be a whole number from 1');
  if (await membershipOf(deps, owner.id))
    throw new ApiError(1025, `${owner.username} already belongs to a team (a user belongs to at most one)`);
  const [teamId, memberId] = await deps.ids.take(2);
  const now = deps.clock.now().toISOString();
  const team: Team = { id: teamId, name, owner_id: owner.id, max_invites: maxInvites, date_created: now };
  const oneTeam = (err: unknown) => {
    if (isUniqueViolation(err)) throw new ApiError(1025, `${owner.username} already belongs to a team`);
    throw err;
  };
  await deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('teams').values(team).execute();
      await trx
        .insertInto('team_members')
        .values({
          id: memberId,
          team_id: teamId,
          owner_account_id: owner.id,
          user_id: owner.id,
          type: 'account_owner',
          status: 'active',
          invited_at: null,
          date_created: now,
        })
        .execute();
    })
    .catch(oneTeam);
  return team;
}

/** The team, if the acting user is an active owner or admin of it (else 404/1020 or 403/1016). */
async function adminTeam(deps: Deps, teamId: string, actor: Actor): Promise<Team> {
  const team = await requireTeam(deps, teamId);
  const m = await membershipOf(deps, actor.userId);
  if (!m || m.team_id !== team.id || m.status !== 'active' || !isAdminType(m.type))
    throw new ApiError(1016, 'only an account owner or admin of the team may do this');
  return team;
}

/** An admin's change to the team, recorded as the team's event (and so its group activity). */
function recordAdminEvent(
  deps: Deps,
  trx: Parameters<typeof recordEvent>[1],
  eventId: string,
  team: Team,
  actor: Actor,
  event: Pick<NewEvent, 'type' | 'resourceType' | 'resourceId' | 'data'>,
): Promise<void> {
  return recordEvent(deps, trx, eventId, {
    ...event,
    ownerId: team.owner_id,
    actorId: actor.userId,
    groupId: team.id,
    ip: actor.ip,
  });
}

async function requireMember(deps: Deps, teamId: string, username: string): Promise<[User, TeamMember]> {
  const user = await findUserByUsername(deps, username);
  const m = user ? await membershipOf(deps, user.id) : undefined;
  if (!user || !m || m.team_id !== teamId) throw new ApiError(1020, `${username} is not in this team`);
  return [user, m];
}

export interface AddMember {
  username: string;
  type?: 'regular' | 'admin';
  /** invite (pending until accepted) instead of adding directly */
  pending?: boolean;
}

export async function addMember(
  deps: Deps,
  teamId: string,
  input: AddMember,
  actor: Actor,
): Promise<TeamMember> {
  const team = await adminTeam(deps, teamId, actor);
  const type = input.type ?? 'regular';
  if (type !== 'regular' && type !== 'admin') throw new ApiError(1002, 'type must be regular or admin');
  const user = await findUserByUsername(deps, input.username);
  if (!user) throw new ApiError(1020, `no user named ${input.username}`);
  const existing = await membershipOf(deps, user.id);
  if (existing?.team_id === team.id) throw new ApiError(1026, `${user.username} is already in this team`);
  if (existing) throw new ApiError(1025, `${user.username} already belongs to another team`);
  const [memberId, eventId, emailId] = await deps.ids.take(3);
  const inviter = input.pending ? await inviterName(deps, actor) : '';
  const now = deps.clock.now().toISOString();
  const member: TeamMember = {
    id: memberId,
    team_id: team.id,
    owner_account_id: team.owner_id,
    user_id: user.id,
    type,
    status: input.pending ? 'pending' : 'active',
    invited_at: input.pending ? now : null,
    date_created: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The team's row serialises concurrent additions, so max_invites holds.
    await lockRow(deps.db, trx, 'teams', team.id);
    const count = await trx
      .selectFrom('team_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= team.max_invites)
      throw new ApiError(1017, `the team has reached its ${team.max_invites} members`);
    await trx
      .insertInto('team_members')
      .values(member)
      .execute()
      .catch((err) => {
        if (isUniqueViolation(err)) throw new ApiError(1025, `${user.username} already belongs to a team`);
        throw err;
      });
    await recordEvent(deps, trx, eventId, {
      type: input.pending ? 'invite_created' : 'member_joined',
      ownerId: team.owner_id,
      // An invitation is the admin's act; a direct addition is the new member's joining.
      actorId: input.pending ? actor.userId : user.id,
      groupId: team.id,
      ip: input.pending ? actor.ip : null,
      resourceType: 'group_member',
      resourceId: memberId,
      data: { member: user.username, member_type: type },
    });
    // An invitation is emailed with its accept link in the same transaction.
    if (input.pending)
      await queueInvitation(deps, trx, emailId, {
        teamName: team.name,
        ownerId: team.owner_id,
        inviter,
        user,
        member,
      });
  });
  return member;
}

/** How an invitation names who sent it: their full name, else their username. */
async function inviterName(deps: Deps, actor: Actor): Promise<string> {
  const u = await findUserById(deps, actor.userId);
  const full = [u?.first_name, u?.last_name].filter(Boolean).join(' ');
  return full || u?.username || 'A team admin';
}

export async function resendInvitation(
  deps: Deps,
  teamId: string,
  username: string,
  actor: Actor,
): Promise<TeamMember> {
  const team = await adminTeam(deps, teamId, actor);
  const [user, m] = await requireMember(deps, team.id, username);
  if (m.status !== 'pending') throw new ApiError(1025, `${username} has already joined`);
  const [eventId, emailId] = await deps.ids.take(2);
  const inviter = await inviterName(deps, actor);
  // A later instant than the last invitation, so the old link (signed over invited_at) stops working.
  const invitedAt = deps.clock.now().toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('team_members').set({ invited_at: invitedAt }).where('id', '=', m.id).execute();
    await queueInvitation(deps, trx, emailId, {
      teamName: team.name,
      ownerId: team.owner_id,
      inviter,
      user,
      member: { ...m, invited_at: invitedAt },
    });
    await recordAdminEvent(deps, trx, eventId, team, actor, {
      type: 'invite_resent',
      resourceType: 'group_member',
      resourceId: m.id,
      data: { member: user.username },
    });
  });
  return { ...m, invited_at: invitedAt };
}

export async function removeMember(
  deps: Deps,
  teamId: string,
  username: string,
  actor: Actor,
): Promise<void> {
  const team = await adminTeam(deps, teamId, actor);
  const [user, m] = await requireMember(deps, team.id, username);
  if (m.type === 'account_owner') throw new ApiError(1025, 'the account owner cannot be removed');
  const eventId = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Leaving the team ends the user's place in the team's workgroups and the surveys shared with
    // them in it (a person share has effect only for a member; a later return starts afresh).
    await trx
      .deleteFrom('workgroup_members')
      .where('user_id', '=', user.id)
      .where('workgroup_id', 'in', trx.selectFrom('workgroups').select('id').where('team_id', '=', team.id))
      .execute();
    await trx
      .deleteFrom('person_shares')
      .where('user_id', '=', user.id)
      .where('team_id', '=', team.id)
      .execute();
    await trx.deleteFrom('team_members').where('id', '=', m.id).execute();
    await recordAdminEvent(deps, trx, eventId, team, actor, {
      type: 'member_deleted',
      resourceType: 'group_member',
      resourceId: m.id,
      data: { member: user.username, member_type: m.type },
    });
  });
}

export async function setMemberType(
  deps: Deps,
  teamId: string,
  username: string,
  type: MemberType,
  actor: Actor,
): Promise<TeamMember> {
  const team = await adminTeam(deps, teamId, actor);
  if (type !== 'regular' && type !== 'admin') throw new ApiError(1002, 'type must be regular or admin');
  const [user, m] = await requireMember(deps, team.id, username);
  if (m.type === 'account_owner') throw new ApiError(1025, "the account owner's type cannot be changed");
  if (m.type === type) return m;
  const eventId = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('team_members').set({ type }).where('id', '=', m.id).execute();
    await recordAdminEvent(deps, trx, eventId, team, actor, {
      type: 'member_updated_group_member_type',
      resourceType: 'group_member',
      resourceId: m.id,
      data: { member: user.username, old: m.type, new: type },
    });
  });
  return { ...m, type };
}

export async function renameTeam(deps: Deps, teamId: string, name: string, actor: Actor): Promise<Team> {
  const team = await adminTeam(deps, teamId, actor);
  const newName = checkName(name);
  if (newName === team.name) return team;
  const eventId = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('teams').set({ name: newName }).where('id', '=', team.id).execute();
    await recordAdminEvent(deps, trx, eventId, team, actor, {
      type: 'group_info_updated_group_name',
      resourceType: 'group',
      resourceId: team.id,
      data: { old: team.name, new: newName },
    });
  });
  return { ...team, name: newName };
}

/** Turns a pending invitation into an active membership: the member joins. */
export async function joinTeam(deps: Deps, member: TeamMember, ip: string | null): Promise<void> {
  const team = await requireTeam(deps, member.team_id);
  const user = await findUserById(deps, member.user_id);
  const eventId = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('team_members')
      .set({ status: 'active' })
      .where('id', '=', member.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new ApiError(1025, 'the invitation was already accepted');
    await recordEvent(deps, trx, eventId, {
      type: 'member_joined',
      ownerId: team.owner_id,
      actorId: member.user_id,
      groupId: team.id,
      ip,
      resourceType: 'group_member',
      resourceId: member.id,
      data: { member: user?.username ?? null, member_type: member.type },
    });
  });
}
