// The services every part of the server shares, built once per process (or per test).

import type { Logger } from 'pino';
import { type Caches, createCaches } from './caches.js';
import type { Config } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { IdAllocator } from './db/ids.js';
import { migrateToLatest } from './db/migrate.js';
import type { ResponseStore } from './db/stores/responses.js';
import { PgResponseStore } from './db/stores/responses-pg.js';
import { SqliteResponseStore } from './db/stores/responses-sqlite.js';
import { outboxBacklog } from './ops/health.js';
import { createLogger } from './ops/logger.js';
import { Metrics } from './ops/metrics.js';
import { type Clock, systemClock } from './platform/clock.js';
import { loadServerSecrets, type ServerSecrets } from './platform/secrets.js';

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  ids: IdAllocator;
  secrets: ServerSecrets;
  /** Prometheus metrics of this process (recorded always; per-request ones only with METRICS_PORT). */
  metrics: Metrics;
  /** The process's JSON logger (pino); the HTTP server logs through it too. */
  log: Logger;
  /** Every cache this process keeps for this database (src/caches.ts). */
  caches: Caches;
  /** Where hot tables are written, one implementation per database engine (src/db/stores/). */
  stores: { responses: ResponseStore };
}

export interface DepsOptions {
  clock?: Clock;
  /** Apply pending migrations first (serve does; the CLI's provisioning verbs do too). */
  migrate?: boolean;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  let metrics: Metrics | undefined;
  const db = openDatabase(config.databaseUrl, {
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    onQuery: config.metrics.port === undefined ? undefined : (s) => metrics?.queryLatency.observe(s),
  });
  try {
    if (options.migrate !== false) await migrateToLatest(db);
    const secrets = await loadServerSecrets(db, config.secretKey);
    const clock = options.clock ?? systemClock;
    const now = () => clock.now().toISOString();
    const deps: Deps = {
      config,
      db,
      clock,
      ids: new IdAllocator(db),
      secrets,
      metrics: undefined!,
      log: createLogger(config),
      caches: createCaches(),
      stores: {
        responses: db.sqlite ? new SqliteResponseStore(db, now) : new PgResponseStore(db, now),
      },
    };
    metrics = deps.metrics = new Metrics(db, () => outboxBacklog(deps));
    return deps;
  } catch (err) {
    await db.close();
    throw err;
  }
}
