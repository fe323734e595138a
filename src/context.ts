// Deps: the services every part of the server shares, by name. Type-only: compose.ts builds them
// (once per process, or per test), and every layer above receives them as its first argument.
import type { Logger } from 'pino';
import type { Caches, Runners } from './caches.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { IdAllocator } from './db/ids.js';
import type { ResponseStore } from './db/stores/responses.js';
import type { AuditContext } from './domain/audit/context.js';
import type { HeavyRequests } from './domain/limits/heavy-requests.js';
import type { Clock } from './platform/clock.js';
import type { Passwords } from './platform/passwords.js';
import type { ServerSecrets } from './platform/secrets.js';
import type { Metrics } from './telemetry/metrics.js';

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  ids: IdAllocator;
  secrets: ServerSecrets;
  /** Password hashing and checking, a bounded number at once (PASSWORD_HASH_CONCURRENCY): each
   * scrypt run holds 128 MiB at the default cost. */
  passwords: Passwords;
  /** Prometheus metrics of this process (recorded always; per-request ones only with METRICS_PORT). */
  metrics: Metrics;
  /** The process's JSON logger (pino); the HTTP server logs through it too. */
  log: Logger;
  /** Every cache this process keeps for this database (src/caches.ts). */
  caches: Caches;
  /** The work this process does besides answering: background runners, chores' schedules
   * (src/caches.ts). */
  runners: Runners;
  /** Heavy results requests running per account in this process (HEAVY_REQUESTS_PER_ACCOUNT). */
  heavyRequests: HeavyRequests;
  /** Where hot tables are written, one implementation per database engine (src/db/stores/). */
  stores: { responses: ResponseStore };
  /** The audit scope of the current request or CLI verb (an AsyncLocalStorage): the database
   * driver adds its row to the first commit that writes (domain/audit). */
  audit: AuditContext;
}
