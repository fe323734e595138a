// Password sign-in with brute-force protection (domain/limits/attempts.ts): attempts are counted per
// account and per client address before the password is checked, so every process, and every
// concurrent request, sees the same counts. Past a few failures each further attempt must wait
// longer (slowdown); past more, the key is locked. A browser that has signed in to the account
// before (a device token, devices.ts) is counted on its own instead, so the account's lock holds
// against guessers without holding its owner; a device token that fails as often is refused.
import type { Deps } from '../../context.js';
import { addressKey } from '../../platform/addresses.js';
import { recordSignIn } from '../audit/log.js';
import { recordEvent } from '../core/events.js';
import { attemptSucceeded, type Keys, type Policy, reserveAttempt } from '../limits/attempts.js';
import { DEVICE_MS, deviceKey, issueDevice, knownDevice } from './devices.js';
import { findUserByUsername, isOperator, type User, verifyUserPassword } from './users.js';

export const ACCOUNT_POLICY: Policy = { slowAfter: 3, lockAt: 10 };
export const IP_POLICY: Policy = { slowAfter: 10, lockAt: 30 };
/** A known device: slowed like the account, and refused for good (its token's life) at the lock. */
export const DEVICE_POLICY: Policy = { slowAfter: 3, lockAt: 10, lockMs: DEVICE_MS };

/** What a password sign-in refused under SSO_REQUIRED is told. */
export const SSO_REQUIRED_TEXT =
  'Password sign-in is turned off on this service: sign in with single sign-on.';

export type SignInResult =
  | { ok: true; user: User /** the browser's device cookie from now on */; device: string }
  | { ok: false; reason: 'invalid' }
  /** SSO_REQUIRED: this account signs in through single sign-on only (operators excepted). */
  | { ok: false; reason: 'sso_required' }
  | { ok: false; reason: 'slow'; retryAfterSeconds: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/**
 * The throttle key of an account: its id, so no other account (and no other spelling of its name)
 * can clear or share its count. A name that resolves to nobody is counted under the name.
 */
export function accountKey(user: Pick<User, 'id'> | undefined, username: string): string {
  return user ? `user:${user.id}` : `name:${username.toLowerCase()}`;
}

/**
 * Checks a username and password, applying the slowdown and lockout, and records the event.
 * `devices` is the browser's device cookie, if any: a valid token of this account there is
 * throttled on its own count rather than the account's and the address's.
 */
export async function signIn(
  deps: Deps,
  username: string,
  password: string,
  ip: string | null,
  devices?: string,
): Promise<SignInResult> {
  const user = await findUserByUsername(deps, username);
  // Under SSO_REQUIRED only operators (the break-glass path) have a password to try: anyone else's
  // is not even checked, so it can be neither used nor guessed here.
  if (deps.config.sso.required && !(user && (await isOperator(deps, user.id))))
    return { ok: false, reason: 'sso_required' };
  const device = user ? knownDevice(deps, devices, user.id) : null;
  let keys: Keys | null = null;
  if (device) {
    keys = [[deviceKey(device), DEVICE_POLICY]];
    const refused = await reserveAttempt(deps, keys);
    // A locked device token is refused: the browser signs in as an unknown device.
    if (refused?.reason === 'locked') keys = null;
    else if (refused) return { ok: false, ...refused };
  }
  if (!keys) {
    keys = [[accountKey(user, username), ACCOUNT_POLICY]];
    if (ip) keys.push([`ip:${addressKey(ip)}`, IP_POLICY]);
    const refused = await reserveAttempt(deps, keys);
    if (refused) return { ok: false, ...refused };
  }
  // A fixed hash to verify against when the username is unknown, so timing does not reveal it.
  const dummyHash = deps.caches.dummyHash.get(() => deps.passwords.hash('not the password of anyone'));
  const ok = user
    ? await verifyUserPassword(deps, user, password)
    : (await deps.passwords.verify(password, await dummyHash)) && false;
  if (ok && user && user.status === 'active') {
    await attemptSucceeded(deps, [keys[0][0]], keys.slice(1));
    return { ok: true, user, device: issueDevice(deps, devices, user.id) };
  }
  const [eventId] = await deps.ids.take(1);
  await deps.audit.apart(() =>
    deps.db.kysely.transaction().execute(async (trx) => {
      await recordEvent(deps, trx, eventId, {
        type: 'authentication_failed',
        ownerId: user?.id ?? null,
        actorId: null,
        resourceType: 'user',
        resourceId: user?.id ?? null,
        ip,
        data: { username },
      });
      // Only a name that is an account's is kept: a password typed into the name field is not.
      await recordSignIn(deps, trx, {
        user: user ? { id: user.id, username: user.username } : null,
        via: 'session',
        ip,
        outcome: 'failed',
      });
    }),
  );
  return { ok: false, reason: 'invalid' };
}
