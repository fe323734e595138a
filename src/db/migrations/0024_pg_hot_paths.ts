// PostgreSQL only (SQLite needs neither):
// 1. caller_epoch: a counter that every committed change to the rows a bearer token's caller is
//    made of (tokens, users, apps) moves on, so a process may remember callers and ask one cheap
//    question, "has it moved?", instead of joining three tables per request (platform/auth.ts).
//    Bumped by deferred constraint triggers: at commit, in the same transaction, so the new value
//    is visible exactly when the change is, and the counter row is locked only for the commit
//    (taken last, it adds no lock-order cycle with the rows the transaction changed). Inserts do not
//    bump it: only known callers are remembered, never an unknown token.
// 2. insert_responses(jobs): the group commit of responses/pg-write.ts, one statement for many
//    responses, each in its own subtransaction (a failing one is reported, the others commit).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

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

  // Each job: {row: the response row, now, counts: [[question_id, akey, n]], events: [event rows]}.
  // Jobs are taken in (survey, collector) order so that concurrent batches lock rows in one order.
  // Same statements as the Kysely path in responses.ts; a new responses column the domain writes
  // needs a new version of this function.
  await sql`
    CREATE FUNCTION insert_responses(jobs jsonb)
    RETURNS TABLE (job integer, ord integer, err text, code text) LANGUAGE plpgsql AS $$
    DECLARE
      j record;
      r responses;
      o integer;
    BEGIN
      FOR j IN
        SELECT (t.idx - 1)::integer AS idx, t.v AS v FROM jsonb_array_elements(jobs) WITH ORDINALITY AS t(v, idx)
        ORDER BY t.v->'row'->>'survey_id', t.v->'row'->>'collector_id', t.idx
      LOOP
        job := j.idx; ord := NULL; err := NULL; code := NULL;
        BEGIN
          r := jsonb_populate_record(NULL::responses, j.v->'row');
          UPDATE collectors SET response_count = response_count + 1
          WHERE id = r.collector_id AND status <> 'closed'
            AND (close_date IS NULL OR close_date > j.v->>'now')
            AND (response_limit IS NULL OR response_count < response_limit);
          IF NOT FOUND THEN
            err := 'collector not open';
            code := 'closed';
          ELSE
            INSERT INTO survey_response_seq AS s (survey_id, owner_id, next_ordinal)
            VALUES (r.survey_id, r.owner_id, 1)
            ON CONFLICT (survey_id) DO UPDATE SET next_ordinal = s.next_ordinal + 1
            RETURNING s.next_ordinal INTO o;
            INSERT INTO responses (id, survey_id, collector_id, owner_id, ordinal, recipient_id,
              response_status, collection_mode, custom_value, custom_variables, ip_address, first_name,
              last_name, email_address, total_time, date_created, date_modified, pages, page_path,
              logic_path, metadata, current_page_id, edit_token, respondent_key)
            VALUES (r.id, r.survey_id, r.collector_id, r.owner_id, o, r.recipient_id,
              r.response_status, r.collection_mode, r.custom_value, r.custom_variables, r.ip_address,
              r.first_name, r.last_name, r.email_address, r.total_time, r.date_created, r.date_modified,
              r.pages, r.page_path, r.logic_path, r.metadata, r.current_page_id, r.edit_token,
              r.respondent_key);
            UPDATE surveys SET response_count = response_count + 1 WHERE id = r.survey_id;
            INSERT INTO response_counts AS c (survey_id, collector_id, question_id, akey, n)
            SELECT r.survey_id, r.collector_id, x->>0, x->>1, (x->>2)::integer
            FROM jsonb_array_elements(j.v->'counts') AS x
            ON CONFLICT (survey_id, collector_id, question_id, akey) DO UPDATE SET n = c.n + excluded.n;
            INSERT INTO events (id, type, owner_id, actor_id, resource_type, resource_id, ip, data, created_at)
            SELECT e.id, e.type, e.owner_id, e.actor_id, e.resource_type, e.resource_id, e.ip, e.data, e.created_at
            FROM jsonb_populate_recordset(NULL::events, j.v->'events') AS e;
            ord := o;
          END IF;
        EXCEPTION WHEN OTHERS THEN
          err := SQLERRM;
          code := SQLSTATE;
        END;
        RETURN NEXT;
      END LOOP;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION insert_responses(jsonb)`.execute(db);
  for (const table of CALLER_TABLES) {
    await sql.raw(`DROP TRIGGER ${table}_caller_epoch ON ${table}`).execute(db);
    await sql.raw(`DROP TRIGGER ${table}_caller_epoch_truncate ON ${table}`).execute(db);
  }
  await sql`DROP FUNCTION bump_caller_epoch()`.execute(db);
  await sql`DROP TABLE caller_epoch`.execute(db);
}
