// The composition root: the one place that builds the process's services into Deps.
import { type CompiledSchemas, createCaches, createRunners } from './caches.js';
import type { Config } from './config.js';
import type { Deps } from './context.js';
import { describeClash, fillAccountKeys } from './db/account-keys.js';
import { openDatabase } from './db/database.js';
import { IdAllocator } from './db/ids.js';
import { migrateToLatest, refuseNewerDatabase } from './db/migrate.js';
import { storedServerKey } from './db/settings.js';
import { PgResponseStore } from './db/stores/responses-pg.js';
import { SqliteResponseStore } from './db/stores/responses-sqlite.js';
import { AuditContext, auditCommitHook } from './domain/audit/context.js';
import { HeavyRequests } from './domain/limits/heavy-requests.js';
import { outboxBacklog } from './outbox/backlog.js';
import { workerHeartbeats } from './outbox/heartbeat.js';
import { type Clock, systemClock } from './platform/clock.js';
import { Passwords } from './platform/passwords.js';
import { randomToken, ServerSecrets } from './platform/secrets.js';
import { VERSION } from './platform/version.js';
import { createLogger } from './telemetry/logger.js';
import { Metrics } from './telemetry/metrics.js';

export interface DepsOptions {
  clock?: Clock;
  /** Apply pending migrations first (serve does; the CLI's provisioning verbs do too). */
  migrate?: boolean;
  /** Route schemas already compiled by another Deps of this process (tests build many apps). */
  compiledSchemas?: CompiledSchemas;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  let metrics: Metrics | undefined;
  const audit = new AuditContext();
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.databaseUrl, {
    // The audit log's row in the commit of every change (domain/audit); AUDIT_LOG=false: none.
    commitHook: config.auditLog
      ? auditCommitHook(
          audit,
          () => db,
          () => clock,
        )
      : undefined,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    poolSize: config.databasePoolMax,
    onQuery: config.metrics.port === undefined ? undefined : (s) => metrics?.queryLatency.observe(s),
  });
  try {
    // A database a newer release migrated is refused before anything reads or writes it.
    if (options.migrate !== false) await migrateToLatest(db, VERSION);
    else await refuseNewerDatabase(db, VERSION);
    // The server key: SECRET_KEY if configured, else one generated on first start and kept.
    const secrets = new ServerSecrets(config.secretKey || (await storedServerKey(db, randomToken(32))));
    const now = () => clock.now().toISOString();
    const deps: Deps = {
      config,
      db,
      clock,
      ids: new IdAllocator(db),
      secrets,
      passwords: new Passwords(config.passwordCost, config.passwordHashConcurrency),
      metrics: undefined!,
      log: createLogger(config),
      caches: createCaches(options.compiledSchemas),
      runners: createRunners(),
      heavyRequests: new HeavyRequests(config.heavyRequestsPerAccount),
      audit,
      stores: {
        responses: db.sqlite ? new SqliteResponseStore(db, now) : new PgResponseStore(db, now),
      },
    };
    // Built on first use: a command that counts nothing never loads prom-client.
    Object.defineProperty(deps, 'metrics', {
      get: () => {
        metrics ??= new Metrics(
          db,
          () => outboxBacklog(deps),
          () => workerHeartbeats(deps),
        );
        return metrics;
      },
      enumerable: true,
    });
    if (options.migrate !== false) {
      const clashes = await fillAccountKeys(db.kysely);
      if (clashes.length)
        deps.log.warn(
          { clashes: clashes.map(describeClash) },
          'accounts share a username or address in look-alike spellings: run survey-service migrate for the list',
        );
    }
    return deps;
  } catch (err) {
    await db.close();
    throw err;
  }
}
