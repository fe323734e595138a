// Prepared queries for hot paths. A Kysely query is built and compiled once, with placeholder
// arguments; each call only binds values and runs the compiled SQL through Kysely's executor (so
// it still queues behind open transactions on SQLite's single connection, and SQLite reuses the
// prepared statement from the statement cache in database.ts). This skips Kysely's per-call
// query building and compiling, the larger part of a simple query's cost.
import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';

const MARK = '\u0000arg:';

export function prepareQuery<Row, Args extends unknown[]>(
  db: Db,
  arity: Args['length'],
  build: (...args: string[]) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  const compiled = build(...Array.from({ length: arity }, (_, i) => `${MARK}${i}`)).compile();
  // For each bound parameter: the index of the call argument it takes, or a constant.
  const binds = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARK) ? { arg: Number(p.slice(MARK.length)) } : { value: p },
  );
  return async (...args) => {
    const params = binds.map((b) => ('arg' in b ? args[b.arg as number] : b.value));
    const result = await db.kysely.executeQuery<Row>(CompiledQuery.raw(compiled.sql, params));
    return result.rows;
  };
}
