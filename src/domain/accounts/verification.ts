// Email verification by link: a new account (sign-up) and a changed address start unverified and
// get an email with a single-use link; opening it marks the address verified (`email_verified`
// of GET /v3/users/me; sending survey invitations requires it). A link names the address it was
// sent to, so a link to an address the account no longer has verifies nothing.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { queueEmail } from '../../db/outbox-queue.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { type Policy, reserveAttempt } from '../limits/attempts.js';
import { issueLink, LINK_TTL_MS, linkUrl, useLink } from './links.js';
import type { User } from './users.js';

type Executor = Kysely<Database> | Transaction<Database>;

export const VERIFY_PATH = '/account/verify';
/** Verification emails one account may ask for again (the first after sign-up is not counted). */
const RESEND_POLICY: Policy = { slowAfter: 3, lockAt: 10 };

/** Queues the verification email of `user` (pass the transaction that set the address). */
export async function queueVerification(
  deps: Deps,
  executor: Executor,
  user: Pick<User, 'id' | 'username' | 'email'>,
  emailId: string,
): Promise<void> {
  const token = await issueLink(deps, executor, 'verify_email', user.id, user.email);
  const days = LINK_TTL_MS.verify_email / 86_400_000;
  await queueEmail(deps, executor, {
    id: emailId,
    ownerId: user.id,
    to: user.email,
    subject: 'Confirm your email address',
    text: `Hello ${user.username},

Please confirm that ${user.email} is your email address by opening this link:

${linkUrl(deps, VERIFY_PATH, token)}

The link works once and for ${days} days. If you did not create an account or change your
address on Survey Service, you can ignore this email.
`,
    purpose: 'verify_email',
    refId: user.id,
  });
}

/** Uses a verification link: the verified account, or null (unknown, used or expired link). */
export async function verifyEmail(deps: Deps, token: string): Promise<User | null> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const link = await useLink(deps, trx, 'verify_email', token);
    if (!link?.user_id) return null;
    const user = await trx.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst();
    if (!user || user.email.toLowerCase() !== link.email.toLowerCase()) return null;
    await trx.updateTable('users').set({ email_verified: 1 }).where('id', '=', user.id).execute();
    return { ...user, email_verified: 1 };
  });
}

/** Sends the verification email again (throttled per account); refuses a verified address. */
export async function resendVerification(deps: Deps, user: User) {
  if (user.email_verified) throw new ApiError(1002, 'your address is already verified');
  const refused = await reserveAttempt(deps, [[`verify:${user.id}`, RESEND_POLICY]]);
  if (refused) return refused;
  const emailId = await deps.ids.one();
  await deps.db.kysely.transaction().execute((trx) => queueVerification(deps, trx, user, emailId));
  return null;
}
