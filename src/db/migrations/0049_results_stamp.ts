// survey_response_seq.edits: how many times a survey's responses have been updated, kept by a
// trigger on `responses` in the changing transaction (every path: the API, the respondent pages'
// page saves, anything else that rewrites a response). With `next_ordinal` (moved by every insert,
// on every insert path) and `surveys.response_count` (lowered by every deletion: responses.ts
// deleteResponses, collectors.ts deleteCollector), it makes a survey's results stamp: any
// acknowledged change to its responses has moved one of the three (inserts only raise
// next_ordinal, so after a deletion the count cannot come back to a value it had at the same
// next_ordinal), on both databases and across processes, so a process may keep a page of results
// under the stamp (deps.caches.sharedResults).
// Inserts and deletions are left out on purpose: no second write of a row they already take (the
// sequence's, the survey's), and no lock a deletion would hold while it waits for the collector's,
// which inserts take before the sequence's. PostgreSQL: a statement-level trigger (one UPDATE per
// statement, whatever the number of rows) at the statement's end, so an update locks the row before
// the rollup counts, in the order inserts lock them (no lock-order cycle). SQLite: a row trigger.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql
    .raw(
      `ALTER TABLE survey_response_seq ADD COLUMN edits ${sqlite ? 'INTEGER' : 'BIGINT'} NOT NULL DEFAULT 0`,
    )
    .execute(db);
  if (sqlite) {
    await sql`CREATE TRIGGER responses_edits AFTER UPDATE ON responses
      BEGIN UPDATE survey_response_seq SET edits = edits + 1 WHERE survey_id = new.survey_id; END`.execute(
      db,
    );
    return;
  }
  await sql`CREATE FUNCTION responses_edits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE survey_response_seq SET edits = edits + 1 WHERE survey_id IN (SELECT survey_id FROM new_rows);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER responses_edits AFTER UPDATE ON responses
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_edits()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`DROP TRIGGER responses_edits`.execute(db);
  else {
    await sql`DROP TRIGGER responses_edits ON responses`.execute(db);
    await sql`DROP FUNCTION responses_edits()`.execute(db);
  }
  await sql`ALTER TABLE survey_response_seq DROP COLUMN edits`.execute(db);
}
