// Quiz scoring through the API (rules: src/domain/quiz/score.ts), against a table computed by hand:
// single, bulk and details carry the same quiz_results and per-answer marks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../helpers/client.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createQuiz, H, QUIZ_OPTIONS } from './quiz-fixture.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('quiz scoring', () => {
  it('scores single, partial, wrong and empty responses as the hand-computed table says', async () => {
    const a = await server.account({ plan: 'premier' });
    const quiz = await createQuiz(server.client, a.token);
    const { q1, q2, q3, q4, c } = quiz;
    const col = await server.client.post(
      `/v3/surveys/${quiz.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    const answer = (q: any, ...ids: string[]) => ({
      id: q.id,
      answers: ids.map((choice_id) => ({ choice_id })),
    });
    // [answers, expected quiz_results]
    const table: Array<[any[], Record<string, number>]> = [
      // Paris (10) + 2 and 3 (5 + 5): both right
      [
        [answer(q1, c(q1, 1)), answer(q2, c(q2, 0), c(q2, 1)), answer(q3, c(q3, 0))],
        { correct: 2, partially_correct: 0, incorrect: 0, score: 20 },
      ],
      // Lyon (5, not the best) + only 2 (5): both partial
      [
        [answer(q1, c(q1, 2)), answer(q2, c(q2, 0))],
        { correct: 0, partially_correct: 2, incorrect: 0, score: 10 },
      ],
      // Berlin (0): wrong; 2, 3 and 4 (5 + 5 + 0): a wrong one picked too, partial
      [
        [answer(q1, c(q1, 0)), answer(q2, c(q2, 0), c(q2, 1), c(q2, 2))],
        { correct: 0, partially_correct: 1, incorrect: 1, score: 10 },
      ],
      // nothing scored answered: both count as incorrect
      [
        [{ id: q4.id, answers: [{ text: 'Ann' }] }],
        { correct: 0, partially_correct: 0, incorrect: 2, score: 0 },
      ],
    ];
    const ids: string[] = [];
    for (const [questions, expected] of table) {
      const res = await server.client.post(
        `/v3/collectors/${col.body.id}/responses`,
        { pages: [{ id: quiz.pageId, questions }] },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      expect(res.body.quiz_results).toEqual({ ...expected, total_questions: 2, total_score: 20 });
      ids.push(res.body.id);
    }
    const expectedResults = table.map(([, e]) => ({ ...e, total_questions: 2, total_score: 20 }));

    const bulk = await server.client.get(`/v3/surveys/${quiz.id}/responses/bulk`, { token: a.token });
    expect(bulk.body.data.map((r: any) => r.quiz_results)).toEqual(expectedResults);
    for (const [i, id] of ids.entries()) {
      const one = await server.client.get(`/v3/surveys/${quiz.id}/responses/${id}`, { token: a.token });
      expect(one.body.quiz_results).toEqual(expectedResults[i]);
    }

    // Marks on each choice answer of a scored question; none on unscored questions or text.
    const details = await server.client.get(`/v3/collectors/${col.body.id}/responses/${ids[2]}/details`, {
      token: a.token,
    });
    expect(details.body.quiz_results).toEqual(expectedResults[2]);
    const answers = details.body.pages[0].questions;
    expect(answers[0].answers).toEqual([{ choice_id: c(q1, 0), is_correct: false, score: 0 }]);
    expect(answers[1].answers).toEqual([
      { choice_id: c(q2, 0), is_correct: true, score: 5 },
      { choice_id: c(q2, 1), is_correct: true, score: 5 },
      { choice_id: c(q2, 2), is_correct: false, score: 0 },
    ]);
    const first = await server.client.get(`/v3/surveys/${quiz.id}/responses/${ids[0]}/details?simple=true`, {
      token: a.token,
    });
    expect(first.body.pages[0].questions[0].answers[0]).toMatchObject({
      is_correct: true,
      score: 10,
      simple_text: 'Paris',
    });
    expect(first.body.pages[0].questions[2].answers[0]).toEqual(
      expect.not.objectContaining({ is_correct: expect.anything() }),
    );
    const textOnly = await server.client.get(`/v3/surveys/${quiz.id}/responses/${ids[3]}/details`, {
      token: a.token,
    });
    expect(textOnly.body.pages[0].questions[0].answers).toEqual([{ text: 'Ann' }]);

    // Changing a choice's score re-scores the stored responses: with 4 worth 1, the third response
    // picked exactly the positive choices of Q2.
    const q2doc = (
      await server.client.get(`/v3/surveys/${quiz.id}/pages/${quiz.pageId}/questions/${q2.id}`, {
        token: a.token,
      })
    ).body;
    q2doc.answers.choices[2].quiz_options = { score: 1 };
    const patched = await server.client.patch(
      `/v3/surveys/${quiz.id}/pages/${quiz.pageId}/questions/${q2.id}`,
      { answers: { choices: q2doc.answers.choices } },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    const again = await server.client.get(`/v3/surveys/${quiz.id}/responses/${ids[2]}`, { token: a.token });
    expect(again.body.quiz_results).toEqual({
      correct: 1,
      partially_correct: 0,
      incorrect: 1,
      total_questions: 2,
      score: 11,
      total_score: 21,
    });
  });

  it('adds nothing to responses of surveys that are not quizzes', async () => {
    const a = await server.account({ plan: 'premier' });
    const quiz = await createQuiz(server.client, a.token, { ...QUIZ_OPTIONS, is_quiz_mode: false });
    const col = await server.client.post(
      `/v3/surveys/${quiz.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    const res = await server.client.post(
      `/v3/collectors/${col.body.id}/responses`,
      {
        pages: [
          { id: quiz.pageId, questions: [{ id: quiz.q1.id, answers: [{ choice_id: quiz.c(quiz.q1, 1) }] }] },
        ],
      },
      { token: a.token },
    );
    expect(res.body.quiz_results).toBeUndefined();
    expect(res.body.pages[0].questions[0].answers).toEqual([{ choice_id: quiz.c(quiz.q1, 1) }]);
  });
});

describe('quiz options validation', () => {
  const withRanges = (ranges: unknown, ranges_type = 'points') => ({
    ...QUIZ_OPTIONS,
    feedback: { ranges_type, ranges },
  });
  const cases: Array<[string, unknown, string]> = [
    [
      'overlapping ranges (inclusive)',
      withRanges([
        { min: 0, max: 5, message: 'a' },
        { min: 5, max: 9, message: 'b' },
      ]),
      "'quiz_options.feedback.ranges.1' (5-9) overlaps 'quiz_options.feedback.ranges.0'",
    ],
    [
      'min above max',
      withRanges([{ min: 9, max: 2, message: 'a' }]),
      "'quiz_options.feedback.ranges.0' has min 9",
    ],
    [
      'a percentage over 100',
      withRanges([{ min: 50, max: 120, message: 'a' }], 'percentage'),
      "'quiz_options.feedback.ranges.0': percentages",
    ],
    ['a range bound that is not an integer', withRanges([{ min: 0.5, max: 2, message: 'a' }]), 'min'],
    ['an unknown show_results_type', { ...QUIZ_OPTIONS, show_results_type: 'always' }, 'show_results_type'],
  ];
  for (const [what, quiz_options, detail] of cases)
    it(`refuses ${what} with 400/1002 naming the field`, async () => {
      const a = await server.account({ plan: 'premier' });
      const res = await server.client.post('/v3/surveys', { title: 'Q', quiz_options }, { token: a.token });
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe('1002');
      expect(res.body.error.message).toContain(detail);
      // PATCH goes through the same rules
      const s = await server.client.post('/v3/surveys', { title: 'Q' }, { token: a.token });
      const patch = await server.client.patch(
        `/v3/surveys/${s.body.id}`,
        { quiz_options },
        { token: a.token },
      );
      expect(patch.status).toBe(400);
      expect(errorCode(patch)).toBe('1002');
    });

  it('accepts adjacent ranges and disabled ranges with none', async () => {
    const a = await server.account({ plan: 'premier' });
    for (const quiz_options of [
      withRanges([
        { min: 0, max: 4, message: 'a' },
        { min: 5, max: 9, message: 'b' },
      ]),
      withRanges([], 'disabled'),
    ]) {
      const res = await server.client.post('/v3/surveys', { title: 'Q', quiz_options }, { token: a.token });
      expect(res.status).toBe(201);
      expect(res.body.quiz_options).toEqual(quiz_options);
    }
  });

  it('refuses a choice score that is not an integer', async () => {
    const a = await server.account({ plan: 'premier' });
    const s = await server.client.post('/v3/surveys', { title: 'Q' }, { token: a.token });
    const d = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: a.token })).body;
    const res = await server.client.post(
      `/v3/surveys/${s.body.id}/pages/${d.pages[0].id}/questions`,
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Q'),
        answers: { choices: [{ text: 'a', quiz_options: { score: 1.5 } }] },
      },
      { token: a.token },
    );
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe('1002');
    expect(JSON.stringify(res.body)).toContain('score');
  });
});
