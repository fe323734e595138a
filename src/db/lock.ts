// Serialising writers on an owning row, so a limit checked by counting rows stays true until the
// transaction that inserts commits (check-then-insert without the race).
import { sql, type Transaction } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/** Rows other rows are counted under: the account, a collector, a message, a survey, a team. */
type Owner = 'users' | 'collectors' | 'collector_messages' | 'surveys' | 'teams' | 'workgroups';

/**
 * Inside `trx`: waits until no other transaction holds this row, and holds it until `trx` ends.
 * PostgreSQL: SELECT ... FOR UPDATE. SQLite needs nothing: a transaction holds the only
 * connection, so transactions run one at a time.
 */
export async function lockRow(db: Db, trx: Transaction<Database>, table: Owner, id: string): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${id} FOR UPDATE`.execute(trx);
}

/**
 * Inside `trx`: holds every operators row until `trx` ends, so "is another operator left?" stays
 * true until the removal commits (two operators removing each other cannot both succeed). SQLite
 * needs nothing, as above.
 */
export async function lockOperators(db: Db, trx: Transaction<Database>): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`SELECT user_id FROM operators FOR UPDATE`.execute(trx);
}
