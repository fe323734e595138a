// Figures the analyze page shows beside the counts: the Net Promoter Score of a 0–10 question, the
// average and distribution of rating questions (stars included), and the distribution of quiz
// scores. NPS and ratings come from the rollup counts; quiz scores from scoring each response.
import type { Deps } from '../../context.js';
import { Slices } from '../../platform/slices.js';
import { quizOptions, scoreResponse } from '../quiz/score.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { exportBatches, type ResponseFilters, storedPages } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { isNpsQuestion } from '../surveys/nps.js';
import type { QuestionSummary } from './rollups.js';

const rated = (q: IndexedQuestion) => q.family === 'matrix' && q.subtype === 'rating';
const visibleRows = (q: IndexedQuestion) => [...q.rows.values()].filter((r) => r.visible);

export const isNps = (q: IndexedQuestion): boolean => isNpsQuestion(q);

export interface Nps {
  /** % promoters − % detractors, rounded: −100..100. */
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
  answered: number;
}

/** Promoters answer 9–10, passives 7–8, detractors 0–6. */
export function npsOf(q: IndexedQuestion, summary: QuestionSummary): Nps {
  const row = summary.rows?.[0];
  const out: Nps = { score: 0, promoters: 0, passives: 0, detractors: 0, answered: 0 };
  for (const c of row?.choices ?? []) {
    const w = q.choices.get(c.id)?.weight ?? 0;
    if (w >= 9) out.promoters += c.count;
    else if (w >= 7) out.passives += c.count;
    else out.detractors += c.count;
    out.answered += c.count;
  }
  if (out.answered > 0) out.score = Math.round((100 * (out.promoters - out.detractors)) / out.answered);
  return out;
}

export interface RowRating {
  rowId: string;
  /** Mean weight of the answers, null when nobody answered. */
  average: number | null;
  answered: number;
  /** Count per choice, in the design's order (weight ascending for stars). */
  distribution: Array<{ choiceId: string; weight: number; count: number }>;
}

/** Average and distribution per row of a rating question (weights; N/A choices left out). */
export function ratingsOf(q: IndexedQuestion, summary: QuestionSummary): RowRating[] | null {
  if (!rated(q) || isNps(q)) return null;
  return visibleRows(q).map((r) => {
    const counts = summary.rows?.find((x) => x.id === r.id)?.choices ?? [];
    const distribution = [...q.choices.values()]
      .filter((c) => !c.is_na)
      .map((c) => ({
        choiceId: c.id,
        weight: c.weight ?? c.position,
        count: counts.find((x) => x.id === c.id)?.count ?? 0,
      }));
    const answered = distribution.reduce((s, d) => s + d.count, 0);
    const sum = distribution.reduce((s, d) => s + d.count * d.weight, 0);
    return { rowId: r.id, answered, average: answered > 0 ? sum / answered : null, distribution };
  });
}

export interface QuizDistribution {
  totalScore: number;
  /** Responses per score band covering the lowest score seen (or 0) to total_score: one score per
   * band up to 12 scores, wider bands beyond (at most 12 bands, so the chart stays short). */
  bands: Array<{ from: number; to: number; count: number }>;
  average: number | null;
  responses: number;
}

/** Responses read per statement when scoring a quiz. */
const QUIZ_BATCH = 200;

/** How the matching responses of a quiz scored, or null when the survey is no quiz. */
export async function quizDistribution(
  deps: Deps,
  survey: SurveyRow,
  index: DesignIndex,
  filters: ResponseFilters,
): Promise<QuizDistribution | null> {
  const options = quizOptions(survey);
  if (!options) return null;
  const counts = new Map<number, number>();
  let totalScore = 0;
  let sum = 0;
  let n = 0;
  // Every matching response is parsed and scored: a page of them at a time, in slices, so a quiz
  // of many responses never holds the event loop.
  const slices = new Slices();
  for await (const rows of exportBatches(deps, filters, QUIZ_BATCH))
    for (const row of rows) {
      const { results } = scoreResponse(index, options, storedPages(row));
      totalScore = results.total_score;
      counts.set(results.score, (counts.get(results.score) ?? 0) + 1);
      sum += results.score;
      n++;
      if (slices.due()) await slices.yield();
    }
  if (n === 0) totalScore = scoreResponse(index, options, []).results.total_score;
  const low = Math.min(0, ...counts.keys());
  const high = Math.max(totalScore, ...counts.keys());
  const width = Math.ceil((high - low + 1) / 12);
  const bands = [];
  for (let from = low; from <= high; from += width) {
    const to = Math.min(high, from + width - 1);
    let count = 0;
    for (const [score, k] of counts) if (score >= from && score <= to) count += k;
    bands.push({ from, to, count });
  }
  return { totalScore, bands, average: n > 0 ? sum / n : null, responses: n };
}
