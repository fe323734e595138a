// "Has any caller changed?": the caller_epoch counter (migrations 0024 on PostgreSQL, 0027 on
// SQLite), which every committed update or delete of tokens, users or apps moves on. A value read by a query that
// started after a request arrived says whether anything a cached caller is made of has changed
// since; it is exact across processes, because the counter moves in the changing transaction.
//
// Requests share reads: every request waiting when a read starts takes its answer (that read
// started after each of them arrived), so 50 concurrent requests cost a few reads, not 50.
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import type { Db } from './database.js';
import { queryNamed, statementName } from './prepared.js';

const TEXT = 'SELECT n FROM caller_epoch WHERE id = 1';
/** Reads in flight at once: a request arriving during one read need not wait for it to end. */
const MAX_READS = 2;

export type EpochReader = () => Promise<number>;

export function callerEpochReader(pool: pg.Pool): EpochReader {
  const name = statementName(TEXT);
  let waiting: Array<{ resolve: (n: number) => void; reject: (err: unknown) => void }> = [];
  let reads = 0;

  async function read(): Promise<void> {
    reads++;
    try {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        try {
          const { rows } = await queryNamed<{ n: number | string }>(pool, { name, text: TEXT });
          const n = Number(rows[0].n);
          for (const w of batch) w.resolve(n);
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      reads--;
    }
  }

  return () =>
    new Promise<number>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (reads < MAX_READS) void read();
    });
}

/**
 * SQLite: the epoch now, read synchronously on the raw handle (a triggers-kept row: exact across
 * processes on the file too), or null while a query or transaction holds the connection (its
 * uncommitted changes would give a value later reads cannot trust).
 */
export function sqliteCallerEpoch(db: Db): () => number | null {
  const { sqlite, sqliteIdle } = db;
  let read: SqliteDatabase.Statement | undefined;
  return () => {
    if (!sqlite || !sqliteIdle?.()) return null;
    read ??= sqlite.prepare(TEXT).pluck();
    return Number(read.get());
  };
}
