// Prepared queries for hot paths. A Kysely query is built and compiled once, with placeholder
// arguments; each call only binds values. This skips Kysely's per-call query building and
// compiling, the larger part of a simple query's cost. A prepared statement is a cache: it is kept
// in a registry entry (`deps.caches.<name>.get(() => prepareQuery(…))`, src/caches.ts), never in
// a module-level binding or a closure of its own.
//
// On SQLite, a call runs the statement synchronously on the raw handle when no query or
// transaction holds the connection (one connection: nothing can interleave a synchronous call),
// without the executor's promise hand-offs. When the connection is held (a transaction is open),
// the call waits for it through Kysely and then runs the same statement, so rows come back alike.
import { createHash } from 'node:crypto';
import type SqliteDatabase from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type pg from 'pg';
import type { Db } from './database.js';

const MARK = '\u0000arg:';

/** With `{ grouped: true }` (a write): on SQLite the calls of one event-loop turn run in one write
 * transaction, each answered with its own rows after the shared COMMIT. Every write transaction
 * costs SQLite a lock and a WAL write of its own (70 µs here, where the statement is 15): a counter
 * every request bumps pays it once per turn. On PostgreSQL each call is its own statement. */
export function prepareQuery<Row, Args extends unknown[]>(
  db: Db,
  arity: Args['length'],
  build: (...args: string[]) => Compilable<Row>,
  options?: { grouped?: boolean },
): (...args: Args) => Promise<Row[]>;
/** With `{ arrays: true }`: each row as an array of its values in the select's order (no object per
 * row: on SQLite a third cheaper to read for wide pages). */
export function prepareQuery<Row, Args extends unknown[]>(
  db: Db,
  arity: Args['length'],
  build: (...args: string[]) => Compilable<Row>,
  options: { arrays: true },
): (...args: Args) => Promise<unknown[][]>;
export function prepareQuery<Row, Args extends unknown[]>(
  db: Db,
  arity: Args['length'],
  build: (...args: string[]) => Compilable<Row>,
  options: { arrays?: boolean; grouped?: boolean } = {},
): (...args: Args) => Promise<Row[] | unknown[][]> {
  const arrays = options.arrays === true;
  const compiled = build(...Array.from({ length: arity }, (_, i) => `${MARK}${i}`)).compile();
  // For each bound parameter: the index of the call argument it takes, or a constant.
  const binds = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARK) ? { arg: Number(p.slice(MARK.length)) } : { value: p },
  );
  const bind = (args: unknown[]) => binds.map((b) => ('arg' in b ? args[b.arg as number] : b.value));
  if (db.pg) {
    const pool = db.pg;
    const name = statementName(compiled.sql);
    return async (...args) =>
      (
        await queryNamed<Row & object>(pool, {
          name,
          text: compiled.sql,
          values: bind(args),
          ...(arrays ? { rowMode: 'array' as const } : {}),
        })
      ).rows;
  }
  const sqlite = db.sqlite!;
  const sqliteIdle = db.sqliteIdle!;
  // Prepared on first use: the tables may not exist yet when the query is declared.
  let statement: SqliteDatabase.Statement | undefined;
  const run = (params: unknown[]): Row[] | unknown[][] => {
    if (!statement) {
      statement = sqlite.prepare(compiled.sql);
      if (arrays && statement.reader) statement.raw(true);
    }
    if (statement.reader) return statement.all(params) as Row[] | unknown[][];
    statement.run(params);
    return [];
  };
  if (options.grouped) return grouped(db, (args) => run(bind(args)));
  return async (...args) => {
    const params = bind(args);
    // A held connection: wait for it through Kysely, then run the same statement (the same rows,
    // as arrays or objects, either way).
    return sqliteIdle() ? run(params) : db.kysely.connection().execute(async () => run(params));
  };
}

/** SQLite: `run` for each call of one turn, in one write transaction on the connection. */
function grouped<Rows>(db: Db, run: (args: unknown[]) => Rows): (...args: unknown[]) => Promise<Rows> {
  const sqlite = db.sqlite!;
  const queue: Array<{ args: unknown[]; resolve: (rows: Rows) => void; reject: (err: unknown) => void }> = [];
  let statements: Record<'begin' | 'commit' | 'rollback', SqliteDatabase.Statement> | undefined;
  const flush = async () => {
    statements ??= {
      begin: sqlite.prepare('BEGIN IMMEDIATE'),
      commit: sqlite.prepare('COMMIT'),
      rollback: sqlite.prepare('ROLLBACK'),
    };
    const s = statements;
    const settled: Array<() => void> = [];
    try {
      await db.kysely.connection().execute(async () => {
        // calls that arrived while waiting for the connection join this transaction
        const jobs = queue.splice(0, queue.length);
        if (jobs.length === 0) return;
        s.begin.run();
        try {
          const answers = jobs.map((j) => run(j.args));
          s.commit.run();
          for (const [i, j] of jobs.entries()) settled.push(() => j.resolve(answers[i]));
        } catch (err) {
          if (sqlite.inTransaction) s.rollback.run();
          for (const j of jobs) settled.push(() => j.reject(err));
        }
      });
    } catch (err) {
      for (const j of queue.splice(0, queue.length)) settled.push(() => j.reject(err));
    }
    for (const settle of settled) settle();
  };
  return (...args) =>
    new Promise<Rows>((resolve, reject) => {
      queue.push({ args, resolve, reject });
      if (queue.length === 1) setImmediate(() => void flush());
    });
}

/** The name of a statement text on PostgreSQL: a name must always stand for the same text on a
 * connection, so it is derived from the text (no table of names to keep). */
export function statementName(text: string): string {
  return `p${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
}

/** PostgreSQL's answer to a prepared statement whose tables changed shape since it was prepared on
 * this connection ("cached plan must not change result type"): a migration added a column to a
 * table it reads with `*`, while this process kept running. */
export function isStalePlan(err: unknown): boolean {
  return (
    (err as { code?: string } | null)?.code === '0A000' && /cached plan/.test(String((err as Error).message))
  );
}

/**
 * Runs a named (prepared) statement on one of the pool's connections. When its plan went stale
 * (isStalePlan), the statement is deallocated on that connection, forgotten by the driver, and run
 * once more, prepared anew: a rolling upgrade's migration changes no answer of a running process.
 * Each connection heals itself the first time it meets the change. Outside a transaction only (a
 * failed statement aborts the transaction it is in).
 */
export async function queryNamed<R extends object>(
  pool: pg.Pool,
  query: pg.QueryConfig & { name: string; rowMode?: 'array' },
): Promise<pg.QueryResult<R>> {
  const client = await pool.connect();
  try {
    let result: pg.QueryResult<R>;
    try {
      result = await client.query<R>(query as pg.QueryConfig);
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      await client.query(`DEALLOCATE "${query.name}"`);
      // the driver remembers which names it prepared on the connection and would not prepare it again
      delete (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
        .parsedStatements[query.name];
      result = await client.query<R>(query as pg.QueryConfig);
    }
    client.release();
    return result;
  } catch (err) {
    // as pool.query does: a connection that failed a statement is not trusted again
    client.release(err as Error);
    throw err;
  }
}
