// Quiz scoring: the one place that decides what a quiz response scored (reference §10.3
// `quiz_results`, §10.5 `is_correct`/`score`). Results are computed from the stored answers and the
// survey's current design whenever they are read (API, finish page, analyze page), so changing a
// choice's score re-scores every response and nothing can drift.
//
// Rules (the reference gives the fields, not how the original fills them):
// - A survey is a quiz when its `quiz_options.is_quiz_mode` is true.
// - A question is scored when it is single_choice or multiple_choice (image choice included) and
//   its `quiz_options.scoring_enabled` is true, or it has no `quiz_options` and some choice carries
//   `quiz_options.score`. `scoring_enabled: false` leaves it out.
// - A choice's score is its `quiz_options.score` (an integer, 0 when absent); the "other" option
//   scores 0. A choice is correct when its score is above 0.
// - A question's best score (what `total_score` adds up): single choice, its highest choice score
//   (0 if none is positive); multiple choice, the sum of its positive scores.
// - A response's question score is the sum of the picked choices' scores (negative scores count).
// - Correct: single choice, the picked choice has the best score (> 0); multiple choice, exactly the
//   correct choices are picked. Partially correct: some correct choice is picked but not the above.
//   Incorrect: otherwise, unanswered questions included, so correct + partially_correct +
//   incorrect = total_questions.
// - The range feedback compares `score` (ranges_type points) or round(100 × score / total_score)
//   (percentage; 0 when total_score is 0) with the inclusive ranges.
import type { Deps } from '../../context.js';
import type { Answer, StoredPage } from '../responses/answers.js';
import { type DesignIndex, designIndex, type IndexedQuestion } from '../responses/design-index.js';
import type { SurveyRow } from '../surveys/access.js';
import type { QuizOptions } from '../surveys/blueprint.js';
import type { Choice } from '../surveys/question-schema.js';

export interface QuizResults {
  correct: number;
  incorrect: number;
  partially_correct: number;
  total_questions: number;
  score: number;
  total_score: number;
}

export type Verdict = 'correct' | 'partial' | 'incorrect';

export interface QuestionScore {
  question: IndexedQuestion;
  verdict: Verdict;
  score: number;
  best: number;
  /** What a right answer picks: single choice, the best-scoring choice(s); multiple choice, every
   * choice that scores above 0. */
  correctChoices: Choice[];
  /** The question's own feedback text for the verdict, else the survey's default (or ''). */
  feedback: string;
}

export interface ScoredResponse {
  results: QuizResults;
  questions: QuestionScore[];
}

/** The survey's quiz options when it is a quiz, else null. */
export function quizOptions(survey: { quiz_options: string | null }): QuizOptions | null {
  if (!survey.quiz_options) return null;
  const q = JSON.parse(survey.quiz_options) as QuizOptions;
  return q.is_quiz_mode ? q : null;
}

export const choiceScore = (c: Choice | undefined): number => c?.quiz_options?.score ?? 0;

export function isScored(q: IndexedQuestion): boolean {
  if (q.family !== 'single_choice' && q.family !== 'multiple_choice') return false;
  const options = q.doc.quiz_options;
  if (options) return options.scoring_enabled;
  return [...q.choices.values()].some((c) => c.quiz_options !== undefined);
}

export function scoredQuestions(index: DesignIndex): IndexedQuestion[] {
  return index.pages.flatMap((p) => p.questions).filter(isScored);
}

function bestScore(q: IndexedQuestion): number {
  const scores = [...q.choices.values()].map(choiceScore).filter((s) => s > 0);
  if (q.family === 'single_choice') return Math.max(0, ...scores);
  return scores.reduce((a, b) => a + b, 0);
}

function verdictOf(q: IndexedQuestion, picked: Choice[]): Verdict {
  const correct = [...q.choices.values()].filter((c) => choiceScore(c) > 0);
  const pickedCorrect = picked.filter((c) => choiceScore(c) > 0);
  if (pickedCorrect.length === 0) return 'incorrect';
  if (q.family === 'single_choice')
    return choiceScore(pickedCorrect[0]) >= bestScore(q) ? 'correct' : 'partial';
  return pickedCorrect.length === correct.length && picked.length === correct.length ? 'correct' : 'partial';
}

function feedbackText(q: IndexedQuestion, options: QuizOptions, verdict: Verdict): string {
  const f = q.doc.quiz_options?.feedback ?? options.default_question_feedback;
  if (!f) return '';
  return verdict === 'correct' ? f.correct_text : verdict === 'partial' ? f.partial_text : f.incorrect_text;
}

/** Scores one response's stored answers against the design. */
export function scoreResponse(index: DesignIndex, options: QuizOptions, pages: StoredPage[]): ScoredResponse {
  const answers = new Map<string, Answer[]>();
  for (const p of pages) for (const q of p.questions) answers.set(q.id, q.answers);
  const results: QuizResults = {
    correct: 0,
    incorrect: 0,
    partially_correct: 0,
    total_questions: 0,
    score: 0,
    total_score: 0,
  };
  const questions: QuestionScore[] = [];
  for (const q of scoredQuestions(index)) {
    const picked = (answers.get(q.id) ?? [])
      .map((a) => (a.choice_id !== undefined ? q.choices.get(a.choice_id) : undefined))
      .filter((c): c is Choice => c !== undefined);
    const score = picked.reduce((s, c) => s + choiceScore(c), 0);
    const best = bestScore(q);
    const verdict = verdictOf(q, picked);
    results.total_questions++;
    results.total_score += best;
    results.score += score;
    if (verdict === 'correct') results.correct++;
    else if (verdict === 'partial') results.partially_correct++;
    else results.incorrect++;
    questions.push({
      question: q,
      verdict,
      score,
      best,
      correctChoices: [...q.choices.values()].filter(
        (c) => choiceScore(c) > 0 && (q.family === 'multiple_choice' || choiceScore(c) === best),
      ),
      feedback: feedbackText(q, options, verdict),
    });
  }
  return { results, questions };
}

/** `is_correct` and `score` for a choice answer of a scored question, else null. */
export function answerMarks(
  q: IndexedQuestion | undefined,
  a: Answer,
): { is_correct: boolean; score: number } | null {
  if (!q || a.choice_id === undefined || !isScored(q)) return null;
  const c = q.choices.get(a.choice_id);
  if (!c) return null;
  const score = choiceScore(c);
  return { is_correct: score > 0, score };
}

/** The value the feedback ranges are compared with: points, or a whole percentage. */
export function rangeValue(options: QuizOptions, r: QuizResults): number {
  if (options.feedback.ranges_type === 'percentage')
    return r.total_score > 0 ? Math.round((100 * r.score) / r.total_score) : 0;
  return r.score;
}

/** The feedback message of the range the result falls in, if ranges are on and one matches. */
export function rangeMessage(options: QuizOptions, r: QuizResults): string | null {
  if (options.feedback.ranges_type === 'disabled') return null;
  const v = rangeValue(options, r);
  return options.feedback.ranges.find((x) => x.min <= v && v <= x.max)?.message ?? null;
}

export interface QuizContext {
  index: DesignIndex;
  options: QuizOptions;
}

/** What presenting a survey's responses needs for scoring, or undefined when it is no quiz. */
export async function quizContext(deps: Deps, survey: SurveyRow): Promise<QuizContext | undefined> {
  const options = quizOptions(survey);
  return options ? { index: await designIndex(deps, survey), options } : undefined;
}
