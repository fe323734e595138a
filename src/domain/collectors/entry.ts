// The respondent's entry: what every request of a respondent page reads first, the collector behind
// the link's token, its survey and the survey's enabled translations, in one statement. On SQLite
// that is one read transaction (one lock pair on the WAL index instead of three: the locks were a
// fifth of a new visitor's page); on PostgreSQL one round trip. Both rows but their response counts
// come as one JSON array text, so a read hands the driver four columns, not forty (on PostgreSQL
// each column of each result costs the driver a parser and a name). The process keeps the last
// answer per token (deps.caches.respondentEntries): when a read finds the same text, it hands back
// the rows parsed once, with this read's counts, under the same `stamp`, and pages kept from them
// (web/respond/page-cache.ts) are keyed by that stamp rather than by every value of both rows.
import { type Selectable, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { CollectorsTable } from '../../db/tables/collect.js';
import type { SurveysTable } from '../../db/tables/surveys.js';
import { type Collector, parseCollector } from './collectors.js';

/** A collector with its survey and the survey's enabled translation languages, as one read found
 * them. */
export interface RespondentEntry {
  /** both rows' values but the response counts, as the read's JSON array text */
  text: string;
  collector: Collector;
  survey: Selectable<SurveysTable>;
  languages: string[];
  /** names these values (response counts aside) in this process */
  stamp: number;
}

// Every column of both rows (the checks below fail to compile when a table gains a column that is
// not here).
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

// The response counts move with every response and show on no page: read as columns of their own.
const COLLECTOR_SHOWN = COLLECTOR.filter((c) => c !== 'response_count');
const SURVEY_SHOWN = SURVEY.filter((c) => c !== 'response_count');

function rowOf<T>(columns: readonly string[], values: unknown[], from: number, count: number): T {
  const row: Record<string, unknown> = { response_count: count };
  for (let i = 0; i < columns.length; i++) row[columns[i]] = values[from + i];
  return row as T;
}

function sameLanguages(kept: string[], rows: unknown[][]): boolean {
  if (rows[0][3] === null) return kept.length === 0;
  return kept.length === rows.length && rows.every((r, i) => r[3] === kept[i]);
}

/** The statement's rows for a token, shared by the requests of one link that arrive together
 * (deps.caches.entryReads). On PostgreSQL, where the read is a round trip, a read of the same token
 * still in flight is joined rather than sent again. On SQLite the read answers at once, so the
 * requests handled in the same turn of the event loop (until its check phase) take its answer
 * (the read took a seventh of a new visitor's page). A request may so see the link as it was up
 * to one round trip, or one turn, before it arrived, as if it had come that much sooner; what a
 * post changes is decided with its write (a closed or full collector refuses the insert). */
function sharedRead(deps: Deps, token: string): Promise<unknown[][]> {
  const reads = deps.caches.entryReads;
  const shared = reads.get(token);
  if (shared) return shared;
  let read = readEntry(deps, token);
  if (deps.db.pg) read = read.finally(() => reads.delete(token));
  else if (reads.size === 0) setImmediate(() => reads.clear());
  reads.set(token, read);
  return read;
}

function readEntry(deps: Deps, token: string): Promise<unknown[][]> {
  const { db } = deps;
  return deps.caches.entryStatement.get(() => {
    const columns = [...COLLECTOR_SHOWN.map((c) => `c.${c}`), ...SURVEY_SHOWN.map((c) => `s.${c}`)];
    // (as text on PostgreSQL, whose driver would parse a json column on every read)
    const [array, asText] = db.pg
      ? [sql.raw('json_build_array'), sql.raw('::text')]
      : [sql.raw('json_array'), sql.raw('')];
    return prepareQuery<object, [string]>(
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
            sql<string>`${array}(${sql.join(columns.map((c) => sql.ref(c)))})${asText}`.as('shown'),
            'c.response_count as collector_count',
            's.response_count as survey_count',
            't.language',
          ])
          .where('c.url_token', '=', token)
          .orderBy('t.language'),
      { arrays: true },
    );
  })(token);
}

/** The collector of a link's token with its survey and the survey's enabled translation languages
 * (sorted), as stored now; undefined for no such collector. */
export async function entryByToken(deps: Deps, token: string): Promise<RespondentEntry | undefined> {
  const rows = await sharedRead(deps, token);
  if (rows.length === 0) return undefined;
  const [text, collectorCount, surveyCount] = rows[0] as [string, number, number];
  const kept = deps.caches.respondentEntries.get(token) as RespondentEntry | undefined;
  if (kept && kept.text === text && sameLanguages(kept.languages, rows)) {
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
  const values = JSON.parse(text) as unknown[];
  const entry: RespondentEntry = {
    text,
    collector: parseCollector(rowOf<Selectable<CollectorsTable>>(COLLECTOR_SHOWN, values, 0, collectorCount)),
    survey: rowOf<Selectable<SurveysTable>>(SURVEY_SHOWN, values, COLLECTOR_SHOWN.length, surveyCount),
    languages: rows[0][3] === null ? [] : rows.map((r) => r[3] as string),
    stamp: deps.caches.respondentEntries.stamp(),
  };
  deps.caches.respondentEntries.set(token, entry);
  return entry;
}
