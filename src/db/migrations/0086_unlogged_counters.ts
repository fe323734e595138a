// The throttles' counters on PostgreSQL as UNLOGGED tables: the per-minute windows of respondent
// submissions (window_counters), of screening (screening_counters) and of the API's rate limits
// (rate_counters). A transaction that writes only unlogged tables commits without waiting for the
// WAL to reach the disk, so a counted request no longer waits for a flush of its own while holding
// its counter's row: one respondent address's (or one app's) requests queued behind each other's
// flushes, three quarters of a millisecond each. The price: after a crash (not a clean stop)
// PostgreSQL empties these tables, and standbys do not carry them, so the windows open at that
// moment start from zero; a limit is exact at every other moment. SQLite is unchanged (a commit
// there does not wait for the disk: synchronous=NORMAL).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Rolling-safe: the tables keep their columns and their answers; only their durability changes. */
export const kind = 'rolling-safe' as const;

const COUNTERS = ['window_counters', 'screening_counters', 'rate_counters'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of COUNTERS) await sql`ALTER TABLE ${sql.table(table)} SET UNLOGGED`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of COUNTERS) await sql`ALTER TABLE ${sql.table(table)} SET LOGGED`.execute(db);
}
