// An account's preferences kept beside the account (table account_preferences, one row once one
// is changed): the time zone its pages show and take times in.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { isTimeZone } from '../../platform/time-zones.js';

export interface Preferences {
  time_zone: string;
}

const DEFAULTS: Preferences = { time_zone: 'UTC' };

export async function preferencesOf(deps: Deps, userId: string): Promise<Preferences> {
  const row = await deps.db.kysely
    .selectFrom('account_preferences')
    .select(['time_zone'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? DEFAULTS;
}

/** Sets the account's time zone (400/1002 for a name the runtime does not know). */
export async function setTimeZone(deps: Deps, userId: string, zone: string): Promise<void> {
  if (!isTimeZone(zone)) throw new ApiError(1002, `'${zone}' is not a known time zone, like Europe/Paris.`);
  await deps.db.kysely
    .insertInto('account_preferences')
    .values({ user_id: userId, time_zone: zone, alerts_opt_out: 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ time_zone: zone }))
    .execute();
}
