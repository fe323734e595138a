// The numeric rollup: response_numbers, kept in the transaction of every response write
// beside response_counts (db/stores/response-numbers.ts says what its rows hold), so the statistics
// of a numerical question read a bounded number of rows instead of every response. The existing
// responses are summed in here (the backfill), in id order, a batch at a time. On PostgreSQL a new
// version of insert_responses() (the group commit) writes the rows from each job's `numbers`.
import { type Kysely, PostgresAdapter, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../schema.js';
import { addNumbers, type NumberDelta, numberDeltas } from '../stores/response-numbers.js';
import { insertResponsesSql } from './0024_pg_hot_paths.js';

/** The CTE insert_responses() adds: each job's numbers, summed per row over the group. */
/** Needs-stop: an older release's process writes responses without their response_numbers, and nothing completes them afterwards. */
export const kind = 'needs-stop' as const;

export const NUMBERS_CTE = `numbers_added AS (
        INSERT INTO response_numbers AS rn
          (survey_id, question_id, row_id, exact, value, collector_id, n, total, squares)
        SELECT ok.survey_id, x->>0, x->>1, (x->>2)::integer, (x->>3)::double precision, ok.collector_id,
          sum((x->>4)::integer), sum((x->>5)::double precision), sum((x->>6)::double precision)
        FROM ok, jsonb_array_elements(ok.v->'numbers') AS x
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (survey_id, question_id, row_id, exact, value, collector_id) DO UPDATE SET
          n = rn.n + excluded.n, total = rn.total + excluded.total, squares = rn.squares + excluded.squares
      ), `;

const BATCH = 2000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('response_numbers')
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    .addColumn('exact', 'integer', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    // No foreign key: deleteCollector deletes the collector's rows (by survey and collector).
    .addColumn('collector_id', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('total', 'double precision', (c) => c.notNull())
    .addColumn('squares', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('response_numbers_pk', [
      'survey_id',
      'question_id',
      'row_id',
      'exact',
      'value',
      'collector_id',
    ])
    // One b-tree on SQLite (the key is the table), not a rowid table plus a key index.
    .$call((t) => (sqlite ? t.modifyEnd(sql`WITHOUT ROWID`) : t))
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql.raw(insertResponsesSql(NUMBERS_CTE)).execute(db);
  await backfill(db as unknown as Kysely<Database>);
}

async function backfill(db: Kysely<Database>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('responses')
      .select(['id', 'survey_id', 'collector_id', 'pages'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const per = new Map<string, { survey: string; collector: string; deltas: Map<string, NumberDelta> }>();
    for (const r of rows) {
      const key = `${r.survey_id}|${r.collector_id}`;
      let p = per.get(key);
      if (!p) {
        p = { survey: r.survey_id, collector: r.collector_id, deltas: new Map() };
        per.set(key, p);
      }
      numberDeltas(JSON.parse(r.pages), 1, p.deltas);
    }
    for (const p of per.values()) await addNumbers(db, p.survey, p.collector, p.deltas);
    after = rows[rows.length - 1].id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql.raw(insertResponsesSql()).execute(db);
  await db.schema.dropTable('response_numbers').execute();
}
