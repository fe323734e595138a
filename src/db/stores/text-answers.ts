// The text answers of some questions, read once for what the analyze pages show of them: the
// latest answers (domain/analysis/overview.ts) and the word frequencies (domain/analysis/words.ts).
// The newest `limit` matching responses (by ordinal, on the (survey, ordinal) index) and, inside
// each, only the answers of the wanted questions that carry text, newest response first and in
// answer order. The JSON walk runs in the database (json_each / jsonb_array_elements, as
// answer-filter.ts does), so only the texts travel, never the whole `pages` document. The caller
// passes the filtered responses query (domain's `filtered`).
//
// textAnswerPages reads the same rows a page of responses at a time (by ordinal, newest first), each
// page sized so that its statement takes about PAGE_MS: on SQLite a statement runs on the event
// loop, and one walk over thousands of long answers would hold it for a second.
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../database.js';
import type { Database } from '../schema.js';

export interface TextAnswer {
  response_id: string;
  question_id: string;
  text: string;
  /** 1 for a file upload's answer (its text is the file's name), else 0 */
  upload: number;
}

type Responses = SelectQueryBuilder<Database, 'responses', object>;

export async function textAnswers(
  db: Db,
  responses: Responses,
  questionIds: string[],
  limit: number,
): Promise<TextAnswer[]> {
  if (questionIds.length === 0) return [];
  return walk(
    db,
    responses.select(['id', 'ordinal', 'pages']).orderBy('ordinal', 'desc').limit(limit),
    questionIds,
  );
}

/** Target time of one page's statement, and the first page's size (responses). */
const PAGE_MS = 8;
const FIRST_PAGE = 50;

/** The rows of textAnswers, a page of responses at a time (each page's rows in the same order). */
export async function* textAnswerPages(
  db: Db,
  responses: Responses,
  questionIds: string[],
  limit: number,
): AsyncGenerator<TextAnswer[]> {
  if (questionIds.length === 0) return;
  // The responses to read, newest first, in one statement (ids only: cheap however long their
  // answers), then their answers a page of them at a time, each found by its primary key.
  const newest = await responses.select('id').orderBy('ordinal', 'desc').limit(limit).execute();
  let size = FIRST_PAGE;
  for (let i = 0; i < newest.length; ) {
    const ids = newest.slice(i, i + size).map((r) => r.id);
    const page = db.kysely.selectFrom('responses').select(['id', 'ordinal', 'pages']).where('id', 'in', ids);
    const started = performance.now();
    const rows = await walk(db, page, questionIds);
    const took = performance.now() - started;
    yield rows;
    size = Math.max(10, Math.min(2000, Math.round((ids.length * PAGE_MS) / Math.max(took, 0.5))));
    i += ids.length;
  }
}

async function walk<O>(
  db: Db,
  newest: SelectQueryBuilder<Database, 'responses', O>,
  questionIds: string[],
): Promise<TextAnswer[]> {
  const ids = sql.join(questionIds.map((id) => sql`${id}`));
  const query =
    db.dialect === 'sqlite'
      ? sql<TextAnswer>`SELECT r.id AS response_id, json_extract(q.value, '$.id') AS question_id, json_extract(a.value, '$.text') AS text,
  json_extract(a.value, '$.upload_id') IS NOT NULL AS upload
FROM (${newest}) r, json_each(r.pages) p, json_each(p.value, '$.questions') q, json_each(q.value, '$.answers') a
WHERE json_extract(q.value, '$.id') IN (${ids}) AND json_type(a.value, '$.text') = 'text' AND json_extract(a.value, '$.text') <> ''
ORDER BY r.ordinal DESC, p.key, q.key, a.key`
      : sql<TextAnswer>`SELECT r.id AS response_id, q.value->>'id' AS question_id, a.value->>'text' AS text,
  (a.value->'upload_id' IS NOT NULL)::int AS upload
FROM (${newest}) r, jsonb_array_elements(r.pages::jsonb) WITH ORDINALITY p(value, i),
  jsonb_array_elements(p.value->'questions') WITH ORDINALITY q(value, i),
  jsonb_array_elements(q.value->'answers') WITH ORDINALITY a(value, i)
WHERE q.value->>'id' IN (${ids}) AND jsonb_typeof(a.value->'text') = 'string' AND a.value->>'text' <> ''
ORDER BY r.ordinal DESC, p.i, q.i, a.i`;
  return (await query.execute(db.kysely)).rows;
}
