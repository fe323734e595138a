// The services every part of the server shares, built once per process (or per test).
import type { Config } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { IdAllocator } from './db/ids.js';
import { migrateToLatest } from './db/migrate.js';
import { type Clock, systemClock } from './platform/clock.js';
import { loadServerSecrets, type ServerSecrets } from './platform/secrets.js';

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  ids: IdAllocator;
  secrets: ServerSecrets;
}

export interface DepsOptions {
  clock?: Clock;
  /** Apply pending migrations first (serve does; the CLI's provisioning verbs do too). */
  migrate?: boolean;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const db = openDatabase(config.databaseUrl, { busyTimeoutMs: config.sqliteBusyTimeoutMs });
  try {
    if (options.migrate !== false) await migrateToLatest(db);
    const secrets = await loadServerSecrets(db, config.secretKey);
    return { config, db, clock: options.clock ?? systemClock, ids: new IdAllocator(db), secrets };
  } catch (err) {
    await db.close();
    throw err;
  }
}
