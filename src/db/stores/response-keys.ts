// response_keys (migration 0045): a response's answers in compact form (domain/responses/answers.ts
// answerKeys) beside the columns the results filter reads, one short row per response keyed like it
// (survey, ordinal). Filtered rollups, compares and figures scan these rows, never `pages`; a choice
// filter is a test of the row's text for a token (` q|c:<choice> `), the same on both engines but
// for the function's name. Rows are written with their response (responses*.ts) and deleted with it
// (a trigger).
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database } from '../schema.js';
import type { ResponseKeysTable } from '../tables/collect.js';
import type { ResponseRow } from './responses.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The response_keys row of a response. */
export function keysRow(row: ResponseRow, keys: string): ResponseKeysTable {
  return {
    survey_id: row.survey_id,
    ordinal: row.ordinal,
    collector_id: row.collector_id,
    response_status: row.response_status,
    date_created: row.date_created,
    total_time: row.total_time,
    keys,
  };
}

/** Writes a response's row again (an update changed its answers, status, date or time). */
export async function rewriteKeys(executor: Executor, row: ResponseRow, keys: string): Promise<void> {
  const r = keysRow(row, keys);
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
      }),
    )
    .execute();
}

/** The tokens (spaces around) of which `keys` holds one when `question` was answered with `choice`:
 * without a row, in a row, or as its "other" choice (domain/responses/answers.ts answerKeys). */
export function choiceTokens(question: string, choice: string): string[] {
  return [` ${question}|c:${choice} `, ` ${question}|a:${choice} `, ` ${question}|o:${choice} `];
}

/** "Question `question` was answered with any of `choices`" on the row's `keys`. */
export function keysHaveChoice(
  dialect: Dialect,
  keys: RawBuilder<unknown>,
  question: string,
  choices: string[],
): RawBuilder<SqlBool> {
  const tokens = choices.flatMap((c) => choiceTokens(question, c));
  const has = (t: string) =>
    dialect === 'sqlite' ? sql`instr(${keys}, ${t}) > 0` : sql`strpos(${keys}, ${t}::text) > 0`;
  return sql<SqlBool>`(${sql.join(tokens.map(has), sql` OR `)})`;
}
