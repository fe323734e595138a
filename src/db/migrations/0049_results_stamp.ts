// survey_response_seq.edits: how many response updates and deletions a survey has had, kept by
// triggers on `responses` in the changing transaction (every path: the API, the respondent pages'
// page saves, deletions, cascades). With `next_ordinal` (moved by every insert, on every insert
// path) and `surveys.response_count`, it makes a survey's results stamp: any acknowledged change to
// its responses has moved one of them, on both databases and across processes, so a process may
// keep a page of results under the stamp (deps.caches.sharedResults, issue #27 item 3).
// Inserts are left to next_ordinal on purpose: they already take that row's lock, and a trigger
// would write it twice. PostgreSQL: statement-level triggers (one UPDATE per statement, whatever the
// number of rows), run at the statement's end, so a transaction locks the row before the rollup
// counts, as inserts do (no lock-order cycle). SQLite: row triggers.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql
    .raw(
      `ALTER TABLE survey_response_seq ADD COLUMN edits ${sqlite ? 'INTEGER' : 'BIGINT'} NOT NULL DEFAULT 0`,
    )
    .execute(db);
  const bump = (survey: string) =>
    `UPDATE survey_response_seq SET edits = edits + 1 WHERE survey_id = ${survey};`;
  if (sqlite) {
    await sql
      .raw(
        `CREATE TRIGGER responses_edits_update AFTER UPDATE ON responses BEGIN ${bump('new.survey_id')} END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER responses_edits_delete AFTER DELETE ON responses BEGIN ${bump('old.survey_id')} END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION responses_edits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        UPDATE survey_response_seq SET edits = edits + 1 WHERE survey_id IN (SELECT survey_id FROM old_rows);
      ELSE
        UPDATE survey_response_seq SET edits = edits + 1 WHERE survey_id IN (SELECT survey_id FROM new_rows);
      END IF;
      RETURN NULL;
    END $$`)
    .execute(db);
  await sql`CREATE TRIGGER responses_edits_update AFTER UPDATE ON responses
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_edits()`.execute(db);
  await sql`CREATE TRIGGER responses_edits_delete AFTER DELETE ON responses
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_edits()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const t of ['update', 'delete']) await sql.raw(`DROP TRIGGER responses_edits_${t}`).execute(db);
  } else {
    for (const t of ['update', 'delete'])
      await sql.raw(`DROP TRIGGER responses_edits_${t} ON responses`).execute(db);
    await sql`DROP FUNCTION responses_edits()`.execute(db);
  }
  await sql`ALTER TABLE survey_response_seq DROP COLUMN edits`.execute(db);
}
