// The team as its Team page shows it: the signed-in user's place in a team (none, invited, or a
// member), and inviting by email address (the invitation names an existing account). Teams and
// workgroups are a paid-plan feature, as the API's scopes for them are (groups_read,
// workgroups_*: a paid plan, else 403/1015).
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { isPaid, isPlan } from '../../platform/plans.js';
import { SIGNUP_PATH } from '../accounts/signup.js';
import { checkEmail, findUserByEmail, findUserByUsername, type User } from '../accounts/users.js';
import { type CallerInTeam, teamForCaller } from './members.js';
import { membershipOf, type TeamMember } from './membership.js';
import { type Actor, addMember, findTeam, type Team } from './teams.js';

/** Whether the user's plan has teams and workgroups: as the API's team and workgroup scopes need. */
export function hasTeams(user: Pick<User, 'account_type'>): boolean {
  return isPlan(user.account_type) && isPaid(user.account_type);
}

/** Refuses (403/1015) a user whose plan has no teams or workgroups. */
export function requireTeamsPlan(user: Pick<User, 'account_type'>): void {
  if (!hasTeams(user)) throw new ApiError(1015, 'Teams and workgroups need a paid plan.');
}

export type Place =
  /** the user's plan has no teams (the page says so; every change is refused) */
  | { kind: 'unpaid' }
  | { kind: 'none' }
  /** invited: the membership waits for the invitee to accept by the emailed link */
  | { kind: 'invited'; team: Team; member: TeamMember }
  | { kind: 'member'; caller: CallerInTeam };

/** Where the user stands: in no team, invited to one, or an active member (with their rights). */
export async function placeOf(deps: Deps, user: Pick<User, 'id' | 'account_type'>): Promise<Place> {
  if (!hasTeams(user)) return { kind: 'unpaid' };
  const userId = user.id;
  const m = await membershipOf(deps, userId);
  if (!m) return { kind: 'none' };
  if (m.status !== 'active') {
    const team = await findTeam(deps, m.team_id);
    return team ? { kind: 'invited', team, member: m } : { kind: 'none' };
  }
  return { kind: 'member', caller: await teamForCaller(deps, userId, m.team_id) };
}

/**
 * Invites the account with this email address (or username) to the team, as a pending member, and
 * queues the invitation email. Invitations are for accounts: an address without one is refused
 * with what the invitee can do, as SIGNUP_MODE allows (sign up themselves, or ask an operator).
 */
export async function inviteMember(
  deps: Deps,
  teamId: string,
  input: { who: string; type: 'regular' | 'admin' },
  actor: Actor,
): Promise<TeamMember> {
  const who = input.who.trim();
  if (!who) throw new ApiError(1002, 'Enter the email address of the person to invite.');
  let user = await findUserByUsername(deps, who);
  if (!user) {
    if (!who.includes('@')) throw new ApiError(1020, `No account has the username ${who}.`);
    checkEmail(who);
    user = await findUserByEmail(deps, who);
  }
  if (!user) {
    const how =
      deps.config.signupMode === 'open'
        ? `Ask them to create an account at ${deps.config.regionUrls.us}${SIGNUP_PATH} with it, then invite them again.`
        : 'Ask an operator to create an account for them (sign-up is not open here), then invite them again.';
    throw new ApiError(1020, `No account uses ${who}. ${how}`);
  }
  return addMember(deps, teamId, { username: user.username, type: input.type, pending: true }, actor);
}
