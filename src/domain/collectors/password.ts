// A collector's password, checked for the respondent page with the same brute-force protection as
// sign-in (domain/limits/attempts.ts): attempts are counted per collector and client address (slowdown,
// then a lock) before the password is checked. Only the guessing client is throttled, never the
// collector: a flood of guesses from many addresses must not make a respondent elsewhere wait.
import type { Deps } from '../../context.js';
import { checkGuardedPassword, type PasswordCheck, type Policy } from '../limits/attempts.js';
import type { Collector } from './collectors.js';

export const COLLECTOR_ADDRESS_POLICY: Policy = { slowAfter: 5, lockAt: 20 };

export async function checkCollectorPassword(
  deps: Deps,
  collector: Pick<Collector, 'id' | 'password_hash'>,
  password: string,
  ip: string,
): Promise<PasswordCheck> {
  if (!collector.password_hash) return { ok: true };
  return checkGuardedPassword(
    deps,
    `collector:${collector.id}:ip:${ip}`,
    COLLECTOR_ADDRESS_POLICY,
    password,
    collector.password_hash,
  );
}
