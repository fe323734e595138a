// Invitation links. The link carries a signed token (member id + a MAC over the member id and the
// time of the latest invitation), which is the capability to accept: resending an invitation
// voids the earlier links, and a link expires INVITATION_DAYS after it was sent.
import { timingSafeEqual } from 'node:crypto';
import type { Region } from '../../config.js';
import type { Deps } from '../../context.js';
import type { TeamMember } from './membership.js';

export const INVITATION_DAYS = 30;
export const ACCEPT_PATH = '/teams/invitations/accept';

export function invitationToken(deps: Deps, member: Pick<TeamMember, 'id' | 'invited_at'>): string {
  return `${member.id}.${deps.secrets.sign('team-invite', `${member.id}:${member.invited_at}`)}`;
}

/** The accept link, on the invited user's regional host. */
export function acceptUrl(deps: Deps, member: Pick<TeamMember, 'id' | 'invited_at'>, region: string): string {
  const base = deps.config.regionUrls[region as Region] ?? deps.config.regionUrls.us;
  return `${base}${ACCEPT_PATH}?token=${encodeURIComponent(invitationToken(deps, member))}`;
}

/** The pending invitation a token names, or null when it is forged, stale, expired or accepted. */
export async function invitationByToken(deps: Deps, token: string): Promise<TeamMember | null> {
  const m = /^(\d{1,20})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!m) return null;
  const member = await deps.db.kysely
    .selectFrom('team_members')
    .selectAll()
    .where('id', '=', m[1])
    .executeTakeFirst();
  if (member?.status !== 'pending' || !member.invited_at) return null;
  const expected = Buffer.from(invitationToken(deps, member));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const age = deps.clock.now().getTime() - new Date(member.invited_at).getTime();
  if (age > INVITATION_DAYS * 86_400_000) return null;
  return member;
}
