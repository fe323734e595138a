// Every migration, in order. Each area adds its own file and one line here; names sort by prefix.
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.js';

export const migrations: Record<string, Migration> = {
  '0001_platform': m0001,
};
