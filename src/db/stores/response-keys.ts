// response_keys (migration 0045): a response's answers in compact form (domain/responses/answers.ts
// answerKeys) beside the columns the results filter reads, one short row per response keyed like it
// (survey, ordinal). Filtered rollups, compares and figures scan these rows, never `pages`; a choice
// filter is a test of the row's short `choices` text for one token (` q:<choice> `), the same on
// both engines but for the function's name. Rows are written with their response (responses*.ts) and deleted with it
// (a trigger).
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database } from '../schema.js';
import type { ResponseKeysTable } from '../tables/collect.js';
import type { ResponseRow } from './responses.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** A response's answers as response_keys keeps them (domain/responses/answers.ts answerKeys). */
export interface KeptAnswers {
  keys: string;
  choices: string;
}

/** The response_keys row of a response. */
export function keysRow(row: ResponseRow, { keys, choices }: KeptAnswers): ResponseKeysTable {
  return {
    survey_id: row.survey_id,
    ordinal: row.ordinal,
    collector_id: row.collector_id,
    response_status: row.response_status,
    date_created: row.date_created,
    total_time: row.total_time,
    keys,
    choices,
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
      }),
    )
    .execute();
}

/** The token (spaces around) a row's `choices` holds when `question` was answered with `choice`
 * (in any row, or as its "other" choice). */
export function choiceToken(question: string, choice: string): string {
  return ` ${question}:${choice} `;
}

/** "Question `question` was answered with any of `choices`" on a row's `choices` column. */
export function keysHaveChoice(
  dialect: Dialect,
  column: RawBuilder<unknown>,
  question: string,
  choices: string[],
): RawBuilder<SqlBool> {
  const has = (c: string) => {
    const t = choiceToken(question, c);
    return dialect === 'sqlite' ? sql`instr(${column}, ${t}) > 0` : sql`strpos(${column}, ${t}::text) > 0`;
  };
  return sql<SqlBool>`(${sql.join(choices.map(has), sql` OR `)})`;
}
