// The builder's rules as the survey edit page calls them (src/web/design/edit.ts): moving a question
// to another page, copying it, deleting a page that rules go to, and the skip-logic and display
// conditions a move must keep looking forward and back. The page tests (builder.e2e,
// builder-logic.e2e) show the same through the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyQuestion,
  createQuestion,
  deletePage,
  deleteQuestion,
  moveQuestionToPage,
  updatePage,
} from '../../src/domain/surveys/design.js';
import { createSurvey, loadDesign, type QuestionInput } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

const text = (heading: string): QuestionInput => ({
  family: 'open_ended',
  subtype: 'single',
  headings: [{ heading }],
});
const choice = (heading: string, choices: string[]): QuestionInput => ({
  family: 'single_choice',
  subtype: 'vertical',
  headings: [{ heading }],
  answers: { choices: choices.map((c) => ({ text: c })) },
});

/** A survey of `titles.length` pages, each with one open-ended question named after its page. */
async function survey(titles: string[]) {
  const s = await createSurvey(t.deps, owner.actor, {
    title: 'Builder',
    pages: titles.map((title) => ({ title, questions: [text(`${title}?`)] })),
  });
  return { survey: s, ...(await design(s.id)) };
}

async function design(surveyId: string) {
  const { pages, questions } = await loadDesign(t.deps, surveyId);
  return {
    pages,
    pageIds: pages.map((p) => p.id),
    headings: pages.map((p) => (questions.get(p.id) ?? []).map((q) => q.doc.headings[0].heading)),
    questions,
  };
}

async function questionCount(surveyId: string) {
  const row = await t.deps.db.kysely
    .selectFrom('surveys')
    .select('question_count')
    .where('id', '=', surveyId)
    .executeTakeFirstOrThrow();
  return Number(row.question_count);
}

describe('moving a question to another page', () => {
  it('keeps its id, closes the gap it leaves and takes the asked place on the new page', async () => {
    const s = await survey(['One', 'Two']);
    const [p1, p2] = s.pageIds;
    const a = await createQuestion(t.deps, owner.actor, s.survey, p1, text('A?'));
    const moved = await moveQuestionToPage(
      t.deps,
      owner.actor,
      s.survey,
      p1,
      s.questions.get(p1)![0].id,
      p2,
      1,
    );
    expect(moved.page_id).toBe(p2);
    expect(moved.position).toBe(1);
    const after = await design(s.survey.id);
    expect(after.headings).toEqual([['A?'], ['One?', 'Two?']]);
    expect(after.questions.get(p2)![0].id).toBe(s.questions.get(p1)![0].id);
    expect(after.questions.get(p1)!.map((q) => [q.id, q.position])).toEqual([[a.id, 1]]);
    expect(await questionCount(s.survey.id)).toBe(3);
  });

  it('clamps a position past the end of the new page to its last place', async () => {
    const s = await survey(['One', 'Two']);
    const [p1, p2] = s.pageIds;
    const moved = await moveQuestionToPage(
      t.deps,
      owner.actor,
      s.survey,
      p1,
      s.questions.get(p1)![0].id,
      p2,
      99,
    );
    expect(moved.position).toBe(2);
    expect((await design(s.survey.id)).headings).toEqual([[], ['Two?', 'One?']]);
  });

  it('is refused when a rule of its choices would no longer go to a later page, and nothing moves', async () => {
    const s = await survey(['One', 'Two', 'Three']);
    const [p1, p2, p3] = s.pageIds;
    const route = await createQuestion(t.deps, owner.actor, s.survey, p1, {
      ...choice('Route?', ['Skip', 'Stay']),
      answers: {
        choices: [{ text: 'Skip', logic: { action: 'go_to_page', page_id: p3 } }, { text: 'Stay' }],
      },
    });
    await refused(
      moveQuestionToPage(t.deps, owner.actor, s.survey, p1, route.id, p3),
      1002,
      `page ${p3} is not after the rule's page; logic only jumps forward.`,
    );
    expect((await design(s.survey.id)).headings).toEqual([['One?', 'Route?'], ['Two?'], ['Three?']]);
    // page 2 still comes before page 3: allowed
    const moved = await moveQuestionToPage(t.deps, owner.actor, s.survey, p1, route.id, p2);
    expect(moved.page_id).toBe(p2);
  });

  it('is refused when its display condition would no longer look back at an earlier page', async () => {
    const s = await survey(['One', 'Two', 'Three']);
    const [p1, p2, p3] = s.pageIds;
    const pet = await createQuestion(t.deps, owner.actor, s.survey, p2, choice('Pet?', ['Dog', 'Cat']));
    const named = await createQuestion(t.deps, owner.actor, s.survey, p3, {
      ...text('Name?'),
      display_logic: { question_id: pet.id, operator: 'answered' },
    });
    await refused(
      moveQuestionToPage(t.deps, owner.actor, s.survey, p3, named.id, p2),
      1002,
      `question ${pet.id} is not on an earlier page`,
    );
    // nor may the question it looks at move onto (or after) its page
    await refused(
      moveQuestionToPage(t.deps, owner.actor, s.survey, p2, pet.id, p3),
      1002,
      /not on an earlier page/,
    );
    await moveQuestionToPage(t.deps, owner.actor, s.survey, p2, pet.id, p1);
    expect((await design(s.survey.id)).headings).toEqual([['One?', 'Pet?'], ['Two?'], ['Three?', 'Name?']]);
  });
});

describe('copying a question', () => {
  it('places the copy right after it, with fresh ids for it and its choices', async () => {
    const s = await survey(['One']);
    const [p1] = s.pageIds;
    const q = await createQuestion(t.deps, owner.actor, s.survey, p1, {
      ...choice('Pick?', ['X', 'Y']),
      position: 1,
    });
    const copy = await copyQuestion(t.deps, owner.actor, s.survey, p1, q.id);
    expect(copy.position).toBe(2);
    expect(copy.id).not.toBe(q.id);
    expect(copy.doc.headings).toEqual(q.doc.headings);
    const ids = (x: typeof q) => x.doc.answers!.choices!.map((c) => c.id);
    expect(copy.doc.answers!.choices!.map((c) => c.text)).toEqual(['X', 'Y']);
    expect(ids(copy).filter((id) => ids(q).includes(id))).toEqual([]);
    expect((await design(s.survey.id)).headings).toEqual([['Pick?', 'Pick?', 'One?']]);
    expect(await questionCount(s.survey.id)).toBe(3);
  });
});

describe('deleting', () => {
  it('a page clears every rule that went to it, counts them and keeps the others', async () => {
    const s = await survey(['One', 'Two', 'Three', 'Four']);
    const [p1, p2, p3, p4] = s.pageIds;
    const route = await createQuestion(t.deps, owner.actor, s.survey, p1, {
      ...choice('Route?', ['A', 'B', 'C']),
      answers: {
        choices: [
          { text: 'A', logic: { action: 'go_to_page', page_id: p3 } },
          { text: 'B', logic: { action: 'end_survey' } },
          { text: 'C', logic: { action: 'go_to_page', page_id: p4 } },
        ],
      },
    });
    await updatePage(
      t.deps,
      owner.actor,
      s.survey,
      p2,
      { logic: { action: 'go_to_page', page_id: p3 } },
      'patch',
    );
    const deleted = await deletePage(t.deps, owner.actor, s.survey, p3);
    expect(deleted.logic_cleared).toBe(2);
    const after = await design(s.survey.id);
    expect(after.pages.map((p) => [p.title, p.position])).toEqual([
      ['One', 1],
      ['Two', 2],
      ['Four', 3],
    ]);
    expect(after.pages[1].logic).toBeNull();
    const choices = after.questions.get(p1)!.find((q) => q.id === route.id)!.doc.answers!.choices!;
    expect(choices.map((c) => c.logic)).toEqual([
      undefined,
      { action: 'end_survey' },
      { action: 'go_to_page', page_id: p4 },
    ]);
    expect(await questionCount(s.survey.id)).toBe(4);
  });

  it('a question clears the display conditions that looked at it', async () => {
    const s = await survey(['One', 'Two']);
    const [p1, p2] = s.pageIds;
    const pet = await createQuestion(t.deps, owner.actor, s.survey, p1, choice('Pet?', ['Dog', 'Cat']));
    const named = await createQuestion(t.deps, owner.actor, s.survey, p2, {
      ...text('Name?'),
      display_logic: { question_id: pet.id, choice_ids: [pet.doc.answers!.choices![0].id] },
    });
    await deleteQuestion(t.deps, owner.actor, s.survey, p1, pet.id);
    const after = await design(s.survey.id);
    expect(after.questions.get(p2)!.find((q) => q.id === named.id)!.doc.display_logic).toBeUndefined();
  });
});

describe('moving a page', () => {
  it('is refused when a rule would then go backward, and the order is kept', async () => {
    const s = await survey(['One', 'Two', 'Three', 'Four']);
    const [, p2, p3, p4] = s.pageIds;
    await updatePage(
      t.deps,
      owner.actor,
      s.survey,
      p2,
      { logic: { action: 'go_to_page', page_id: p4 } },
      'patch',
    );
    // page 3 may move down past page 4 (nothing goes to it); page 4 may not move before page 2
    await updatePage(t.deps, owner.actor, s.survey, p3, { position: 4 }, 'patch');
    await refused(
      updatePage(t.deps, owner.actor, s.survey, p4, { position: 2 }, 'patch'),
      1002,
      `page ${p4} is not after the rule's page`,
    );
    expect((await design(s.survey.id)).pages.map((p) => p.title)).toEqual(['One', 'Two', 'Four', 'Three']);
  });
});
