// The formula engine of calculated variables (src/domain/surveys/formula.ts) and their evaluation
// over answers (domain/responses/recall.ts calculatedValues), against the rules written at the top
// of formula.ts.
import { describe, expect, it } from 'vitest';
import type { StoredQuestionAnswers } from '../../src/domain/responses/answers.js';
import { calculatedValues, knownFrom } from '../../src/domain/responses/recall.js';
import { parsedCalculated } from '../../src/domain/surveys/calculated.js';
import {
  evaluate,
  evaluationOrder,
  FormulaError,
  formatValue,
  formulaRefs,
  parseFormula,
  type Ref,
} from '../../src/domain/surveys/formula.js';
import { design, picks } from './design.js';

const calc = (text: string, values: Record<string, number | null> = {}) =>
  formatValue(evaluate(parseFormula(text), (r: Ref) => values[r.key] ?? null));

describe('parsing and precedence', () => {
  it('multiplies and divides before adding, left to right, with parentheses and unary minus', () => {
    expect(calc('1 + 2 * 3')).toBe('7');
    expect(calc('(1 + 2) * 3')).toBe('9');
    expect(calc('10 - 4 - 3')).toBe('3');
    expect(calc('12 / 3 / 2')).toBe('2');
    expect(calc('-2 * -3 + 1')).toBe('7');
    expect(calc('2 - -2')).toBe('4');
    expect(calc('.5 + 1.25')).toBe('1.75');
  });

  it('reads ×, ÷ and − as *, / and -', () => {
    expect(calc('6 × 2 ÷ 4 − 1')).toBe('2');
  });

  it('names variables bare or with variable(), questions and scores by quoted id', () => {
    const refs = formulaRefs(
      parseFormula('total + variable("bonus") + question("12") + score("13") + custom_variable("age")'),
    );
    expect(refs).toEqual([
      { kind: 'variable', key: 'total' },
      { kind: 'variable', key: 'bonus' },
      { kind: 'question', key: '12' },
      { kind: 'score', key: '13' },
      { kind: 'custom_variable', key: 'age' },
    ]);
    expect(calc('a * 2 + b', { a: 3, b: 1 })).toBe('7');
  });

  it('refuses what does not parse, saying where', () => {
    const refused = (text: string, message: RegExp) => {
      expect(() => parseFormula(text)).toThrow(FormulaError);
      expect(() => parseFormula(text)).toThrow(message);
    };
    refused('', /empty/);
    refused('1 +', /ends too soon/);
    refused('(1 + 2', /"\)" was expected at the end/);
    refused('1 2', /should end at character 3/);
    refused('2 $ 3', /"\$" at character 3/);
    refused('sqrt(4)', /sqrt\(\) at character 1 is not a function/);
    refused('question(12)', /quoted name or id/);
    refused('question("12', /quote at character 10 is not closed/);
    refused('round()', /round\(\) takes a value/);
    refused('min()', /at least one value/);
    refused('1'.padEnd(1001, ' '), /at most 1000 characters/);
    refused(`${'('.repeat(100)}1${')'.repeat(100)}`, /nests too deeply/);
  });
});

describe('min, max and round', () => {
  it('takes the least and the greatest of any number of values', () => {
    expect(calc('min(3, 1, 2)')).toBe('1');
    expect(calc('max(3, 1 + 4, 2)')).toBe('5');
    expect(calc('max(-1)')).toBe('-1');
  });

  it('rounds half away from zero, to whole numbers or the digits asked', () => {
    expect(calc('round(2.5)')).toBe('3');
    expect(calc('round(-2.5)')).toBe('-3');
    expect(calc('round(2.4)')).toBe('2');
    expect(calc('round(1.005, 2)')).toBe('1.01');
    expect(calc('round(10 / 3, 1)')).toBe('3.3');
    expect(calc('round(-0.4)')).toBe('0');
  });

  it('shows sums without binary noise', () => {
    expect(calc('0.1 + 0.2')).toBe('0.3');
  });
});

describe('empty values', () => {
  it('gives empty for a division by zero and for arithmetic over an empty value', () => {
    expect(calc('1 / 0')).toBe('');
    expect(calc('1 / (2 - 2) + 5')).toBe('');
    expect(calc('missing + 1')).toBe('');
    expect(calc('-missing')).toBe('');
    expect(calc('round(missing)')).toBe('');
    expect(calc('round(1.5, missing)')).toBe('');
  });

  it('skips empty values in min and max, empty when all are', () => {
    expect(calc('min(missing, 4, 1 / 0, 6)')).toBe('4');
    expect(calc('max(missing)')).toBe('');
  });
});

describe('cycles', () => {
  it('orders variables after those they use', () => {
    expect(
      evaluationOrder([
        { name: 'c', uses: ['b'] },
        { name: 'b', uses: ['a'] },
        { name: 'a', uses: [] },
      ]),
    ).toEqual({ order: ['a', 'b', 'c'] });
  });

  it('names the first variable in a cycle, a self-reference included', () => {
    expect(evaluationOrder([{ name: 'a', uses: ['a'] }])).toEqual({ cycle: 'a' });
    expect(
      evaluationOrder([
        { name: 'ok', uses: [] },
        { name: 'x', uses: ['ok', 'y'] },
        { name: 'y', uses: ['z'] },
        { name: 'z', uses: ['x'] },
      ]),
    ).toEqual({ cycle: 'x' });
    expect(
      evaluationOrder([
        { name: 'top', uses: ['loop1'] },
        { name: 'loop1', uses: ['loop2'] },
        { name: 'loop2', uses: ['loop1'] },
      ]),
    ).toEqual({ cycle: 'loop1' });
  });
});

describe('values from answers', () => {
  // q1: single choice with quiz scores; q2: multiple choice weighted; q3: a typed number.
  const index = design([
    {
      id: 'p1',
      questions: [
        {
          id: '1',
          choices: [
            { id: 'a', score: 5 },
            { id: 'b', score: 1 },
          ],
        },
        { id: '2', family: 'multiple_choice', choices: [{ id: 'x' }, { id: 'y' }, { id: 'z' }] },
        { id: '3', family: 'open_ended' },
      ],
    },
  ]);
  const q2 = index.questions.get('2')!;
  q2.choices.get('x')!.weight = 2;
  q2.choices.get('y')!.weight = 3;
  index.calculated = parsedCalculated([
    // listed before what it uses: evaluation follows the dependencies
    { name: 'final', formula: 'round(total / 3, 1)' },
    { name: 'total', formula: 'score("1") + question("2") + question("3")' },
    { name: 'typed', formula: 'question("3") * 2' },
    { name: 'best', formula: 'max(score("1"), question("2"))' },
    { name: 'link', formula: 'custom_variable("age") + 1' },
  ]);
  const values = (answers: StoredQuestionAnswers[], vars: Record<string, string> = {}) =>
    Object.fromEntries(
      [...calculatedValues(index, knownFrom([{ id: 'p1', questions: answers }], vars))].map(([k, v]) => [
        k,
        formatValue(v),
      ]),
    );

  it('sums quiz scores, choice weights and typed numbers', () => {
    const answers = [...picks({ '1': ['a'], '2': ['x', 'y', 'z'] }), { id: '3', answers: [{ text: ' 4 ' }] }];
    expect(values(answers, { age: '41' })).toEqual({
      total: '14',
      final: '4.7',
      typed: '8',
      best: '5',
      link: '42',
    });
  });

  it('gives empty for a missing answer, 0 for an unanswered score', () => {
    expect(values(picks({ '1': ['b'] }))).toEqual({ total: '', final: '', typed: '', best: '1', link: '' });
    expect(values([{ id: '3', answers: [{ text: 'four' }] }], { age: 'old' })).toEqual({
      total: '',
      final: '',
      typed: '',
      best: '0',
      link: '',
    });
  });
});
