// The SQL of a filter by answer: "responses whose answer to question Q …" as one parameterised
// condition on `responses`. A choice is a token test of the response's response_keys row (one
// primary-key read: response-keys.ts); a number range or "contains" text is an EXISTS over the
// response's `pages` JSON (the same text column on both engines), which differ only in how a JSON
// array is walked (json_each / jsonb_array_elements); what each condition means is written once
// below. Field names are constants of this file; every value a user gives is bound.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../database.js';
import { keysHaveChoice } from './response-keys.js';

export type AnswerCondition =
  /** An answer with any of these choices (or the "other" choice), in any row. */
  | { question: string; kind: 'choices'; choices: string[] }
  /** A numeric text answer within [min, max] (either bound may be open). */
  | { question: string; kind: 'range'; min?: number; max?: number }
  /** A text answer containing `text`, case-insensitively (ASCII case on SQLite). */
  | { question: string; kind: 'contains'; text: string }
  /** A written answer whose kept sentiment is any of `labels` (response_keys.sentiments). */
  | { question: string; kind: 'sentiment'; labels: string[] };

type Field = 'text';

function engine(dialect: Dialect) {
  return dialect === 'sqlite'
    ? {
        answers: sql`json_each(responses.pages) p, json_each(p.value, '$.questions') q, json_each(q.value, '$.answers') a`,
        questionId: sql`json_extract(q.value, '$.id')`,
        field: (f: Field) => sql`json_extract(a.value, ${sql.lit(`$.${f}`)})`,
        number: (t: RawBuilder<unknown>) =>
          // A number's characters only (CAST would read any other text as 0).
          sql`(CASE WHEN trim(${t}) GLOB '*[0-9]*' AND trim(${t}) NOT GLOB '*[^0-9.eE+-]*' THEN CAST(trim(${t}) AS REAL) END)`,
        contains: (t: RawBuilder<unknown>, needle: string) => sql`instr(lower(${t}), lower(${needle})) > 0`,
        mentions: (id: string) => sql`instr(responses.pages, ${`"${id}"`}) > 0`,
      }
    : {
        answers: sql`jsonb_array_elements(responses.pages::jsonb) p(value), jsonb_array_elements(p.value->'questions') q(value), jsonb_array_elements(q.value->'answers') a(value)`,
        questionId: sql`(q.value->>'id')`,
        field: (f: Field) => sql`(a.value->>${sql.lit(f)})`,
        number: (t: RawBuilder<unknown>) =>
          // Bounded digits: float8 refuses what overflows or underflows with an error, not a NULL.
          sql`(CASE WHEN ${t} ~ '^\\s*[-+]?([0-9]{1,200}\\.?[0-9]{0,30}|\\.[0-9]{1,30})([eE][-+]?[0-9]{1,2})?\\s*$' THEN (${t})::float8 END)`,
        contains: (t: RawBuilder<unknown>, needle: string) =>
          sql`strpos(lower(${t}), lower(${needle}::text)) > 0`,
        mentions: (id: string) => sql`strpos(responses.pages, ${`"${id}"`}::text) > 0`,
      };
}

/** The WHERE condition (on `responses`) of one answer condition. */
export function answerCondition(dialect: Dialect, c: AnswerCondition): RawBuilder<SqlBool> {
  if (c.kind === 'choices')
    return sql<SqlBool>`EXISTS (SELECT 1 FROM response_keys k WHERE k.survey_id = responses.survey_id AND k.ordinal = responses.ordinal AND ${keysHaveChoice(dialect, sql.ref('k.choices'), c.question, c.choices)})`;
  if (c.kind === 'sentiment')
    return sql<SqlBool>`EXISTS (SELECT 1 FROM response_keys k WHERE k.survey_id = responses.survey_id AND k.ordinal = responses.ordinal AND ${keysHaveChoice(dialect, sql.ref('k.sentiments'), c.question, c.labels)})`;
  const e = engine(dialect);
  let test: RawBuilder<unknown>;
  if (c.kind === 'range') {
    const n = e.number(e.field('text'));
    const parts = [sql`${n} IS NOT NULL`];
    if (c.min !== undefined) parts.push(sql`${n} >= ${c.min}`);
    if (c.max !== undefined) parts.push(sql`${n} <= ${c.max}`);
    test = sql.join(parts, sql` AND `);
  } else {
    test = e.contains(e.field('text'), c.text);
  }
  // First a test of the stored text itself, which rules out most non-matching responses without
  // walking their JSON: an answer to the question carries the question's id as a JSON string
  // ("123"). Ids are digit strings unique across the service, and text is stored JSON-escaped (a
  // quote inside a text is \"), so no other part of the document holds that quoted id: the test is
  // necessary, never sufficient alone, and the EXISTS decides.
  return sql<SqlBool>`(${e.mentions(c.question)} AND EXISTS (SELECT 1 FROM ${e.answers} WHERE ${e.questionId} = ${c.question} AND ${test}))`;
}
