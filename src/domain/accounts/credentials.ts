// Changing a password or an address from the account page. Both ask for the current password,
// checked with the sign-in throttle (per account and per client address), so a borrowed session
// cannot take the account over nor guess its password faster than the sign-in page allows.
import type { Deps } from '../../context.js';
import { emailKey } from '../../db/account-keys.js';
import { ApiError } from '../../platform/errors.js';
import { waitText } from '../limits/attempts.js';
import { endOtherSessions } from './sessions.js';
import { SSO_REQUIRED_TEXT, signIn } from './sign-in.js';
import { checkEmail, checkPassword, takenError, type User } from './users.js';
import { queueVerification } from './verification.js';

/** Throws 400/1002 for a wrong password and 429/1040 while the sign-in throttle holds. */
export async function confirmPassword(
  deps: Deps,
  user: User,
  password: string,
  ip: string | null,
): Promise<void> {
  const result = await signIn(deps, user.username, password, ip);
  if (result.ok) return;
  if (result.reason === 'invalid') throw new ApiError(1002, 'The current password is not correct.');
  if (result.reason === 'sso_required') throw new ApiError(1002, SSO_REQUIRED_TEXT);
  throw new ApiError(1040, `Too many wrong passwords. Try again in ${waitText(result.retryAfterSeconds)}.`);
}

/** Sets a new password and ends the account's other sessions (the one in use, `keepSession`, stays). */
export async function changePassword(
  deps: Deps,
  user: User,
  current: string,
  next: string,
  ip: string | null,
  keepSession: string | null,
): Promise<void> {
  checkPassword(next);
  await confirmPassword(deps, user, current, ip);
  const hash = await deps.passwords.hash(next);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await endOtherSessions(deps, user.id, keepSession, trx);
  });
}

/**
 * Changes the account's address: it is unverified until the link sent to it is opened. An
 * address another account uses is refused with 409/1026 by the unique index.
 */
export async function changeEmail(
  deps: Deps,
  user: User,
  password: string,
  email: string,
  ip: string | null,
): Promise<User> {
  const address = email.trim();
  checkEmail(address);
  await confirmPassword(deps, user, password, ip);
  if (address === user.email) return user;
  const emailId = await deps.ids.one();
  const changed = { ...user, email: address, email_verified: 0, email_key: emailKey(address) };
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ email: address, email_verified: 0, email_key: changed.email_key })
        .where('id', '=', user.id)
        .execute();
      await queueVerification(deps, trx, changed, emailId);
    });
  } catch (err) {
    throw takenError(err, changed);
  }
  return changed;
}
