// The analyze page's figures, kept per results stamp. Computing them costs CPU that grows with the
// data (word lists of thousands of long answers, a split by a question, quiz scores), so a page is
// computed once per (survey, filter, compared question) and stamp, and reused until the stamp moves:
// the survey's response count, next ordinal and update count (migration 0049: any acknowledged
// change to its responses moves one of them), its design version, language and quiz settings, read
// in one statement in the request. Requests for the same page while it is being computed wait for
// that one computation. The cache is deps.caches.analyzeResults; clearing it changes no answer.
import type { Deps } from '../../context.js';
import { quizOptions } from '../quiz/score.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import type { ResponseFilters } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { medianSeconds } from './completion-time.js';
import { type Crosstab, isComparable, resultsBy } from './crosstab.js';
import { type DropOff, dropOff } from './dropoff.js';
import type { QuestionRollup } from './rollups.js';
import { type QuizDistribution, quizDistribution } from './scores.js';
import { type SentimentShares, sentimentShares } from './sentiments.js';
import { responseTrend, type Trend } from './trend.js';
import { type QuestionWords, textResults } from './words.js';

export interface AnalyzeResults {
  total: number;
  items: QuestionRollup[];
  compared?: Crosstab;
  /** The latest written answers of the textual questions. */
  texts: Map<string, string[]>;
  words: Map<string, QuestionWords>;
  quiz: QuizDistribution | null;
  trend: Trend;
  /** where respondents stopped, page by page */
  dropOff: DropOff;
  /** the sentiment shares of each open-ended question's answers */
  sentiments: Map<string, SentimentShares>;
  /** the completed responses' median time to complete, in seconds (null: none completed) */
  medianSeconds: number | null;
}

/** Questions whose latest written answers the page lists. */
function textual(questions: IndexedQuestion[]): Set<string> {
  return new Set(
    questions
      .filter((x) => ['open_ended', 'demographic', 'datetime'].includes(x.family) || x.other)
      .map((x) => x.id),
  );
}

/** The survey's results stamp, read now (one statement, so its parts are of one moment). */
async function resultsStamp(deps: Deps, surveyId: string): Promise<string> {
  const row = await deps.db.kysely
    .selectFrom('surveys as s')
    .leftJoin('survey_response_seq as q', 'q.survey_id', 's.id')
    .select([
      's.response_count',
      's.design_version',
      's.language',
      's.quiz_options',
      'q.next_ordinal',
      'q.edits',
    ])
    .where('s.id', '=', surveyId)
    .executeTakeFirst();
  return JSON.stringify(
    row
      ? [
          row.response_count,
          row.next_ordinal,
          row.edits,
          row.design_version,
          row.language,
          JSON.stringify(quizOptions(row)),
        ]
      : null,
  );
}

async function compute(
  deps: Deps,
  survey: SurveyRow,
  index: DesignIndex,
  filters: ResponseFilters,
  questions: IndexedQuestion[],
  by: IndexedQuestion | undefined,
): Promise<AnalyzeResults> {
  // Independent reads, at once (on PostgreSQL they run side by side).
  const [{ total, items, compared }, { texts, words }, quiz, trend, stops, sentiments, median] =
    await Promise.all([
      resultsBy(deps, index, filters, questions, by),
      textResults(deps, survey.language, filters, questions, textual(questions)),
      quizDistribution(deps, survey, index, filters),
      responseTrend(deps, filters),
      dropOff(deps, index, filters),
      sentimentShares(deps, { ...filters, surveyId: survey.id }, questions),
      medianSeconds(deps, { ...filters, surveyId: survey.id }),
    ]);
  return {
    total,
    items,
    compared,
    texts,
    words,
    quiz,
    trend,
    dropOff: stops,
    sentiments,
    medianSeconds: median,
  };
}

/** The analyze page's figures of the responses matching `filters` (already narrowed to what the
 * reader's plan may read), split by `by` when it can split them; `cache` says whether they were
 * computed for this request or reused. */
export async function analyzeResults(
  deps: Deps,
  survey: SurveyRow,
  index: DesignIndex,
  filters: ResponseFilters,
  by: IndexedQuestion | undefined,
): Promise<{ results: AnalyzeResults; cache: 'hit' | 'miss' }> {
  const questions = index.pages.flatMap((p) => p.questions).filter((x) => x.family !== 'presentation');
  const split = by && isComparable(by) ? by : undefined;
  // The design, language and quiz settings the figures are computed with: the request's own.
  const key = JSON.stringify([
    survey.id,
    survey.design_version,
    survey.language,
    survey.quiz_options,
    filters,
    split?.id ?? null,
  ]);
  const stamp = await resultsStamp(deps, survey.id);
  const cache = deps.caches.analyzeResults;
  const kept = cache.get(key);
  if (kept?.stamp === stamp) {
    deps.metrics.resultsCache.inc({ outcome: 'hit' });
    return { results: (await kept.results) as AnalyzeResults, cache: 'hit' };
  }
  deps.metrics.resultsCache.inc({ outcome: 'miss' });
  const results = compute(deps, survey, index, filters, questions, split);
  const entry = { stamp, results };
  cache.set(key, entry);
  try {
    return { results: await results, cache: 'miss' };
  } catch (err) {
    if (cache.get(key) === entry) cache.delete(key);
    throw err;
  }
}
