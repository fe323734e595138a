// The pure pieces of the importer's phases: a response's answers mapped to the copy's ids, a
// question re-copied with its answer options' ids and rules mapped, the progress estimate, and
// when a survey's copy vouches for its listing.
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../src/domain/import/progress.js';
import { mapAnswers } from '../../src/domain/import/responses.js';
import { localAnswerIds } from '../../src/domain/import/resync.js';
import { settledBefore, surveyStamp } from '../../src/domain/import/surveys.js';
import type { QuestionInput } from '../../src/domain/surveys/question-schema.js';

describe('mapAnswers', () => {
  const design = new Map([
    ['p1', 'P1'],
    ['q1', 'Q1'],
    ['q2', 'Q2'],
    ['c1', 'C1'],
    ['r1', 'R1'],
    ['k1', 'K1'],
  ]);

  it("maps every id to the copy's and leaves out what was not copied", () => {
    let uploads = 0;
    const pages = mapAnswers(
      [
        {
          id: 'p1',
          questions: [
            {
              id: 'q1',
              answers: [{ choice_id: 'c1' }, { choice_id: 'gone' }, { row_id: 'r1', col_id: 'k1' }],
            },
            {
              id: 'q2',
              answers: [
                { text: 'hello', other_id: null },
                { download_url: 'https://x/f', text: 'f.pdf' },
              ],
            },
            { id: 'unknown', answers: [{ text: 'dropped' }] },
          ],
        },
        { id: 'p-unknown', questions: [{ id: 'q1', answers: [{ choice_id: 'c1' }] }] },
      ],
      design,
      () => uploads++,
    );
    expect(pages).toEqual([
      {
        id: 'P1',
        questions: [
          { id: 'Q1', answers: [{ choice_id: 'C1' }, { row_id: 'R1', col_id: 'K1' }] },
          { id: 'Q2', answers: [{ text: 'hello' }] },
        ],
      },
    ]);
    expect(uploads).toBe(1);
  });

  it('drops a question whose every answer was left out', () => {
    const pages = mapAnswers(
      [{ id: 'p1', questions: [{ id: 'q1', answers: [{ choice_id: 'gone' }] }] }],
      design,
      () => {},
    );
    expect(pages).toEqual([{ id: 'P1', questions: [] }]);
  });
});

describe('localAnswerIds', () => {
  it("gives known options the copy's ids, drops unknown ones, and maps choice rules to the copy's pages", () => {
    const input = {
      family: 'matrix',
      subtype: 'rating',
      answers: {
        choices: [
          { id: 's1', text: 'Yes', logic: { action: 'go_to_page', page_id: 'sp2' } },
          { id: 'new', text: 'No', logic: { action: 'go_to_page', page_id: 'deleted' } },
          { id: 's3', text: 'Out', logic: { action: 'disqualify' } },
        ],
        rows: [{ id: 's4', text: 'Row' }],
        cols: [{ id: 's5', text: 'Col', choices: [{ id: 's6', text: 'Nested' }] }],
        other: { id: 's7', text: 'Other' },
      },
    } as unknown as QuestionInput;
    const ids = new Map([
      ['s1', 'L1'],
      ['s3', 'L3'],
      ['s4', 'L4'],
      ['s5', 'L5'],
      ['s6', 'L6'],
      ['s7', 'L7'],
    ]);
    const out = localAnswerIds(input, ids, new Map([['sp2', 'LP2']]));
    expect(out.answers).toEqual({
      choices: [
        { id: 'L1', text: 'Yes', logic: { action: 'go_to_page', page_id: 'LP2' } },
        { text: 'No' },
        { id: 'L3', text: 'Out', logic: { action: 'disqualify' } },
      ],
      rows: [{ id: 'L4', text: 'Row' }],
      cols: [{ id: 'L5', text: 'Col', choices: [{ id: 'L6', text: 'Nested' }] }],
      other: { id: 'L7', text: 'Other' },
    });
  });

  it('leaves a question without answer options as it is', () => {
    const input = { family: 'open_ended', subtype: 'single' } as QuestionInput;
    expect(localAnswerIds(input, new Map(), new Map())).toBe(input);
  });
});

describe('progressOf', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const job = { budget_day: '2026-01-10', budget_used: 90, daily_budget: 100, requests_total: 400 };
  const totals = { surveys: 2, responses: 1000, contacts: 5 };

  it('counts the requests left (3 per survey to copy, one per bulk page) and the time they take', () => {
    const p = progressOf(job, 'contacts', { surveys: 1 }, totals, 200, 4, now);
    // 4 pending + 1 survey * 3 + 800 responses / 100 per page.
    expect(p.requestsLeft).toBe(15);
    expect(p.requestsToday).toBe(90);
    // 10 left today, then 5 more tomorrow: until midnight UTC, no further whole day.
    expect(p.etaSeconds).toBe(12 * 3600);
  });

  it('needs nothing more when done, and nothing for surveys once responses are copied', () => {
    expect(progressOf(job, 'done', {}, totals, 0, 9, now).requestsLeft).toBe(0);
    expect(progressOf(job, 'responses', {}, totals, 950, 0, now)).toMatchObject({
      requestsLeft: 1,
      etaSeconds: 0,
    });
  });

  it("starts a new day's budget on another day", () => {
    const p = progressOf({ ...job, budget_day: '2026-01-09' }, 'responses', {}, totals, 0, 0, now);
    expect(p.requestsToday).toBe(0);
    expect(p.requestsLeft).toBe(10);
    expect(p.etaSeconds).toBe(0);
  });
});

describe("a survey's stamp", () => {
  it('reads a stamp of an earlier run (the listed date alone) as a copy read at no known time', () => {
    expect(surveyStamp('2026-01-01T10:00:00+00:00')).toEqual({
      listed: '2026-01-01T10:00:00+00:00',
      read: '',
      modified: '2026-01-01T10:00:00+00:00',
      hash: '',
    });
  });

  it('vouches for a listing only when the copy was read two minutes or more after it', () => {
    expect(settledBefore('2026-01-01T10:00:00+00:00', '2026-01-01T10:02:00.000Z')).toBe(true);
    expect(settledBefore('2026-01-01T10:00:00+00:00', '2026-01-01T10:01:59.000Z')).toBe(false);
    expect(settledBefore('2026-01-01T10:00:00', '')).toBe(false);
    expect(settledBefore(null, '2026-01-01T10:05:00.000Z')).toBe(false);
  });
});
