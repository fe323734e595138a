// Every migration, in order. Each area adds its own file and one line here; names sort by prefix.
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.js';
import * as m0004 from './0004_teams.js';
import * as m0005 from './0005_surveys.js';
import * as m0006 from './0006_collect.js';

export const migrations: Record<string, Migration> = {
  '0001_platform': m0001,
  '0004_teams': m0004,
  '0005_surveys': m0005,
  '0006_collect': m0006,
};
