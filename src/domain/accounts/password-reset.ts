// Password reset by emailed link. Asking for a link answers the same whether or not the address
// has an account (nothing to enumerate); requests are throttled per client address and per
// address asked for (one address is one account), counted before anything is looked up. The link
// is single use and works for an hour; setting the new password ends every session of the account
// and lifts a sign-in lockout (the person proved they read the account's mail). A reset that
// confirms an unconfirmed address also revokes every token the account held.
import type { Deps } from '../../context.js';
import { queueEmail } from '../../db/outbox-queue.js';
import { addressKey } from '../../platform/addresses.js';
import { attemptSucceeded, type Policy, type Refusal, reserveAttempt } from '../limits/attempts.js';
import { deleteGrantWebhooks } from './grant-end.js';
import { issueLink, LINK_TTL_MS, linkUrl, useLink } from './links.js';
import { endOtherSessions } from './sessions.js';
import { accountKey } from './sign-in.js';
import { checkEmail, checkPassword, findUserByEmail } from './users.js';

export const RESET_PATH = '/password/reset';
/** The page that asks for a reset link. */
export const FORGOT_PATH = '/password/forgot';
/** Reset emails per address asked for, and requests per client address, within attempts' window. */
const ADDRESS_POLICY: Policy = { slowAfter: 3, lockAt: 5 };
const IP_POLICY: Policy = { slowAfter: 10, lockAt: 30 };

/** Emails a reset link to `email` when an active account has it; null, or how long to wait.
 * A malformed address throws 400/1002. */
export async function requestPasswordReset(
  deps: Deps,
  email: string,
  ip: string | null,
): Promise<Refusal | null> {
  const address = email.trim().toLowerCase();
  checkEmail(address);
  const keys: Array<[string, Policy]> = [[`reset:${address}`, ADDRESS_POLICY]];
  if (ip) keys.push([`reset-ip:${addressKey(ip)}`, IP_POLICY]);
  const refused = await reserveAttempt(deps, keys);
  if (refused) return refused;
  const user = await findUserByEmail(deps, address);
  if (user?.status !== 'active') return null;
  const emailId = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const token = await issueLink(deps, trx, 'reset_password', user.id, user.email);
    await queueEmail(deps, trx, {
      id: emailId,
      ownerId: user.id,
      to: user.email,
      subject: 'Reset your password',
      text: `Hello ${user.username},

Someone (we hope you) asked to reset the password of your Survey Service account.
To choose a new password, open this link:

${linkUrl(deps, RESET_PATH, token)}

The link works once and for ${LINK_TTL_MS.reset_password / 60_000} minutes. If you did not ask for it,
ignore this email: your password stays as it is.
`,
      purpose: 'reset_password',
      refId: user.id,
    });
  });
  return null;
}

/**
 * Sets a new password with a reset link: true, or false when the link is unknown, used or expired.
 * A password too short is refused (400/1002) before the link is used, so it can be tried again.
 */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<boolean> {
  checkPassword(password);
  const hash = await deps.passwords.hash(password);
  const user = await deps.db.kysely.transaction().execute(async (trx) => {
    const link = await useLink(deps, trx, 'reset_password', token);
    if (!link?.user_id) return null;
    const user = await trx.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst();
    if (user?.status !== 'active') return null;
    // The link reached the account's address: if it is still the account's, it is verified.
    const verified = user.email.toLowerCase() === link.email.toLowerCase() ? 1 : user.email_verified;
    await trx
      .updateTable('users')
      .set({ password_hash: hash, email_verified: verified })
      .where('id', '=', user.id)
      .execute();
    await endOtherSessions(deps, user.id, null, trx);
    // Confirming the address here proves whose account this is: whatever was granted before,
    // perhaps by someone who signed up with this address, ends (tokens, their webhooks, codes).
    if (!user.email_verified && verified) {
      const ended = await trx
        .updateTable('tokens')
        .set({ status: 'revoked', revoked_at: deps.clock.now().toISOString() })
        .where('user_id', '=', user.id)
        .where('status', '=', 'active')
        .returning('app_id')
        .execute();
      for (const appId of new Set(ended.map((t) => t.app_id))) await deleteGrantWebhooks(trx, user.id, appId);
      await trx
        .deleteFrom('auth_codes')
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .execute();
    }
    return user;
  });
  if (!user) return false;
  await attemptSucceeded(deps, [accountKey(user, user.username)], []);
  return true;
}
