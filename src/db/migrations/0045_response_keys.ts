// Filtered and compared analysis without parsing responses: `response_keys` holds, per
// response, its answers in compact form (domain/responses/answers.ts answerKeys) beside the columns
// the results filter reads (collector, status, date begun, total time), keyed like the response
// (survey, ordinal), so a survey's rows are one range of short rows (WITHOUT ROWID on SQLite: the
// key is the table). Every writer of a response writes its row (both group commits, the
// one-response path, updates); a trigger deletes it with the response, whatever deletes that (a
// response, a collector, a survey's cascade). The existing responses are backfilled here, in id
// order, a batch at a time. On PostgreSQL a new version of insert_responses() writes the rows from
// each job's `keys`.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../schema.js';
import { answerKeys } from '../stores/response-keys.js';
import { insertResponsesSql } from './0024_pg_hot_paths.js';
import { NUMBERS_CTE } from './0039_numeric_rollup.js';

/** The CTE insert_responses() adds: each written job's row of response_keys. */
/** Rolling-safe: rows an older release's process writes without their response_keys are completed by this release's worker (domain/responses/derived.ts). */
export const kind = 'rolling-safe' as const;

export const KEYS_CTE = `keys_added AS (
        INSERT INTO response_keys
          (survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices)
        SELECT n.v->'row'->>'survey_id', n.ordinal, n.v->'row'->>'collector_id',
          n.v->'row'->>'response_status', n.v->'row'->>'date_created', (n.v->'row'->>'total_time')::integer,
          n.v->'keys'->>'keys', n.v->'keys'->>'choices'
        FROM numbered AS n
      ), `;

const BATCH = 2000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql
    .raw(`CREATE TABLE response_keys (
      survey_id TEXT NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      collector_id TEXT NOT NULL,
      response_status TEXT NOT NULL,
      date_created TEXT NOT NULL,
      total_time INTEGER NOT NULL,
      keys TEXT NOT NULL,
      choices TEXT NOT NULL,
      PRIMARY KEY (survey_id, ordinal))${pg ? '' : ' WITHOUT ROWID'}`)
    .execute(db);
  if (pg) {
    // One statement per delete, however many responses it removes (transition table).
    await sql`CREATE FUNCTION response_keys_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM response_keys k USING gone g WHERE k.survey_id = g.survey_id AND k.ordinal = g.ordinal;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER response_keys_delete AFTER DELETE ON responses
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION response_keys_delete()`.execute(db);
    await sql.raw(insertResponsesSql(NUMBERS_CTE + KEYS_CTE)).execute(db);
  } else
    await sql`CREATE TRIGGER response_keys_delete AFTER DELETE ON responses BEGIN
      DELETE FROM response_keys WHERE survey_id = old.survey_id AND ordinal = old.ordinal;
    END`.execute(db);
  await backfill(db as unknown as Kysely<Database>);
}

async function backfill(db: Kysely<Database>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('responses')
      .select([
        'id',
        'survey_id',
        'ordinal',
        'collector_id',
        'response_status',
        'date_created',
        'total_time',
        'pages',
      ])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    await db
      .insertInto('response_keys')
      .values(rows.map(({ id: _id, pages, ...r }) => ({ ...r, ...answerKeys(JSON.parse(pages)) })))
      .execute();
    after = rows[rows.length - 1].id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(insertResponsesSql(NUMBERS_CTE)).execute(db);
    await sql`DROP TRIGGER response_keys_delete ON responses`.execute(db);
    await sql`DROP FUNCTION response_keys_delete()`.execute(db);
  } else await sql`DROP TRIGGER response_keys_delete`.execute(db);
  await db.schema.dropTable('response_keys').execute();
}
