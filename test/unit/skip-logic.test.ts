// The skip-logic walk (src/domain/responses/route.ts): where a respondent goes after a page, and
// the path a whole response takes (docs/skip-logic.md).
import { describe, expect, it } from 'vitest';
import { routeAfter, walk } from '../../src/domain/responses/route.js';
import { design, picks } from './design.js';

// Pages 10..40; on page 10, question 1 jumps to 30 on choice "a" and ends on "b", question 2
// disqualifies on "x"; page 20's own rule ends the survey.
const index = design([
  {
    id: '10',
    questions: [
      {
        id: '1',
        choices: [
          { id: 'a', logic: { action: 'go_to_page', page_id: '30' } },
          { id: 'b', logic: { action: 'end_survey' } },
          { id: 'c' },
        ],
      },
      { id: '2', choices: [{ id: 'x', logic: { action: 'disqualify' } }, { id: 'y' }] },
    ],
  },
  { id: '20', logic: { action: 'end_survey' }, questions: [{ id: '3', choices: [{ id: 'p' }] }] },
  {
    id: '30',
    logic: { action: 'go_to_page', page_id: '40' },
    questions: [{ id: '4', choices: [{ id: 'back', logic: { action: 'go_to_page', page_id: '10' } }] }],
  },
  { id: '40', questions: [{ id: '5', choices: [{ id: 'q' }] }] },
]);

describe('routeAfter', () => {
  it('goes to the next page when no rule fires', () => {
    expect(routeAfter(index, '10', picks({ '1': ['c'] }))).toEqual({ next: '20', end: null });
    expect(routeAfter(index, '10', [])).toEqual({ next: '20', end: null });
  });

  it('completes after the last page', () => {
    expect(routeAfter(index, '40', picks({ '5': ['q'] }))).toEqual({ next: null, end: 'completed' });
  });

  it("follows a picked choice's jump and records the rule that fired", () => {
    expect(routeAfter(index, '10', picks({ '1': ['a'] }))).toEqual({
      next: '30',
      end: null,
      fired: { question_id: '1', choice_id: 'a', action: 'go_to_page', page_id: '30' },
    });
  });

  it('ends the survey as completed, or as disqualified', () => {
    expect(routeAfter(index, '10', picks({ '1': ['b'] }))).toMatchObject({ next: null, end: 'completed' });
    expect(routeAfter(index, '10', picks({ '2': ['x'] }))).toMatchObject({
      next: null,
      end: 'disqualified',
      fired: { question_id: '2', choice_id: 'x', action: 'disqualify' },
    });
  });

  it('takes the first choice rule in question order when several fire', () => {
    expect(routeAfter(index, '10', picks({ '2': ['x'], '1': ['a'] })).fired).toMatchObject({
      question_id: '1',
      choice_id: 'a',
    });
  });

  it("uses the page's own rule when no choice rule fires", () => {
    expect(routeAfter(index, '20', picks({ '3': ['p'] }))).toEqual({
      next: null,
      end: 'completed',
      fired: { action: 'end_survey' },
    });
  });

  it("counts a jump that is not forward as no rule: the page's rule applies instead", () => {
    expect(routeAfter(index, '30', picks({ '4': ['back'] }))).toEqual({
      next: '40',
      end: null,
      fired: { action: 'go_to_page', page_id: '40' },
    });
  });

  it('reads choice rules of single choice questions only', () => {
    const multi = design([
      {
        id: '1',
        questions: [
          { id: 'm', family: 'multiple_choice', choices: [{ id: 'e', logic: { action: 'end_survey' } }] },
        ],
      },
      { id: '2' },
    ]);
    expect(routeAfter(multi, '1', picks({ m: ['e'] }))).toEqual({ next: '2', end: null });
  });
});

describe('walk', () => {
  it("runs a whole response's path with the rules that fired", () => {
    const w = walk(
      index,
      [
        { id: '10', questions: picks({ '1': ['a'] }) },
        { id: '30', questions: [] },
      ],
      false,
    );
    expect(w.pagePath).toEqual(['10', '30', '40']);
    expect(w.logicPath).toEqual({
      '10': { question_id: '1', choice_id: 'a', action: 'go_to_page', page_id: '30' },
      '30': { action: 'go_to_page', page_id: '40' },
    });
    expect(w.end).toBe('completed');
    expect(w.stoppedAt).toBeNull();
  });

  it('lists given pages with answers that the path skips', () => {
    const w = walk(
      index,
      [
        { id: '10', questions: picks({ '1': ['a'] }) },
        { id: '20', questions: picks({ '3': ['p'] }) },
      ],
      false,
    );
    expect(w.skipped).toEqual(['20']);
  });

  it('stops a partial response at the first page on its path that was not given', () => {
    const w = walk(index, [{ id: '10', questions: picks({ '1': ['c'] }) }], true);
    expect(w).toMatchObject({ pagePath: ['10'], end: null, stoppedAt: '20', logicPath: {} });
  });

  it('ends at the first page for a disqualifying answer there', () => {
    const w = walk(index, [{ id: '10', questions: picks({ '2': ['x'] }) }], false);
    expect(w).toMatchObject({ pagePath: ['10'], end: 'disqualified' });
  });
});
