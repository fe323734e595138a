// survey_totals: per owner, how many surveys they own (`surveys`) and a change stamp (`stamp`) that
// moves whenever one of their surveys is created, deleted, changes owner, or changes a column the
// survey list shows, filters or sorts by. Kept by triggers in the changing transaction, so every
// writer (create, copy, import, delete, a bulk INSERT … SELECT, psql) keeps it exact, on both
// databases and across processes:
// - GET /v3/surveys takes an unfiltered list's total from `surveys` (one row, however many surveys
//   the account has) instead of counting the account's index entries;
// - a process may remember a list's answer under `stamp` (deps.caches.surveyAnswers) and serve it
//   while a read of the stamp that started after the request arrived still returns that value.
// `response_count` is left out on purpose: a response written moves it, and lists that show or
// sort by it are never remembered. A column the list comes to show joins STAMP_COLUMNS.
//
// PostgreSQL: deferred constraint triggers, so the owner's row is locked only at commit, taken last
// (no lock-order cycle with the rows the transaction changed); the upsert and `surveys + 1` under
// that row lock are exact for concurrent transactions. SQLite: plain triggers (one writer at a time).
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export const STAMP_COLUMNS = [
  'id',
  'owner_id',
  'title',
  'nickname',
  'language',
  'folder_id',
  'question_count',
  'page_count',
  'preview_token',
  'manage_token',
  'date_created',
  'date_modified',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql
    .raw(
      `CREATE TABLE survey_totals (owner_id text PRIMARY KEY, surveys ${sqlite ? 'integer' : 'bigint'} NOT NULL,
       stamp ${sqlite ? 'integer' : 'bigint'} NOT NULL)`,
    )
    .execute(db);
  await sql`INSERT INTO survey_totals (owner_id, surveys, stamp)
    SELECT owner_id, count(*), 0 FROM surveys GROUP BY owner_id`.execute(db);
  const columns = STAMP_COLUMNS.join(', ');
  const add = (owner: string) =>
    // No alias for the table: SQLite re-parses trigger bodies on ALTER TABLE … RENAME (a later
    // migration's table rebuild) and does not resolve an upsert's alias there.
    `INSERT INTO survey_totals (owner_id, surveys, stamp) VALUES (${owner}, 1, 1)
     ON CONFLICT (owner_id) DO UPDATE SET surveys = survey_totals.surveys + 1, stamp = survey_totals.stamp + 1;`;
  const remove = (owner: string) =>
    `UPDATE survey_totals SET surveys = surveys - 1, stamp = stamp + 1 WHERE owner_id = ${owner};`;
  const touch = (owner: string) => `UPDATE survey_totals SET stamp = stamp + 1 WHERE owner_id = ${owner};`;
  if (sqlite) {
    await sql
      .raw(`CREATE TRIGGER survey_totals_insert AFTER INSERT ON surveys BEGIN ${add('new.owner_id')} END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER survey_totals_delete AFTER DELETE ON surveys BEGIN ${remove('old.owner_id')} END`)
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER survey_totals_owner AFTER UPDATE OF owner_id ON surveys
         WHEN new.owner_id IS NOT old.owner_id BEGIN ${remove('old.owner_id')} ${add('new.owner_id')} END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER survey_totals_stamp AFTER UPDATE OF ${columns} ON surveys
         WHEN new.owner_id IS old.owner_id BEGIN ${touch('new.owner_id')} END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION survey_totals_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${add('NEW.owner_id')}
        ELSIF TG_OP = 'DELETE' THEN
          ${remove('OLD.owner_id')}
        ELSIF NEW.owner_id IS DISTINCT FROM OLD.owner_id THEN
          ${remove('OLD.owner_id')}
          ${add('NEW.owner_id')}
        ELSE
          ${touch('NEW.owner_id')}
        END IF;
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE CONSTRAINT TRIGGER survey_totals AFTER INSERT OR DELETE OR UPDATE OF ${columns} ON surveys
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION survey_totals_row()`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const t of ['insert', 'delete', 'owner', 'stamp'])
      await sql.raw(`DROP TRIGGER survey_totals_${t}`).execute(db);
  } else {
    await sql`DROP TRIGGER survey_totals ON surveys`.execute(db);
    await sql`DROP FUNCTION survey_totals_row()`.execute(db);
  }
  await sql`DROP TABLE survey_totals`.execute(db);
}
