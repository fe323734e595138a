// PostgreSQL only (SQLite needs neither):
// 1. caller_epoch: a counter that every committed change to the rows a bearer token's caller is
//    made of (tokens, users, apps) moves on, so a process may remember callers and ask one cheap
//    question, "has it moved?", instead of joining three tables per request (http/auth.ts).
//    Bumped by deferred constraint triggers: at commit, in the same transaction, so the new value
//    is visible exactly when the change is, and the counter row is locked only for the commit
//    (taken last, it adds no lock-order cycle with the rows the transaction changed). Inserts do not
//    bump it: only known callers are remembered, never an unknown token.
// 2. insert_responses(jobs, now): the group commit of db/stores/responses-pg.ts, one statement for many
//    responses and their counters, rollup counts and events.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

const CALLER_TABLES = ['tokens', 'users', 'apps'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE TABLE caller_epoch (id integer PRIMARY KEY CHECK (id = 1), n bigint NOT NULL, tx bigint)`.execute(
    db,
  );
  await sql`INSERT INTO caller_epoch (id, n) VALUES (1, 0)`.execute(db);
  // Once per transaction however many rows it changed (tx remembers the last one that bumped).
  await sql`
    CREATE FUNCTION bump_caller_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE caller_epoch SET n = n + 1, tx = txid_current()
      WHERE id = 1 AND tx IS DISTINCT FROM txid_current();
      RETURN NULL;
    END $$`.execute(db);
  for (const table of CALLER_TABLES) {
    await sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${table}_caller_epoch AFTER UPDATE OR DELETE ON ${table}
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_caller_epoch()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_caller_epoch_truncate AFTER TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION bump_caller_epoch()`,
      )
      .execute(db);
  }

  // jobs: [{row: the response row, counts: [[question_id, akey, n]], events: [event rows]}].
  // Set-based, one statement per table for the whole group: rows written again and again in one
  // transaction (the collector's and survey's counters, once per response) would cost far more.
  // The collectors are locked first, in id order; a new statement then sees their latest counts, and
  // admits each collector's responses in order while it is open and below its limit. Ordinals are
  // taken per survey in survey order (so concurrent groups lock in one order). Returns each job's
  // ordinal, or null when its collector refused it. A new responses column the domain writes needs a
  // new version of this function.
  await sql.raw(insertResponsesSql()).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION insert_responses(jsonb, text)`.execute(db);
  for (const table of CALLER_TABLES) {
    await sql.raw(`DROP TRIGGER ${table}_caller_epoch ON ${table}`).execute(db);
    await sql.raw(`DROP TRIGGER ${table}_caller_epoch_truncate ON ${table}`).execute(db);
  }
  await sql`DROP FUNCTION bump_caller_epoch()`.execute(db);
  await sql`DROP TABLE caller_epoch`.execute(db);
}

/** insert_responses() as this migration made it; `more` adds CTEs (each ending in `), `) before
 * the events are recorded (migration 0039 adds the numeric rollup). */
export function insertResponsesSql(more = ''): string {
  return `
    CREATE OR REPLACE FUNCTION insert_responses(jobs jsonb, at_time text)
    RETURNS TABLE (job integer, ord integer) LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM collectors
      WHERE id IN (SELECT v->'row'->>'collector_id' FROM jsonb_array_elements(jobs) AS v)
      ORDER BY id FOR UPDATE;
      RETURN QUERY
      WITH j AS (
        SELECT (t.idx - 1)::integer AS idx, t.v AS v, t.v->'row'->>'survey_id' AS survey_id,
          t.v->'row'->>'collector_id' AS collector_id,
          row_number() OVER (PARTITION BY t.v->'row'->>'collector_id' ORDER BY t.idx) AS rn
        FROM jsonb_array_elements(jobs) WITH ORDINALITY AS t(v, idx)
      ), ok AS (
        SELECT j.idx, j.v, j.survey_id, j.collector_id,
          row_number() OVER (PARTITION BY j.survey_id ORDER BY j.idx) AS sn,
          count(*) OVER (PARTITION BY j.survey_id) AS k
        FROM j JOIN collectors c ON c.id = j.collector_id
        WHERE c.status <> 'closed' AND (c.close_date IS NULL OR c.close_date > at_time)
          AND (c.response_limit IS NULL OR c.response_count + j.rn <= c.response_limit)
      ), seq AS (
        INSERT INTO survey_response_seq AS s (survey_id, owner_id, next_ordinal)
        SELECT survey_id, min(v->'row'->>'owner_id'), count(*) FROM ok GROUP BY survey_id ORDER BY survey_id
        ON CONFLICT (survey_id) DO UPDATE SET next_ordinal = s.next_ordinal + excluded.next_ordinal
        RETURNING s.survey_id, s.next_ordinal
      ), numbered AS (
        SELECT ok.idx, ok.v, (seq.next_ordinal - ok.k + ok.sn)::integer AS ordinal
        FROM ok JOIN seq ON seq.survey_id = ok.survey_id
      ), added AS (
        INSERT INTO responses (id, survey_id, collector_id, owner_id, ordinal, recipient_id,
          response_status, collection_mode, custom_value, custom_variables, ip_address, first_name,
          last_name, email_address, total_time, date_created, date_modified, pages, page_path,
          logic_path, metadata, current_page_id, edit_token, respondent_key)
        SELECT r.id, r.survey_id, r.collector_id, r.owner_id, n.ordinal, r.recipient_id,
          r.response_status, r.collection_mode, r.custom_value, r.custom_variables, r.ip_address,
          r.first_name, r.last_name, r.email_address, r.total_time, r.date_created, r.date_modified,
          r.pages, r.page_path, r.logic_path, r.metadata, r.current_page_id, r.edit_token,
          r.respondent_key
        FROM numbered AS n, jsonb_populate_record(NULL::responses, n.v->'row') AS r
      ), per_collector AS (
        UPDATE collectors AS c SET response_count = c.response_count + x.k
        FROM (SELECT collector_id, count(*) AS k FROM ok GROUP BY collector_id) AS x
        WHERE c.id = x.collector_id
      ), per_survey AS (
        UPDATE surveys AS s SET response_count = s.response_count + x.k
        FROM (SELECT survey_id, count(*) AS k FROM ok GROUP BY survey_id) AS x
        WHERE s.id = x.survey_id
      ), counted AS (
        INSERT INTO response_counts AS rc (survey_id, collector_id, question_id, akey, n)
        SELECT ok.survey_id, ok.collector_id, x->>0, x->>1, sum((x->>2)::integer)
        FROM ok, jsonb_array_elements(ok.v->'counts') AS x
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (survey_id, collector_id, question_id, akey) DO UPDATE SET n = rc.n + excluded.n
      ),${more}recorded AS (
        INSERT INTO events (id, type, owner_id, actor_id, resource_type, resource_id, ip, data, created_at)
        SELECT e.id, e.type, e.owner_id, e.actor_id, e.resource_type, e.resource_id, e.ip, e.data, e.created_at
        FROM ok, jsonb_populate_recordset(NULL::events, ok.v->'events') AS e
      )
      SELECT j.idx, numbered.ordinal FROM j LEFT JOIN numbered ON numbered.idx = j.idx;
    END $$`;
}
