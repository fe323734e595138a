// The one filter of the results pages (analyze, summary, responses, the download and shared
// results): dates, collector, completeness and answers. It lives in the URL query, so a filtered page
// is a bookmark:
//   start, end          YYYY-MM-DD (end takes the whole day)
//   collector           a collector id
//   status              completed | partial | disqualified | overquota (repeatable; any of them)
//   a=<q>:<choice>      the question was answered with this choice (repeatable: several choices
//                       of one question are "any of", different questions are "and")
//   min_<q>, max_<q>    a number answer within a range
//   has_<q>             a text answer containing this text
//   sentiment_<q>       positive | neutral | negative | not_analysed: the written answer's kept
//                       sentiment (repeatable: any of them; responses/sentiment.ts)
// Everything is checked against the survey's design: an unknown question or choice is dropped, never
// sent to the database. The SQL is the responses store's (db/stores/answer-filter.ts).
import type { AnswerCondition } from '../../db/stores/answer-filter.js';
import { parseApiDate } from '../../platform/dates.js';
import { isOneOf } from '../../platform/lists.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { RESPONSE_STATUSES, type ResponseFilters, type ResponseStatus } from '../responses/responses.js';
import { SENTIMENTS } from '../responses/sentiment.js';

export type { AnswerCondition };

export interface ResultFilter {
  start?: string;
  end?: string;
  collector?: string;
  status: ResponseStatus[];
  answers: AnswerCondition[];
}

export type FilterQuery = Record<string, string | string[] | undefined>;

/** At most this many answer conditions (each is one EXISTS over the answers). */
const MAX_CONDITIONS = 20;
const MAX_TEXT = 200;

const isDay = (v: unknown): v is string =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && parseApiDate(v) !== null;

const all = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];
const first = (v: string | string[] | undefined): string | undefined => all(v)[0];

/** Questions whose answers are numbers (a range filter). */
export function isNumberQuestion(q: IndexedQuestion): boolean {
  return q.family === 'open_ended' && (q.subtype === 'numerical' || q.displayType === 'slider');
}
/** Questions answered in words (a "contains" filter). */
export function isTextQuestion(q: IndexedQuestion): boolean {
  return ['open_ended', 'demographic', 'datetime'].includes(q.family) && !isNumberQuestion(q);
}
/** Questions whose written answers are scored for sentiment: open-ended text (not numbers or
 * files) and the "Other" text of choice questions (what words.ts counts words of). */
export function isSentimentQuestion(q: IndexedQuestion): boolean {
  if (q.family === 'open_ended') return !isNumberQuestion(q) && q.displayType !== 'file_upload';
  return q.other !== null;
}
/** Every choice id a question's answers can carry. */
export function choiceIds(q: IndexedQuestion): Set<string> {
  const ids = new Set(q.choices.keys());
  for (const { choices } of q.cols.values()) for (const id of choices.keys()) ids.add(id);
  if (q.other) ids.add(q.other.id);
  return ids;
}

function number(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The filter a URL query asks for, keeping only what the survey's design knows. */
export function parseFilter(query: FilterQuery, index: DesignIndex): ResultFilter {
  const start = first(query.start);
  const end = first(query.end);
  const collector = first(query.collector);
  const status = [...new Set(all(query.status))].filter((s): s is ResponseStatus =>
    (RESPONSE_STATUSES as readonly string[]).includes(s),
  );
  const chosen = new Map<string, string[]>();
  for (const v of all(query.a)) {
    const [qid, cid] = v.split(':');
    const q = index.questions.get(qid ?? '');
    if (!q || !cid || !choiceIds(q).has(cid)) continue;
    const list = chosen.get(qid) ?? [];
    if (!list.includes(cid)) list.push(cid);
    chosen.set(qid, list);
  }
  const answers: AnswerCondition[] = [...chosen].map(([question, choices]) => ({
    question,
    kind: 'choices',
    choices,
  }));
  for (const q of index.questions.values()) {
    if (isNumberQuestion(q)) {
      const min = number(first(query[`min_${q.id}`]));
      const max = number(first(query[`max_${q.id}`]));
      if (min !== undefined || max !== undefined) answers.push({ question: q.id, kind: 'range', min, max });
    }
    const has = first(query[`has_${q.id}`])?.trim().slice(0, MAX_TEXT);
    if (has && (isTextQuestion(q) || q.other)) answers.push({ question: q.id, kind: 'contains', text: has });
    const labels = [...new Set(all(query[`sentiment_${q.id}`]))].filter((l) => isOneOf(SENTIMENTS, l));
    if (labels.length > 0 && isSentimentQuestion(q))
      answers.push({ question: q.id, kind: 'sentiment', labels });
  }
  return {
    start: isDay(start) ? start : undefined,
    end: isDay(end) ? end : undefined,
    collector: collector && /^\d{1,20}$/.test(collector) ? collector : undefined,
    status,
    answers: answers.slice(0, MAX_CONDITIONS),
  };
}

/** The URL query of a filter (the inverse of parseFilter), with `extra` pairs after it. */
export function filterQuery(f: ResultFilter, extra: Record<string, string> = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (f.start) p.set('start', f.start);
  if (f.end) p.set('end', f.end);
  if (f.collector) p.set('collector', f.collector);
  for (const s of f.status) p.append('status', s);
  for (const c of f.answers) {
    if (c.kind === 'choices') for (const id of c.choices) p.append('a', `${c.question}:${id}`);
    else if (c.kind === 'range') {
      if (c.min !== undefined) p.set(`min_${c.question}`, String(c.min));
      if (c.max !== undefined) p.set(`max_${c.question}`, String(c.max));
    } else if (c.kind === 'sentiment') for (const l of c.labels) p.append(`sentiment_${c.question}`, l);
    else p.set(`has_${c.question}`, c.text);
  }
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p;
}

/** `?query` of a filter, or '' when it filters nothing. */
export function filterSearch(f: ResultFilter, extra: Record<string, string> = {}): string {
  const s = filterQuery(f, extra).toString();
  return s ? `?${s}` : '';
}

export function isFiltered(f: ResultFilter): boolean {
  return Boolean(f.start || f.end || f.collector || f.status.length || f.answers.length);
}

/** `f` with one more answer condition (a "contains" replaces the question's earlier one). */
export function withCondition(f: ResultFilter, c: AnswerCondition): ResultFilter {
  return {
    ...f,
    answers: [...f.answers.filter((x) => !(x.question === c.question && x.kind === c.kind)), c],
  };
}

/** The responses store's filters of `f` on a survey. */
export function responseFilters(surveyId: string, f: ResultFilter): ResponseFilters {
  return {
    surveyId,
    collectorIds: f.collector ? [f.collector] : undefined,
    startCreated: f.start ? (parseApiDate(f.start) ?? undefined) : undefined,
    // The whole day, to its last millisecond (dates are stored to the millisecond).
    endCreated: f.end ? (parseApiDate(`${f.end}T23:59:59.999`) ?? undefined) : undefined,
    status: f.status.length ? f.status : undefined,
    answers: f.answers.length ? f.answers : undefined,
  };
}
