// Prepared queries for hot paths. A Kysely query is built and compiled once, with placeholder
// arguments; each call only binds values. This skips Kysely's per-call query building and
// compiling, the larger part of a simple query's cost.
//
// On SQLite, a call runs the statement synchronously on the raw handle when no query or
// transaction holds the connection: the result is the same as through Kysely's executor (one
// connection, nothing can interleave a synchronous call), without its promise hand-offs. When the
// connection is held (a transaction is open), the call queues behind it through Kysely as before.
import type SqliteDatabase from 'better-sqlite3';
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

const MARK = '\u0000arg:';

export function prepareQuery<Row, Args extends unknown[]>(
  db: Db,
  arity: Args['length'],
  build: (...args: string[]) => Compilable<Row>,
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
  options: { arrays?: boolean } = {},
): (...args: Args) => Promise<Row[] | unknown[][]> {
  const arrays = options.arrays === true;
  const compiled = build(...Array.from({ length: arity }, (_, i) => `${MARK}${i}`)).compile();
  // For each bound parameter: the index of the call argument it takes, or a constant.
  const binds = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARK) ? { arg: Number(p.slice(MARK.length)) } : { value: p },
  );
  const bind = (args: unknown[]) => binds.map((b) => ('arg' in b ? args[b.arg as number] : b.value));
  const viaKysely = async (params: unknown[]) => {
    const { rows } = await db.kysely.executeQuery<Row>(CompiledQuery.raw(compiled.sql, params));
    return arrays ? rows.map((r) => Object.values(r as object)) : rows;
  };

  if (db.pg) {
    const pool = db.pg;
    const name = statementName(compiled.sql);
    return async (...args) =>
      (
        await pool.query<Row & object>({
          name,
          text: compiled.sql,
          values: bind(args),
          ...(arrays ? { rowMode: 'array' as const } : {}),
        })
      ).rows;
  }
  const { sqlite, sqliteIdle } = db;
  if (!sqlite || !sqliteIdle) return (...args) => viaKysely(bind(args));
  // Prepared on first use: the tables may not exist yet when the query is declared.
  let statement: SqliteDatabase.Statement | undefined;
  return async (...args) => {
    const params = bind(args);
    if (!sqliteIdle()) return viaKysely(params);
    if (!statement) {
      statement = sqlite.prepare(compiled.sql);
      if (arrays && statement.reader) statement.raw(true);
    }
    if (statement.reader) return statement.all(params) as Row[];
    statement.run(params);
    return [];
  };
}

/** One name per statement text (a name must always stand for the same text on a connection). */
const statementNames = new Map<string, string>();

export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `p${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** prepareQuery for code that is handed the database on each call: prepared once per database. */
export function preparedQuery<Row, Args extends unknown[]>(
  arity: Args['length'],
  build: (k: Kysely<Database>, ...args: string[]) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const perDb = new WeakMap<Db, (...args: Args) => Promise<Row[]>>();
  return (db, ...args) => {
    let query = perDb.get(db);
    if (!query) {
      query = prepareQuery<Row, Args>(db, arity, (...a) => build(db.kysely, ...a));
      perDb.set(db, query);
    }
    return query(...args);
  };
}
