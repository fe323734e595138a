// What the per-process caches are keyed by, so that they stay exact:
// - surveys.design_version, moved by every page/question change (domain/surveys/design.ts touch):
//   the design index is kept per survey and version (date_modified repeats within a millisecond).
// - on SQLite, the caller epoch PostgreSQL got in 0024: a one-row counter that triggers move on
//   every update or delete of tokens, users and apps, in the changing transaction, so callers stay
//   remembered while other tables are written (responses) and are dropped by any change to them.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

/** Needs-stop: an older release's process keeps no design_version on its design changes, and (PostgreSQL) its prepared `select *` of surveys fails once the column is added (releases before 0.5.0 do not prepare it again). */
export const kind = 'needs-stop' as const;

const CALLER_TABLES = ['tokens', 'users', 'apps'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('surveys')
    .addColumn('design_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`CREATE TABLE caller_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO caller_epoch (id, n) VALUES (1, 0)`.execute(db);
  for (const table of CALLER_TABLES)
    for (const change of ['UPDATE', 'DELETE'])
      await sql
        .raw(
          `CREATE TRIGGER ${table}_caller_epoch_${change.toLowerCase()} AFTER ${change} ON ${table}
           BEGIN UPDATE caller_epoch SET n = n + 1 WHERE id = 1; END`,
        )
        .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const table of CALLER_TABLES)
      for (const change of ['update', 'delete'])
        await sql.raw(`DROP TRIGGER ${table}_caller_epoch_${change}`).execute(db);
    await sql`DROP TABLE caller_epoch`.execute(db);
  }
  await db.schema.alterTable('surveys').dropColumn('design_version').execute();
}
