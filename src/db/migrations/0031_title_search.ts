// A title search (GET /v3/surveys?title=, the home page's search) that reads the matching surveys,
// not every survey of the account. SQLite: an FTS5 table with the trigram tokenizer, one row per
// survey whose rowid is the survey's id (ids are digit strings), kept by triggers in the changing
// transaction. PostgreSQL: a pg_trgm GIN index on lower(title), which serves `LIKE '%…%'` itself.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX surveys_title_trgm ON surveys USING gin (lower(title) gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE surveys_title USING fts5(title, tokenize = 'trigram')`.execute(db);
  await sql`INSERT INTO surveys_title (rowid, title) SELECT CAST(id AS INTEGER), title FROM surveys`.execute(
    db,
  );
  await sql`CREATE TRIGGER surveys_title_insert AFTER INSERT ON surveys BEGIN
    INSERT INTO surveys_title (rowid, title) VALUES (CAST(new.id AS INTEGER), new.title); END`.execute(db);
  await sql`CREATE TRIGGER surveys_title_update AFTER UPDATE OF title ON surveys
    WHEN new.title IS NOT old.title BEGIN
    UPDATE surveys_title SET title = new.title WHERE rowid = CAST(new.id AS INTEGER); END`.execute(db);
  await sql`CREATE TRIGGER surveys_title_delete AFTER DELETE ON surveys BEGIN
    DELETE FROM surveys_title WHERE rowid = CAST(old.id AS INTEGER); END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`DROP INDEX surveys_title_trgm`.execute(db);
    return;
  }
  for (const t of ['insert', 'update', 'delete'])
    await sql.raw(`DROP TRIGGER surveys_title_${t}`).execute(db);
  await sql`DROP TABLE surveys_title`.execute(db);
}
