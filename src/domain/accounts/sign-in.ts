// Password sign-in with brute-force protection. Failures are counted per account and per client
// address in the database (one upsert each), so every process sees the same counts. Past a few
// failures each further attempt must wait longer (slowdown); past more, the key is locked.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { hashPassword, verifyPassword } from '../../platform/secrets.js';
import { recordEvent } from '../events.js';
import { findUserByUsername, type User, verifyUserPassword } from './users.js';

interface Policy {
  /** failures allowed before the slowdown starts */
  slowAfter: number;
  /** failures that lock the key */
  lockAt: number;
}
export const ACCOUNT_POLICY: Policy = { slowAfter: 3, lockAt: 10 };
export const IP_POLICY: Policy = { slowAfter: 10, lockAt: 30 };
/** Failures are counted over this window from the first one. */
export const WINDOW_MS = 60 * 60_000;
/** How long a lock lasts. */
export const LOCK_MS = 15 * 60_000;

/** Seconds to wait after the n-th failure: 0 up to slowAfter, then 2, 4, 8 ... capped at 60. */
export function delaySeconds(policy: Policy, failures: number): number {
  if (failures < policy.slowAfter) return 0;
  return Math.min(60, 2 ** (failures - policy.slowAfter + 1));
}

export type SignInResult =
  | { ok: true; user: User }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'slow'; retryAfterSeconds: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

// A fixed hash to verify against when the username is unknown, so timing does not reveal it.
let dummyHash: Promise<string> | undefined;

function keysFor(username: string, ip: string | null): [string, Policy][] {
  const keys: [string, Policy][] = [[`user:${username.toLowerCase()}`, ACCOUNT_POLICY]];
  if (ip) keys.push([`ip:${ip}`, IP_POLICY]);
  return keys;
}

async function wait(deps: Deps, keys: [string, Policy][]): Promise<SignInResult | null> {
  const now = deps.clock.now();
  const rows = await deps.db.kysely
    .selectFrom('sign_in_failures')
    .selectAll()
    .where(
      'key',
      'in',
      keys.map(([k]) => k),
    )
    .execute();
  let worst: SignInResult | null = null;
  for (const row of rows) {
    const policy = keys.find(([k]) => k === row.key)![1];
    if (row.locked_until && row.locked_until > now.toISOString()) {
      const s = Math.ceil((Date.parse(row.locked_until) - now.getTime()) / 1000);
      return { ok: false, reason: 'locked', retryAfterSeconds: s };
    }
    if (Date.parse(row.first_failure_at) + WINDOW_MS <= now.getTime()) continue;
    const until = Date.parse(row.last_failure_at) + delaySeconds(policy, row.failures) * 1000;
    if (until > now.getTime()) {
      const s = Math.ceil((until - now.getTime()) / 1000);
      if (!worst || (worst.reason === 'slow' && s > worst.retryAfterSeconds))
        worst = { ok: false, reason: 'slow', retryAfterSeconds: s };
    }
  }
  return worst;
}

async function countFailure(deps: Deps, key: string, policy: Policy): Promise<void> {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const cutoff = new Date(now.getTime() - WINDOW_MS).toISOString();
  const row = await deps.db.kysely
    .insertInto('sign_in_failures')
    .values({ key, failures: 1, first_failure_at: iso, last_failure_at: iso, locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when sign_in_failures.first_failure_at <= ${cutoff} then 1 else sign_in_failures.failures + 1 end`,
        first_failure_at: sql<string>`case when sign_in_failures.first_failure_at <= ${cutoff} then ${iso} else sign_in_failures.first_failure_at end`,
        last_failure_at: iso,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  if (Number(row.failures) >= policy.lockAt)
    await deps.db.kysely
      .updateTable('sign_in_failures')
      .set({ locked_until: new Date(now.getTime() + LOCK_MS).toISOString() })
      .where('key', '=', key)
      .execute();
}

/** Checks a username and password, applying the slowdown and lockout, and records the event. */
export async function signIn(
  deps: Deps,
  username: string,
  password: string,
  ip: string | null,
): Promise<SignInResult> {
  const keys = keysFor(username, ip);
  const refused = await wait(deps, keys);
  if (refused) return refused;
  const user = await findUserByUsername(deps, username);
  dummyHash ??= hashPassword('not the password of anyone', deps.config.passwordCost);
  const ok = user
    ? await verifyUserPassword(deps, user, password)
    : (await verifyPassword(password, await dummyHash)) && false;
  if (ok && user && user.status === 'active') {
    await deps.db.kysely.deleteFrom('sign_in_failures').where('key', '=', keys[0][0]).execute();
    return { ok: true, user };
  }
  for (const [key, policy] of keys) await countFailure(deps, key, policy);
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
