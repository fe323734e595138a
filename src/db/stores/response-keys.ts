// response_keys (migration 0045): a response's answers in compact form beside the columns the
// results filter reads, one short row per response keyed like it (survey, ordinal). answerKeys
// builds them from the rollup's count keys (countKeys): pure functions of the stored answers, which
// the migration's backfill uses too. Filtered rollups, compares and figures scan these rows, never
// `pages`; a choice filter tests the row's short `choices` text for one token (` q:<choice> `), the
// same on both engines but for the function's name. Rows are written with their response
// (responses*.ts) and deleted with it (a trigger).
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database } from '../schema.js';
import type { ResponseKeysTable, ResponsesTable } from '../tables/collect.js';
import { answerNumber } from './response-numbers.js';

type Executor = Kysely<Database> | Transaction<Database>;
type ResponseRow = Pick<
  ResponsesTable,
  'survey_id' | 'ordinal' | 'collector_id' | 'response_status' | 'date_created' | 'total_time'
>;

/** The stored answers' shape, as far as keys go (domain/responses/types.ts StoredPage). */
export interface KeptPage {
  questions: Array<{
    id: string;
    answers: Array<{
      choice_id?: string;
      row_id?: string;
      col_id?: string;
      other_id?: string;
      text?: string;
    }>;
  }>;
}

/** A response's answers as response_keys keeps them (answerKeys). */
export interface KeptAnswers {
  keys: string;
  choices: string;
  /** ' q:label … ' (domain/responses/sentiment.ts answerSentiments), or null: not scored. */
  sentiments?: string | null;
}

/** Scores a response's answers for its `sentiments` (the domain's rule, given to completeKeys). */
export type SentimentScorer = (pages: KeptPage[], language: string) => string;

/** The response_keys row of a response. */
export function keysRow(row: ResponseRow, { keys, choices, sentiments }: KeptAnswers): ResponseKeysTable {
  return {
    survey_id: row.survey_id,
    ordinal: row.ordinal,
    collector_id: row.collector_id,
    response_status: row.response_status,
    date_created: row.date_created,
    total_time: row.total_time,
    keys,
    choices,
    sentiments: sentiments ?? null,
  };
}

/** Writes a response's row again (an update changed its answers, status, date or time). */
export async function rewriteKeys(executor: Executor, row: ResponseRow, kept: KeptAnswers): Promise<void> {
  const r = keysRow(row, kept);
  await executor
    .insertInto('response_keys')
    .values(r)
    .onConflict((oc) =>
      oc.columns(['survey_id', 'ordinal']).doUpdateSet({
        collector_id: r.collector_id,
        response_status: r.response_status,
        date_created: r.date_created,
        total_time: r.total_time,
        keys: r.keys,
        choices: r.choices,
        sentiments: r.sentiments,
      }),
    )
    .execute();
}

/** The token (spaces around) a row's `choices` holds when `question` was answered with `choice`
 * (in any row, or as its "other" choice). */
export function choiceToken(question: string, choice: string): string {
  return ` ${question}:${choice} `;
}

/** "Question `question` was answered with any of `choices`" on a row's `choices` column (or any
 * of these labels on its `sentiments` column: the same ' q:x ' tokens). */
export function keysHaveChoice(
  dialect: Dialect,
  column: RawBuilder<unknown>,
  question: string,
  choices: readonly string[],
): RawBuilder<SqlBool> {
  const has = (c: string) => {
    const t = choiceToken(question, c);
    return dialect === 'sqlite' ? sql`instr(${column}, ${t}) > 0` : sql`strpos(${column}, ${t}::text) > 0`;
  };
  return sql<SqlBool>`(${sql.join(choices.map(has), sql` OR `)})`;
}

/** Rollup count keys of a response's answers, per question. */
export function countKeys(pages: KeptPage[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of pages)
    for (const q of p.questions) {
      if (q.answers.length === 0) continue;
      const keys = new Set<string>(['']);
      for (const a of q.answers) {
        if (a.other_id !== undefined) keys.add(`o:${a.other_id}`);
        else if (a.row_id !== undefined && a.col_id !== undefined)
          keys.add(`r:${a.row_id}:k:${a.col_id}:c:${a.choice_id}`);
        else if (a.row_id !== undefined && a.choice_id !== undefined)
          keys.add(`r:${a.row_id}:c:${a.choice_id}`);
        else if (a.choice_id !== undefined) keys.add(`c:${a.choice_id}`);
        if (a.row_id !== undefined) keys.add(`r:${a.row_id}`);
      }
      out.set(q.id, [...keys]);
    }
  return out;
}

/**
 * A response's answers in the compact form kept beside it, texts of
 * tokens with a space before and after each (ids and keys hold no spaces, so a token test is exact):
 * - `keys`: `<question>|<key>` for every countKeys key (what the rollup counts), and
 *   `<question>|n:<row>:<value>` for every answer whose text is a number (as answerNumber reads it;
 *   `<row>` empty without a row), once per answer: the filtered numeric statistics;
 * - `choices`: `<question>:<choice>` for every choice or "other" choice answered, in any row: what
 *   an answer filter tests (choiceToken), a short text.
 */
export function answerKeys(pages: KeptPage[], counted = countKeys(pages)): KeptAnswers {
  const keys: string[] = [];
  const choices = new Set<string>();
  for (const [q, ks] of counted) for (const k of ks) keys.push(`${q}|${k}`);
  for (const p of pages)
    for (const q of p.questions)
      for (const a of q.answers) {
        const chosen = a.other_id ?? a.choice_id;
        if (chosen !== undefined) choices.add(`${q.id}:${chosen}`);
        const v = answerNumber(a.text);
        if (v !== undefined) keys.push(`${q.id}|n:${a.row_id ?? ''}:${v}`);
      }
  return { keys: ` ${keys.join(' ')} `, choices: ` ${[...choices].join(' ')} ` };
}

/** Responses looked at per statement by completeKeys: each statement is short, so a pass over a
 * large table never holds SQLite's one connection for long. */
const WINDOW = 2000;

/**
 * Writes the row of every response that lacks one or whose row disagrees with it (status,
 * collector, date begun, total time): a process of a release from before response_keys writes
 * responses without their row while a rolling upgrade runs, and saves respondents' later pages
 * (which move status and time) without rewriting it. Walks the responses in id order a window at a
 * time; idempotent, and safe beside writers of this release (a row they write meanwhile is kept
 * or rewritten with the same content). Returns how many rows it wrote.
 */
export async function completeKeys(db: Kysely<Database>, score: SentimentScorer): Promise<number> {
  let after = '';
  let written = 0;
  for (;;) {
    const window = await db
      .selectFrom('responses')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(WINDOW)
      .execute();
    if (window.length === 0) return written;
    const last = window[window.length - 1].id;
    const rows = await db
      .selectFrom('responses as r')
      .leftJoin('response_keys as k', (j) =>
        j.onRef('k.survey_id', '=', 'r.survey_id').onRef('k.ordinal', '=', 'r.ordinal'),
      )
      .innerJoin('surveys as s', 's.id', 'r.survey_id')
      .select([
        's.language',
        'r.survey_id',
        'r.ordinal',
        'r.collector_id',
        'r.response_status',
        'r.date_created',
        'r.total_time',
        'r.pages',
      ])
      .where('r.id', '>', after)
      .where('r.id', '<=', last)
      .where((eb) =>
        eb.or([
          eb('k.ordinal', 'is', null),
          eb('k.response_status', '<>', eb.ref('r.response_status')),
          eb('k.collector_id', '<>', eb.ref('r.collector_id')),
          eb('k.date_created', '<>', eb.ref('r.date_created')),
          eb('k.total_time', '<>', eb.ref('r.total_time')),
          eb('k.sentiments', 'is', null),
        ]),
      )
      .execute();
    for (const { pages, language, ...row } of rows) {
      const answers = JSON.parse(pages);
      await keepKeys(db, row, { ...answerKeys(answers), sentiments: score(answers, language) });
    }
    written += rows.length;
    after = last;
  }
}

/** rewriteKeys for a response read earlier: written only while the response still exists (a
 * response deleted meanwhile must not come back as a row of its answers). */
async function keepKeys(db: Kysely<Database>, row: ResponseRow, kept: KeptAnswers): Promise<void> {
  const r = keysRow(row, kept);
  await db
    .insertInto('response_keys')
    .columns([
      'survey_id',
      'ordinal',
      'collector_id',
      'response_status',
      'date_created',
      'total_time',
      'keys',
      'choices',
      'sentiments',
    ])
    .expression(
      db
        .selectFrom('responses')
        .select([
          'survey_id',
          'ordinal',
          'collector_id',
          'response_status',
          'date_created',
          'total_time',
          sql.val(r.keys).as('keys'),
          sql.val(r.choices).as('choices'),
          sql.val(r.sentiments).as('sentiments'),
        ])
        .where('survey_id', '=', r.survey_id)
        .where('ordinal', '=', r.ordinal),
    )
    .onConflict((oc) =>
      oc.columns(['survey_id', 'ordinal']).doUpdateSet((eb) => ({
        collector_id: eb.ref('excluded.collector_id'),
        response_status: eb.ref('excluded.response_status'),
        date_created: eb.ref('excluded.date_created'),
        total_time: eb.ref('excluded.total_time'),
        keys: eb.ref('excluded.keys'),
        choices: eb.ref('excluded.choices'),
        sentiments: eb.ref('excluded.sentiments'),
      })),
    )
    .execute();
}
