// The respondent's quiz results on the finish page, as the survey's `quiz_options.show_results_type`
// says: nothing (disabled), the score with the feedback of its range (results_only), or also each
// scored question with the answer given, the verdict, its feedback and the right answer
// (results_and_answers). The scoring itself is src/domain/quiz/score.ts.
import {
  quizOptions,
  rangeMessage,
  rangeValue,
  scoreResponse,
  type Verdict,
} from '../../domain/quiz/score.js';
import type { DesignIndex } from '../../domain/responses/design-index.js';
import { type ResponseRow, storedPages } from '../../domain/responses/responses.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import type { Choice } from '../../domain/surveys/question-schema.js';
import { type Html, html } from '../html.js';
import { richText } from '../surveys/render-question.js';

const VERDICT: Record<Verdict, string> = {
  correct: 'Correct',
  partial: 'Partially correct',
  incorrect: 'Incorrect',
};

const names = (choices: Choice[]) => choices.map((c) => c.text.replace(/<[^>]*>/g, '')).join(', ');

export function quizResultsSection(
  survey: SurveyRow,
  index: DesignIndex,
  response: Pick<ResponseRow, 'pages'>,
): Html | string {
  const options = quizOptions(survey);
  if (!options || options.show_results_type === 'disabled') return '';
  const pages = storedPages(response);
  const { results, questions } = scoreResponse(index, options, pages);
  const message = rangeMessage(options, results);
  const percent =
    options.feedback.ranges_type === 'percentage'
      ? rangeValue(options, results)
      : results.total_score > 0
        ? Math.round((100 * results.score) / results.total_score)
        : 0;
  const picked = new Map<string, string[]>();
  for (const p of pages)
    for (const q of p.questions)
      picked.set(
        q.id,
        q.answers.flatMap((a) => a.choice_id ?? []),
      );
  const answers =
    options.show_results_type === 'results_and_answers'
      ? html`<ol class="quiz-answers">${questions.map((s) => {
          const given = (picked.get(s.question.id) ?? [])
            .map((id) => s.question.choices.get(id))
            .filter((c): c is Choice => c !== undefined);
          return html`<li class="quiz-answer ${s.verdict}" id="qa${s.question.id}"><p class="quiz-question">${richText(s.question.heading)}</p>
<p><span class="verdict">${VERDICT[s.verdict]}</span> · ${s.score} of ${s.best} ${s.best === 1 ? 'point' : 'points'}</p>
<p>Your answer: ${given.length > 0 ? names(given) : 'none'}</p>
${s.verdict !== 'correct' && s.correctChoices.length > 0 ? html`<p>Correct answer: ${names(s.correctChoices)}</p>` : ''}
${s.feedback ? html`<p class="quiz-feedback">${s.feedback}</p>` : ''}</li>`;
        })}</ol>`
      : '';
  return html`<section class="quiz-results" aria-labelledby="quiz-results-title">
<h2 id="quiz-results-title">Your results</h2>
<p class="quiz-score" id="quiz-score"><strong>${results.score}</strong> of ${results.total_score} ${results.total_score === 1 ? 'point' : 'points'} (${percent}%)</p>
<p>${results.correct} correct, ${results.partially_correct} partially correct, ${results.incorrect} incorrect, of ${results.total_questions} ${results.total_questions === 1 ? 'question' : 'questions'}.</p>
${message ? html`<p class="quiz-message" id="quiz-message">${message}</p>` : ''}
${answers}</section>`;
}
