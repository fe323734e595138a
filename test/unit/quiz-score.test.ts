// Quiz scoring (src/domain/quiz/score.ts): which questions count, verdicts, scores and totals,
// per-answer marks and the range feedback, against the rules written at the top of score.ts.
import { describe, expect, it } from 'vitest';
import {
  answerMarks,
  isScored,
  quizOptions,
  rangeMessage,
  rangeValue,
  scoreResponse,
} from '../../src/domain/quiz/score.js';
import type { QuizOptions } from '../../src/domain/surveys/blueprint.js';
import { design, picks } from './design.js';

const options: QuizOptions = {
  is_quiz_mode: true,
  show_results_type: 'results_only',
  feedback: {
    ranges_type: 'points',
    ranges: [
      { min: 0, max: 4, message: 'Try again' },
      { min: 5, max: 10, message: 'Well done' },
    ],
  },
  default_question_feedback: { correct_text: 'Right', incorrect_text: 'Wrong', partial_text: 'Nearly' },
};

// single: a 5 (best), b 2, c 0. multi: x 3, y 2, z -1. plain: no scores. off: scoring disabled.
const index = design([
  {
    id: 'p1',
    questions: [
      { id: 'single', choices: [{ id: 'a', score: 5 }, { id: 'b', score: 2 }, { id: 'c' }] },
      {
        id: 'multi',
        family: 'multiple_choice',
        choices: [
          { id: 'x', score: 3 },
          { id: 'y', score: 2 },
          { id: 'z', score: -1 },
        ],
        quiz: {
          scoring_enabled: true,
          feedback: { correct_text: 'All of them', incorrect_text: 'None', partial_text: 'Some' },
        },
      },
      { id: 'plain', choices: [{ id: 'n' }] },
      { id: 'off', choices: [{ id: 'o', score: 9 }], quiz: { scoring_enabled: false } },
    ],
  },
]);
const q = (id: string) => index.questions.get(id)!;
const score = (answers: Record<string, string[]>) =>
  scoreResponse(index, options, [{ id: 'p1', questions: picks(answers) }]);
const verdicts = (answers: Record<string, string[]>) =>
  Object.fromEntries(score(answers).questions.map((s) => [s.question.id, s.verdict]));

describe('which surveys and questions are scored', () => {
  it('is a quiz only with is_quiz_mode', () => {
    expect(quizOptions({ quiz_options: null })).toBeNull();
    expect(quizOptions({ quiz_options: JSON.stringify({ ...options, is_quiz_mode: false }) })).toBeNull();
    expect(quizOptions({ quiz_options: JSON.stringify(options) })).toEqual(options);
  });

  it('scores choice questions with scoring enabled, or with a scored choice and no quiz options', () => {
    expect(isScored(q('single'))).toBe(true);
    expect(isScored(q('multi'))).toBe(true);
    expect(isScored(q('plain'))).toBe(false);
    expect(isScored(q('off'))).toBe(false);
    const text = design([
      { id: 'p', questions: [{ id: 't', family: 'open_ended', choices: [{ id: 'a', score: 1 }] }] },
    ]);
    expect(isScored(text.questions.get('t')!)).toBe(false);
  });
});

describe('scoreResponse', () => {
  it('totals: the best single choice plus every positive multiple choice score', () => {
    expect(score({}).results).toEqual({
      correct: 0,
      incorrect: 2,
      partially_correct: 0,
      total_questions: 2,
      score: 0,
      total_score: 10,
    });
  });

  it('single choice: the best choice is correct, a lower positive one partial, a zero one incorrect', () => {
    expect(verdicts({ single: ['a'] }).single).toBe('correct');
    expect(verdicts({ single: ['b'] }).single).toBe('partial');
    expect(verdicts({ single: ['c'] }).single).toBe('incorrect');
  });

  it('multiple choice: exactly the correct choices are correct; some of them, or with an extra, partial', () => {
    expect(verdicts({ multi: ['x', 'y'] }).multi).toBe('correct');
    expect(verdicts({ multi: ['x'] }).multi).toBe('partial');
    expect(verdicts({ multi: ['x', 'y', 'z'] }).multi).toBe('partial');
    expect(verdicts({ multi: ['z'] }).multi).toBe('incorrect');
  });

  it('adds the picked scores, negative ones included', () => {
    const r = score({ single: ['a'], multi: ['x', 'y', 'z'] }).results;
    expect(r).toMatchObject({ score: 9, total_score: 10, correct: 1, partially_correct: 1, incorrect: 0 });
  });

  it("names the right choices and gives the question's feedback, else the survey's default", () => {
    const [single, multi] = score({ single: ['b'], multi: [] }).questions;
    expect(single.correctChoices.map((c) => c.id)).toEqual(['a']);
    expect(single.feedback).toBe('Nearly');
    expect(multi.correctChoices.map((c) => c.id)).toEqual(['x', 'y']);
    expect(multi.feedback).toBe('None');
  });
});

describe('answer marks and range feedback', () => {
  it('marks choice answers of scored questions only', () => {
    expect(answerMarks(q('single'), { choice_id: 'b' })).toEqual({ is_correct: true, score: 2 });
    expect(answerMarks(q('single'), { choice_id: 'c' })).toEqual({ is_correct: false, score: 0 });
    expect(answerMarks(q('multi'), { choice_id: 'z' })).toEqual({ is_correct: false, score: -1 });
    expect(answerMarks(q('plain'), { choice_id: 'n' })).toBeNull();
    expect(answerMarks(q('single'), { text: 'a' })).toBeNull();
    expect(answerMarks(undefined, { choice_id: 'a' })).toBeNull();
  });

  it('compares points, or a whole percentage (0 when nothing can be scored)', () => {
    const r = {
      correct: 0,
      incorrect: 0,
      partially_correct: 0,
      total_questions: 1,
      score: 2,
      total_score: 3,
    };
    expect(rangeValue(options, r)).toBe(2);
    const percentage = { ...options, feedback: { ...options.feedback, ranges_type: 'percentage' as const } };
    expect(rangeValue(percentage, r)).toBe(67);
    expect(rangeValue(percentage, { ...r, total_score: 0 })).toBe(0);
  });

  it('picks the range holding the value, bounds included; none when ranges are off or none holds it', () => {
    const r = {
      correct: 0,
      incorrect: 0,
      partially_correct: 0,
      total_questions: 1,
      score: 4,
      total_score: 10,
    };
    expect(rangeMessage(options, r)).toBe('Try again');
    expect(rangeMessage(options, { ...r, score: 5 })).toBe('Well done');
    expect(rangeMessage(options, { ...r, score: 11 })).toBeNull();
    const off = { ...options, feedback: { ...options.feedback, ranges_type: 'disabled' as const } };
    expect(rangeMessage(off, r)).toBeNull();
  });
});
