// A collector's password, checked for the respondent page with the same brute-force protection as
// sign-in (domain/limits/attempts.ts): attempts are counted per collector and client address (slowdown,
// then a lock) before the password is checked. Only the guessing client is throttled, never the
// collector: a flood of guesses from many addresses must not make a respondent elsewhere wait.
import type { Deps } from '../../context.js';
import { verifyPassword } from '../../platform/secrets.js';
import {
  attemptSucceeded,
  type Keys,
  type Policy,
  type Refusal,
  reserveAttempt,
} from '../limits/attempts.js';
import type { Collector } from './collectors.js';

export const COLLECTOR_ADDRESS_POLICY: Policy = { slowAfter: 5, lockAt: 20 };

export type PasswordResult = { ok: true } | { ok: false; reason: 'wrong' } | ({ ok: false } & Refusal);

export async function checkCollectorPassword(
  deps: Deps,
  collector: Pick<Collector, 'id' | 'password_hash'>,
  password: string,
  ip: string,
): Promise<PasswordResult> {
  if (!collector.password_hash) return { ok: true };
  const keys: Keys = [[`collector:${collector.id}:ip:${ip}`, COLLECTOR_ADDRESS_POLICY]];
  const refused = await reserveAttempt(deps, keys);
  if (refused) return { ok: false, ...refused };
  if (!(await verifyPassword(password, collector.password_hash))) return { ok: false, reason: 'wrong' };
  await attemptSucceeded(deps, [], keys);
  return { ok: true };
}
