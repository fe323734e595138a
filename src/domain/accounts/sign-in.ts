// Password sign-in with brute-force protection (domain/limits/attempts.ts): attempts are counted per
// account and per client address before the password is checked, so every process, and every
// concurrent request, sees the same counts. Past a few failures each further attempt must wait
// longer (slowdown); past more, the key is locked.
import type { Deps } from '../../context.js';
import { recordEvent } from '../events.js';
import { attemptSucceeded, type Keys, type Policy, reserveAttempt } from '../limits/attempts.js';
import { findUserByUsername, type User, verifyUserPassword } from './users.js';

export const ACCOUNT_POLICY: Policy = { slowAfter: 3, lockAt: 10 };
export const IP_POLICY: Policy = { slowAfter: 10, lockAt: 30 };

export type SignInResult =
  | { ok: true; user: User }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'slow'; retryAfterSeconds: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

// A fixed hash to verify against when the username is unknown, so timing does not reveal it.
let dummyHash: Promise<string> | undefined;

/**
 * The throttle key of an account: its id, so no other account (and no other spelling of its name)
 * can clear or share its count. A name that resolves to nobody is counted under the name.
 */
export function accountKey(user: Pick<User, 'id'> | undefined, username: string): string {
  return user ? `user:${user.id}` : `name:${username.toLowerCase()}`;
}

/** Checks a username and password, applying the slowdown and lockout, and records the event. */
export async function signIn(
  deps: Deps,
  username: string,
  password: string,
  ip: string | null,
): Promise<SignInResult> {
  const user = await findUserByUsername(deps, username);
  const keys: Keys = [[accountKey(user, username), ACCOUNT_POLICY]];
  if (ip) keys.push([`ip:${ip}`, IP_POLICY]);
  const refused = await reserveAttempt(deps, keys);
  if (refused) return { ok: false, ...refused };
  dummyHash ??= deps.passwords.hash('not the password of anyone');
  const ok = user
    ? await verifyUserPassword(deps, user, password)
    : (await deps.passwords.verify(password, await dummyHash)) && false;
  if (ok && user && user.status === 'active') {
    await attemptSucceeded(deps, [keys[0][0]], keys.slice(1));
    return { ok: true, user };
  }
  const [eventId] = await deps.ids.take(1);
  await recordEvent(deps, deps.db.kysely, eventId, {
    type: 'authentication_failed',
    ownerId: user?.id ?? null,
    actorId: null,
    resourceType: 'user',
    resourceId: user?.id ?? null,
    ip,
    data: { username },
  });
  return { ok: false, reason: 'invalid' };
}
