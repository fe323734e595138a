// A quiz survey whose scores are easy to add up by hand (quiz.test.ts, widgets.e2e.test.ts).
import { expect } from 'vitest';
import type { ApiClient } from '../helpers/client.js';

export const H = (heading: string) => [{ heading }];

export const QUIZ_OPTIONS = {
  is_quiz_mode: true,
  show_results_type: 'results_and_answers',
  feedback: {
    ranges_type: 'percentage',
    ranges: [
      { min: 0, max: 49, message: 'Keep practising.' },
      { min: 50, max: 99, message: 'Well done.' },
      { min: 100, max: 100, message: 'Perfect score!' },
    ],
  },
  default_question_feedback: { correct_text: 'Right!', incorrect_text: 'Wrong.', partial_text: 'Almost.' },
};

/** Q1 single (best 10), Q2 multiple (best 5+5), Q3 scoring disabled, Q4 text, Q5 no scores. */
export const QUIZ_PAGES = [
  {
    questions: [
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Capital of France?'),
        quiz_options: {
          scoring_enabled: true,
          feedback: {
            correct_text: 'Yes, Paris.',
            incorrect_text: 'No, it is Paris.',
            partial_text: 'Close.',
          },
        },
        answers: {
          choices: [
            { text: 'Berlin', quiz_options: { score: 0 } },
            { text: 'Paris', quiz_options: { score: 10 } },
            { text: 'Lyon', quiz_options: { score: 5 } },
          ],
        },
      },
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: H('Which are prime?'),
        answers: {
          choices: [
            { text: '2', quiz_options: { score: 5 } },
            { text: '3', quiz_options: { score: 5 } },
            { text: '4', quiz_options: { score: 0 } },
          ],
        },
      },
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Not scored'),
        quiz_options: { scoring_enabled: false },
        answers: { choices: [{ text: 'x', quiz_options: { score: 3 } }, { text: 'y' }] },
      },
      { family: 'open_ended', subtype: 'single', headings: H('Your name') },
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: H('No scores'),
        answers: { choices: [{ text: 'p' }, { text: 'q' }] },
      },
    ],
  },
];

export async function createQuiz(client: ApiClient, token: string, quiz_options: unknown = QUIZ_OPTIONS) {
  const s = await client.post('/v3/surveys', { title: 'Quiz', quiz_options, pages: QUIZ_PAGES }, { token });
  expect(s.status).toBe(201);
  const d = (await client.get(`/v3/surveys/${s.body.id}/details`, { token })).body;
  const [q1, q2, q3, q4] = d.pages[0].questions;
  const c = (q: any, i: number) => q.answers.choices[i].id as string;
  return { id: s.body.id as string, pageId: d.pages[0].id as string, q1, q2, q3, q4, c };
}
