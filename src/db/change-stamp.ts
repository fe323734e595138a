// "Has anything in the database changed since?" for read caches, on SQLite: a stamp made of the
// rows this connection has changed (total_changes(), which counts every insert, update and delete,
// triggers included) and the commits of every other connection or process on the file
// (data_version). Equal stamps mean no row was written in between, by anyone.
// PostgreSQL has no such cheap question, so there is no stamp and callers do not cache.
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from './database.js';

export type ChangeStamp = () => string | null;

/** A function giving the current stamp, or null while the connection is inside a transaction (its
 * uncommitted changes would make a stamp that later reads cannot trust). */
export function changeStamp(db: Db): ChangeStamp | null {
  const { sqlite, sqliteIdle } = db;
  if (!sqlite || !sqliteIdle) return null;
  // Two statements: the table-valued pragma_data_version() in one SELECT costs three times more.
  let statements: { ours: SqliteDatabase.Statement; theirs: SqliteDatabase.Statement } | undefined;
  return () => {
    if (!sqliteIdle()) return null;
    statements ??= {
      ours: sqlite.prepare('SELECT total_changes()').pluck(),
      theirs: sqlite.prepare('PRAGMA data_version').pluck(),
    };
    return `${statements.ours.get()}:${statements.theirs.get()}`;
  };
}
