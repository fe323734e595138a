// A collector's password, checked for the respondent page with the same brute-force protection as
// sign-in (domain/limits/attempts.ts): attempts are counted per collector and client address (slowdown,
// then a lock) before the password is checked, and per collector across addresses (past a cap, the
// addresses that have failed wait). Only guessing clients are held, never the collector: a flood of
// guesses from many addresses must not make a respondent who knows the password wait.
import type { Deps } from '../../context.js';
import { addressKey } from '../../platform/addresses.js';
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
    `collector:${collector.id}`,
    `collector:${collector.id}:ip:${addressKey(ip)}`,
    COLLECTOR_ADDRESS_POLICY,
    password,
    collector.password_hash,
  );
}
