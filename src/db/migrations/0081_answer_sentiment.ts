// The sentiment of open-ended answers (domain/responses/sentiment.ts), kept beside each response's
// other compact answers: `response_keys.sentiments`, tokens ' <question>:<label> ' (positive,
// neutral, negative, not_analysed), so a filter by sentiment is one token test of the row and the
// shares per question one grouped read. NULL means "not scored yet": the rows of the responses
// already there, and those a process of the previous release writes during a rolling upgrade, are
// scored by the worker's derived-rows job (domain/responses/derived.ts) at its start and every
// BACKFILL_INTERVAL_SECONDS, a window of 2,000 responses per statement; nothing is scored here, so
// the migration is one ALTER TABLE. On PostgreSQL a new version of insert_responses() writes the
// column from each job's `keys`.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { insertResponsesSql } from './0024_pg_hot_paths.js';
import { NUMBERS_CTE } from './0039_numeric_rollup.js';
import { KEYS_CTE } from './0045_response_keys.js';

/** Rolling-safe: a nullable column; rows written without it are completed by the worker. */
export const kind = 'rolling-safe' as const;

const SENTIMENT_KEYS_CTE = `keys_added AS (
        INSERT INTO response_keys
          (survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices, sentiments)
        SELECT n.v->'row'->>'survey_id', n.ordinal, n.v->'row'->>'collector_id',
          n.v->'row'->>'response_status', n.v->'row'->>'date_created', (n.v->'row'->>'total_time')::integer,
          n.v->'keys'->>'keys', n.v->'keys'->>'choices', n.v->'keys'->>'sentiments'
        FROM numbered AS n
      ), `;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('response_keys').addColumn('sentiments', 'text').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql.raw(insertResponsesSql(NUMBERS_CTE + SENTIMENT_KEYS_CTE)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql.raw(insertResponsesSql(NUMBERS_CTE + KEYS_CTE)).execute(db);
  await db.schema.alterTable('response_keys').dropColumn('sentiments').execute();
}
