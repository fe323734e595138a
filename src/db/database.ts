// Opens the one database the service uses: SQLite (better-sqlite3, WAL) by default, or PostgreSQL.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  type KyselyPlugin,
  LimitNode,
  type LogEvent,
  PostgresDialect,
  SelectQueryNode,
  SqliteDialect,
  SqliteDriver,
  ValueNode,
} from 'kysely';
import type pg from 'pg';
import { type CommitHook, HookedDriver } from './commit-hook.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** Each driver is loaded only by a process that opens its kind of database: a command's start-up
 * on SQLite no longer loads PostgreSQL's client, and the reverse (a tenth of a second each). */
const load = createRequire(import.meta.url);
const sqliteDriver = (): typeof SqliteDatabase => load('better-sqlite3');
const pgDriver = (): typeof pg => load('pg');

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** The raw SQLite handle (hot paths prepare statements on it); undefined on PostgreSQL. */
  sqlite?: SqliteDatabase.Database;
  /** SQLite: true when no query or transaction holds the one connection, so a statement run
   * synchronously on `sqlite` cannot land inside someone else's transaction. */
  sqliteIdle?: () => boolean;
  /** The PostgreSQL pool (hot paths run named prepared statements on it); undefined on SQLite. */
  pg?: pg.Pool;
  /** Connections: total, idle, and queries waiting for one (SQLite: its one connection). */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function dialectOf(url: string): Dialect {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

export interface OpenOptions {
  /** How long SQLite waits for another process's write lock before giving up (SQLITE_BUSY). */
  busyTimeoutMs?: number;
  /** Called with each query builder query's duration in seconds (metrics); unset, nothing is timed. */
  onQuery?: (seconds: number) => void;
  /** PostgreSQL connections per process (default: defaultPoolSize()). */
  poolSize?: number;
  /** Adds a row to the commit of each write (the audit log): see db/commit-hook.ts. */
  commitHook?: CommitHook;
}

/**
 * Connections per process on PostgreSQL: a few per core. The hot writes are group-committed (a
 * handful of statements in flight carry every concurrent request) and each query holds its
 * connection for one round trip, so more connections only add backends competing for the same
 * cores; a long query (an export page, a rollup) still leaves others free.
 */
export function defaultPoolSize(): number {
  return Math.min(10, Math.max(4, 2 * availableParallelism()));
}

function queryLog(onQuery: OpenOptions['onQuery']) {
  if (!onQuery) return undefined;
  return (event: LogEvent) => {
    if (event.level === 'query') onQuery(event.queryDurationMillis / 1000);
  };
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (dialectOf(url) === 'sqlite') {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new (sqliteDriver())(file);
    // WAL + synchronous=NORMAL: a commit is in the OS before the call returns, so a killed
    // process loses nothing it acknowledged; busy_timeout lets several processes share the file.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const driver = new FifoSqliteDriver({ database: withStatementCache(sqlite) });
    const kysely = new Kysely<Database>({
      dialect: new FifoSqliteDialect(driver, options.commitHook),
      log: queryLog(options.onQuery),
      plugins: [new InlineLimit()],
    });
    return {
      kysely,
      dialect: 'sqlite',
      sqlite,
      sqliteIdle: () => driver.idle,
      poolStats: () => ({ total: 1, idle: driver.idle ? 1 : 0, waiting: driver.waitingCount }),
      close: () => kysely.destroy(),
    };
  }
  // pg returns BIGINT/NUMERIC as strings by default; our counters fit in a JS number.
  const { types, Pool } = pgDriver();
  types.setTypeParser(20, (v) => Number(v));
  const pool = new Pool({
    connectionString: url,
    max: options.poolSize ?? defaultPoolSize(),
    connectionTimeoutMillis: 5000,
  });
  // A client losing its server (PostgreSQL stopped or restarted) must not crash the process: the
  // pool handles idle clients ('error'); a client checked out between two queries (inside a
  // transaction) emits on itself. Its next query fails (503/1051) and the pool drops it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<Database>({
    dialect: new HookedPostgresDialect({ pool }, options.commitHook),
    log: queryLog(options.onQuery),
  });
  return {
    kysely,
    dialect: 'postgres',
    pg: pool,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => kysely.destroy(),
  };
}

/**
 * Kysely's SQLite driver guards its one connection with a mutex that wakes every waiter on each
 * release; with 50 requests in flight that costs more than the queries. This driver takes the
 * connection once and hands it to waiters one at a time, first come first served.
 */
class FifoSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | undefined;
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  get idle(): boolean {
    return !this.busy;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  override async init(): Promise<void> {
    await super.init();
    this.connection = await super.acquireConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    return this.connection!;
  }

  override async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  override async destroy(): Promise<void> {
    await super.releaseConnection();
    await super.destroy();
  }
}

class FifoSqliteDialect extends SqliteDialect {
  constructor(
    private readonly driver: FifoSqliteDriver,
    private readonly hook: CommitHook | undefined,
  ) {
    super({ database: () => Promise.reject(new Error('the driver opens the database')) });
  }
  override createDriver(): Driver {
    return this.hook ? new HookedDriver(this.driver, this.hook) : this.driver;
  }
}

/**
 * A query's LIMIT written into its SQL rather than bound. SQLite's planner reads a bound LIMIT's
 * value, so binding it expires the statement and every run prepares it again (ENABLE_STAT4, which
 * better-sqlite3 builds with): a `LIMIT ?` lookup costs 30 µs where `LIMIT 1` costs 6. Constant
 * limits are a handful of texts; a page size is at most a few hundred, within the statement cache.
 * Only the outer query's limit: the tree is not walked (a transformer would copy every node of
 * every query).
 */
class InlineLimit implements KyselyPlugin {
  transformQuery: KyselyPlugin['transformQuery'] = ({ node }) => {
    if (!SelectQueryNode.is(node) || !node.limit) return node;
    const limit = node.limit.limit;
    if (!ValueNode.is(limit) || limit.immediate || !Number.isSafeInteger(limit.value)) return node;
    return { ...node, limit: LimitNode.create(ValueNode.createImmediate(limit.value)) };
  };
  transformResult: KyselyPlugin['transformResult'] = async (args) => args.result;
}

class HookedPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly hook: CommitHook | undefined,
  ) {
    super(config);
  }
  override createDriver(): Driver {
    const driver = super.createDriver();
    return this.hook ? new HookedDriver(driver, this.hook) : driver;
  }
}

/**
 * Kysely prepares every query anew; preparing costs more than running a simple statement. Reuse
 * prepared statements by SQL text (bounded: dynamic IN-lists make many distinct texts). Kysely
 * runs one query at a time on the connection, so a cached statement is never used twice at once.
 */
function withStatementCache(db: SqliteDatabase.Database, max = 500) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = db.prepare(sql);
        if (cache.size >= max) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/** True when an error means the database cannot be reached (answered as 503/1051). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03'].includes(
      code,
    )
  )
    return true;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
  const msg = 'message' in err && typeof err.message === 'string' ? err.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down)|not currently accepting connections|terminating connection/i.test(
    msg,
  );
}
