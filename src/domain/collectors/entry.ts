// The respondent's entry: what every request of a respondent page reads first, the collector behind
// the link's token, its survey and the survey's enabled translations, in one statement. On SQLite
// that is one read transaction (one lock pair on the WAL index instead of three: the locks were a
// fifth of a new visitor's page); on PostgreSQL one round trip. The process keeps the last answer
// per token (deps.caches.respondentEntries): when a read finds the same values, response counts
// aside, it hands back the kept rows, parsed once, under the same `stamp`, and pages kept from them
// (web/respond/page-cache.ts) are keyed by that stamp rather than by every value of both rows.
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { CollectorsTable } from '../../db/tables/collect.js';
import type { SurveysTable } from '../../db/tables/surveys.js';
import { type Collector, parseCollector } from './collectors.js';

/** A collector with its survey and the survey's enabled translation languages, as one read found
 * them. */
export interface RespondentEntry {
  /** the read's first row: the collector's columns, the survey's, a language */
  values: unknown[];
  collector: Collector;
  survey: Selectable<SurveysTable>;
  languages: string[];
  /** names these values (response counts aside) in this process */
  stamp: number;
}

// Every column of both rows, in the statement's order (the checks below fail to compile when a
// table gains a column that is not here).
const COLLECTOR = [
  'id',
  'survey_id',
  'owner_id',
  'type',
  'status',
  'name',
  'url_token',
  'password_hash',
  'close_date',
  'response_limit',
  'response_count',
  'options',
  'date_created',
  'date_modified',
] as const satisfies readonly (keyof CollectorsTable)[];
const SURVEY = [
  'id',
  'owner_id',
  'title',
  'nickname',
  'language',
  'category',
  'folder_id',
  'buttons_text',
  'custom_variables',
  'footer',
  'theme_id',
  'quiz_options',
  'logo_url',
  'theme_color',
  'question_layout',
  'calculated_variables',
  'question_count',
  'page_count',
  'design_version',
  'response_count',
  'preview_token',
  'manage_token',
  'date_created',
  'date_modified',
] as const satisfies readonly (keyof SurveysTable)[];
type Every<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const collectorListed: Every<keyof CollectorsTable, (typeof COLLECTOR)[number]> = true;
const surveyListed: Every<keyof SurveysTable, (typeof SURVEY)[number]> = true;
void collectorListed;
void surveyListed;

// The response counts move with every response and show on no page; they are read fresh each time.
const COLLECTOR_COUNT = COLLECTOR.indexOf('response_count');
const SURVEY_COUNT = COLLECTOR.length + SURVEY.indexOf('response_count');
const LANGUAGE = COLLECTOR.length + SURVEY.length;

function rowOf<T>(columns: readonly string[], values: unknown[], from: number): T {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]] = values[from + i];
  return row as T;
}

/** Whether two reads of the entry hold the same values, response counts aside. */
function sameValues(a: unknown[], b: unknown[]): boolean {
  for (let i = 0; i < LANGUAGE; i++)
    if (a[i] !== b[i] && i !== COLLECTOR_COUNT && i !== SURVEY_COUNT) return false;
  return true;
}

function sameLanguages(kept: string[], rows: unknown[][]): boolean {
  if (rows[0][LANGUAGE] === null) return kept.length === 0;
  return kept.length === rows.length && rows.every((r, i) => r[LANGUAGE] === kept[i]);
}

/** The collector of a link's token with its survey and the survey's enabled translation languages
 * (sorted), as stored now; undefined for no such collector. */
export async function entryByToken(deps: Deps, token: string): Promise<RespondentEntry | undefined> {
  const { db } = deps;
  const rows = await deps.caches.entryStatement.get(() =>
    prepareQuery<object, [string]>(
      db,
      1,
      (token) =>
        db.kysely
          .selectFrom('collectors as c')
          .innerJoin('surveys as s', 's.id', 'c.survey_id')
          .leftJoin('survey_translations as t', (join) =>
            join.onRef('t.survey_id', '=', 's.id').on('t.enabled', '=', 1),
          )
          .select([
            ...COLLECTOR.map((c) => `c.${c}` as const),
            ...SURVEY.map((c) => `s.${c}` as const),
            't.language',
          ])
          .where('c.url_token', '=', token)
          .orderBy('t.language'),
      { arrays: true },
    ),
  )(token);
  if (rows.length === 0) return undefined;
  const values = rows[0];
  const collectorCount = values[COLLECTOR_COUNT] as number;
  const surveyCount = values[SURVEY_COUNT] as number;
  const kept = deps.caches.respondentEntries.get(token) as RespondentEntry | undefined;
  if (kept && sameValues(kept.values, values) && sameLanguages(kept.languages, rows)) {
    if (kept.collector.response_count === collectorCount && kept.survey.response_count === surveyCount)
      return kept;
    const fresh: RespondentEntry = {
      ...kept,
      collector: { ...kept.collector, response_count: collectorCount },
      survey: { ...kept.survey, response_count: surveyCount },
    };
    deps.caches.respondentEntries.set(token, fresh);
    return fresh;
  }
  const entry: RespondentEntry = {
    values,
    collector: parseCollector(rowOf<Selectable<CollectorsTable>>(COLLECTOR, values, 0)),
    survey: rowOf<Selectable<SurveysTable>>(SURVEY, values, COLLECTOR.length),
    languages: values[LANGUAGE] === null ? [] : rows.map((r) => r[LANGUAGE] as string),
    stamp: deps.caches.respondentEntries.stamp(),
  };
  deps.caches.respondentEntries.set(token, entry);
  return entry;
}
