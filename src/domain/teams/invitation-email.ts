// The team invitation email: queued in the transaction that creates or renews the pending
// membership, so the email exists exactly when the invitation does. It links to the accept page
// with the invitation's signed token (a resend signs a new one and voids the old link).
import type { Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { queueEmail } from '../../db/outbox-queue.js';
import type { Database } from '../../db/schema.js';
import { escapeHtml } from '../../platform/escape.js';
import type { User } from '../accounts/users.js';
import { acceptUrl, INVITATION_DAYS } from './invitations.js';
import type { TeamMember } from './membership.js';

export const INVITATION_PURPOSE = 'team_invite';

export interface InvitationEmail {
  subject: string;
  text: string;
  html: string;
}

/** The email's words: who invites whom to which team, as what, and the link. */
export function renderInvitation(input: {
  teamName: string;
  inviter: string;
  username: string;
  type: string;
  url: string;
}): InvitationEmail {
  const as = input.type === 'admin' ? 'an admin' : 'a member';
  const subject = `${input.inviter} invited you to the team ${input.teamName}`;
  const text = `Hello ${input.username},

${input.inviter} invited you to join the team "${input.teamName}" on Survey Service as ${as}.
Open this link and enter your password to accept:

${input.url}

The link works for ${INVITATION_DAYS} days; a newer invitation replaces it. If you do not want to
join, ignore this email.
`;
  const e = escapeHtml;
  const html = `<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">
<p>Hello ${e(input.username)},</p>
<p>${e(input.inviter)} invited you to join the team <strong>${e(input.teamName)}</strong> on Survey Service as ${as}.</p>
<p><a href="${e(input.url)}">Accept the invitation</a></p>
<p style="color:#555">The link works for ${INVITATION_DAYS} days; a newer invitation replaces it. If you do not want to join, ignore this email.</p>
</body></html>`;
  return { subject, text, html };
}

/** Queues the invitation email of a pending `member` (pass the invitation's transaction). */
export async function queueInvitation(
  deps: Deps,
  trx: Transaction<Database>,
  emailId: string,
  input: { teamName: string; ownerId: string; inviter: string; user: User; member: TeamMember },
): Promise<void> {
  const { user, member } = input;
  const mail = renderInvitation({
    teamName: input.teamName,
    inviter: input.inviter,
    username: user.username,
    type: member.type,
    url: acceptUrl(deps, member, user.region),
  });
  await queueEmail(deps, trx, {
    id: emailId,
    ownerId: input.ownerId,
    to: user.email,
    ...mail,
    purpose: INVITATION_PURPOSE,
    refId: member.id,
  });
}
