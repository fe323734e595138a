// Brute-force protection for anything checked against a password (sign-in, collector passwords).
// Attempts are counted per key (an account, a client address, a collector) in `sign_in_failures`,
// and every attempt is counted BEFORE its password is checked (reserve, then verify): the
// decision and the count happen in one transaction with the key rows locked, so N concurrent
// attempts never check more passwords than N sequential ones would. A successful check clears
// the keys it proves (the account) and takes its own attempt back from the others.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';

export interface Policy {
  /** attempts allowed before the slowdown starts */
  slowAfter: number;
  /** attempts that lock the key (0: never locks, only slows down) */
  lockAt: number;
  /** how long a lock lasts (default LOCK_MS) */
  lockMs?: number;
}

/** Attempts are counted over this window from the first one. */
export const WINDOW_MS = 60 * 60_000;
/** How long a lock lasts. */
export const LOCK_MS = 15 * 60_000;

/** Seconds to wait after the n-th failure: 0 up to slowAfter, then 2, 4, 8 ... capped at 60. */
export function delaySeconds(policy: Policy, failures: number): number {
  if (failures < policy.slowAfter) return 0;
  return Math.min(60, 2 ** (failures - policy.slowAfter + 1));
}

export interface Refusal {
  reason: 'slow' | 'locked';
  retryAfterSeconds: number;
}

export type Keys = Array<[key: string, policy: Policy]>;

/**
 * Counts one attempt against every key, or none when a key is locked or must still wait (then
 * the refusal says for how long). Call it before checking the password. With `heldUntil` (epoch
 * ms), a key that has failed within its window is also refused until then.
 */
export async function reserveAttempt(deps: Deps, keys: Keys, heldUntil?: number): Promise<Refusal | null> {
  // One order for every caller, so two transactions never wait on each other's rows.
  const sorted = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const iso = now.toISOString();
    // The rows must exist to be locked (PostgreSQL); SQLite runs one transaction at a time.
    await trx
      .insertInto('sign_in_failures')
      .values(
        sorted.map(([key]) => ({
          key,
          failures: 0,
          first_failure_at: iso,
          last_failure_at: iso,
          locked_until: null,
        })),
      )
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    let query = trx
      .selectFrom('sign_in_failures')
      .selectAll()
      .where(
        'key',
        'in',
        sorted.map(([k]) => k),
      )
      .orderBy('key');
    if (deps.db.dialect === 'postgres') query = query.forUpdate();
    const rows = await query.execute();

    let refusal = null as Refusal | null;
    const refuse = (reason: Refusal['reason'], ms: number) => {
      const s = Math.max(1, Math.ceil(ms / 1000));
      if (reason === 'locked' && refusal?.reason !== 'locked') refusal = null;
      if (reason === 'slow' && refusal?.reason === 'locked') return;
      if (!refusal || s > refusal.retryAfterSeconds) refusal = { reason, retryAfterSeconds: s };
    };
    const fresh = (row: (typeof rows)[number]) =>
      row.failures === 0 || Date.parse(row.first_failure_at) + WINDOW_MS <= now.getTime();
    const updates = [];
    for (const row of rows) {
      const policy = sorted.find(([k]) => k === row.key)![1];
      // Held: a key that has failed in its window waits for the hold to end.
      if (heldUntil !== undefined && !fresh(row) && heldUntil > now.getTime())
        refuse('slow', heldUntil - now.getTime());
      if (row.locked_until && row.locked_until > iso) {
        refuse('locked', Date.parse(row.locked_until) - now.getTime());
        continue;
      }
      const isFresh = fresh(row);
      if (!isFresh) {
        const until = Date.parse(row.last_failure_at) + delaySeconds(policy, row.failures) * 1000;
        if (until > now.getTime()) refuse('slow', until - now.getTime());
      }
      const failures = isFresh ? 1 : row.failures + 1;
      updates.push({
        key: row.key,
        failures,
        first_failure_at: isFresh ? iso : row.first_failure_at,
        last_failure_at: iso,
        locked_until:
          policy.lockAt > 0 && failures >= policy.lockAt
            ? new Date(now.getTime() + (policy.lockMs ?? LOCK_MS)).toISOString()
            : null,
      });
    }
    if (refusal) return refusal;
    for (const { key, ...set } of updates)
      await trx.updateTable('sign_in_failures').set(set).where('key', '=', key).execute();
    return null;
  });
}

/**
 * After a password was right: the `cleared` keys forget their attempts (the account is proven);
 * the `undone` keys only take back the attempt reserved for it (and any lock it set).
 */
export async function attemptSucceeded(deps: Deps, cleared: string[], undone: Keys): Promise<void> {
  const k = deps.db.kysely;
  if (cleared.length) await k.deleteFrom('sign_in_failures').where('key', 'in', cleared).execute();
  for (const [key, policy] of undone)
    await k
      .updateTable('sign_in_failures')
      .set((eb) => ({
        failures: eb('failures', '-', 1),
        locked_until:
          policy.lockAt > 0
            ? eb.case().when('failures', '>', policy.lockAt).then(eb.ref('locked_until')).else(null).end()
            : null,
      }))
      .where('key', '=', key)
      .where('failures', '>', 0)
      .execute();
}

/** How long a throttled person must wait, in words. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export type PasswordCheck = { ok: true } | { ok: false; reason: 'wrong' } | ({ ok: false } & Refusal);

/** Failed guesses on one link, from every address, within WINDOW_MS of the first, after which the
 * addresses that have failed there wait for that window to end. */
export const LINK_FAILURES_CAP = 50;
const LINK_POLICY: Policy = { slowAfter: 0, lockAt: 0 };

/**
 * A password that guards one resource (a collector, a shared results page): each guess is counted
 * before the password is checked under the guessing address's key (`addressKey`, slowed then locked
 * by `policy`, exact under concurrency), and, once admitted, under the resource's `linkKey` (one
 * atomic upsert, so a flood on one link never queues its guessers on one locked row). Past
 * LINK_FAILURES_CAP in the link's window, an address that has failed in its own window waits for
 * the link's window to end; an address that has not failed keeps its tries. So guesses spread over
 * many addresses are bounded by the cap plus a few per address, while a respondent who knows the
 * password is never held by anyone else's guesses. A right password takes its counts back.
 */
export async function checkGuardedPassword(
  deps: Deps,
  linkKey: string,
  addressKey: string,
  policy: Policy,
  password: string,
  hash: string,
): Promise<PasswordCheck> {
  const k = deps.db.kysely;
  const now = deps.clock.now();
  const iso = now.toISOString();
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  const link = await k
    .selectFrom('sign_in_failures')
    .select(['failures', 'first_failure_at'])
    .where('key', '=', linkKey)
    .executeTakeFirst();
  const held =
    link && link.first_failure_at > windowStart && link.failures >= LINK_FAILURES_CAP
      ? Date.parse(link.first_failure_at) + WINDOW_MS
      : undefined;
  const keys: Keys = [[addressKey, policy]];
  const refused = await reserveAttempt(deps, keys, held);
  if (refused) return { ok: false, ...refused };
  const restart = sql<boolean>`sign_in_failures.first_failure_at <= ${windowStart}`;
  await k
    .insertInto('sign_in_failures')
    .values({ key: linkKey, failures: 1, first_failure_at: iso, last_failure_at: iso, locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`CASE WHEN ${restart} THEN 1 ELSE sign_in_failures.failures + 1 END`,
        first_failure_at: sql`CASE WHEN ${restart} THEN excluded.first_failure_at ELSE sign_in_failures.first_failure_at END`,
        last_failure_at: sql`excluded.last_failure_at`,
      }),
    )
    .execute();
  if (!(await deps.passwords.verify(password, hash))) return { ok: false, reason: 'wrong' };
  await attemptSucceeded(deps, [], [...keys, [linkKey, LINK_POLICY]]);
  return { ok: true };
}
