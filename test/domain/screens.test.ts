// One question at a time (domain/responses/screens.ts over flow.ts): a page's screens follow its
// display logic, a screen's required answer is checked when it is answered (nothing saved), each
// screen's answers are saved into its page, the page's skip logic runs only when its last screen is
// answered, and Back goes to the screen before (across pages along the path taken).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/domain/collectors/collectors.js';
import type { Answer } from '../../src/domain/responses/answers.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { pageView, placeOf, type Respondent } from '../../src/domain/responses/flow.js';
import { type ResponseRow, responseOfRespondent, storedPages } from '../../src/domain/responses/responses.js';
import { finishLater } from '../../src/domain/responses/resume.js';
import { answerScreen, exitScreen, screenBack, screenPlace } from '../../src/domain/responses/screens.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createQuestion, updatePage } from '../../src/domain/surveys/design.js';
import { createSurvey, loadDesign, updateSurvey } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

let sessions = 0;

/**
 * Page 1: a required pet (Dog jumps to page 3) and a name. Page 2: A, B (shown only to cat owners)
 * and C, then the page's own rule disqualifies. Page 3: a last text. One question at a time.
 */
async function setUp() {
  const created = await createSurvey(t.deps, owner.actor, {
    title: 'Screens',
    pages: ['One', 'Two', 'Three'].map((title) => ({ title, questions: [] })),
  });
  const [p1, p2, p3] = (await loadDesign(t.deps, created.id)).pages;
  const text = (pageId: string, heading: string, extra = {}) =>
    createQuestion(t.deps, owner.actor, created, pageId, {
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading }],
      ...extra,
    });
  const pet = await createQuestion(t.deps, owner.actor, created, p1.id, {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Pet?' }],
    required: { text: 'Please pick a pet.' },
    answers: {
      choices: [
        { text: 'Cat' },
        { text: 'Dog', logic: { action: 'go_to_page', page_id: p3.id } },
        { text: 'Fish' },
      ],
    },
  });
  const [cat, dog, fish] = pet.doc.answers!.choices!.map((c) => c.id);
  const name = await text(p1.id, 'Name?');
  const a = await text(p2.id, 'A?');
  const b = await text(p2.id, 'B?', { display_logic: { question_id: pet.id, choice_ids: [cat] } });
  const c = await text(p2.id, 'C?');
  const last = await text(p3.id, 'Last?');
  await updatePage(t.deps, owner.actor, created, p2.id, { logic: { action: 'disqualify' } }, 'patch');
  await updateSurvey(t.deps, owner.actor, created.id, { question_layout: 'one_at_a_time' }, 'patch');
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'collect', 'write');
  const collector = await createCollector(t.deps, owner.actor, survey, { type: 'weblink' }, undefined);
  const index = await designIndex(t.deps, survey);
  const r: Respondent = {
    survey,
    collector,
    index,
    link: new URLSearchParams(),
    respondentKey: `screen-session-${++sessions}`,
    ip: '192.0.2.9',
  };
  const saved = () => responseOfRespondent(t.deps, collector.id, r.respondentKey);
  /** Posts screen `screen` of a page as its form would: every question of the page, only the
   * screen's answered (the form holds no other fields). */
  const post = async (pageId: string, screen: number, answers: Record<string, Answer[]>) =>
    answerScreen(
      t.deps,
      r,
      await saved(),
      {
        page: {
          id: pageId,
          questions: index.pageById
            .get(pageId)!
            .questions.map((q) => ({ id: q.id, answers: answers[q.id] ?? [] })),
        },
      },
      undefined,
      String(screen),
    );
  const at = async (response: ResponseRow | undefined, asked?: string, pageAsked?: string) => {
    const place = placeOf(index, response, pageAsked);
    return screenPlace(r, response, place, await pageView(t.deps, r, response, place.pageId), asked);
  };
  return {
    r,
    ids: {
      p1: p1.id,
      p2: p2.id,
      p3: p3.id,
      pet: pet.id,
      cat,
      dog,
      fish,
      name: name.id,
      a: a.id,
      b: b.id,
      c: c.id,
      last: last.id,
    },
    post,
    saved,
    at,
  };
}

describe('one question at a time', () => {
  it('shows a page’s questions one a screen, leaving out one its display logic hides', async () => {
    const s = await setUp();
    const { ids } = s;
    // a dog owner never reaches page 2; a cat owner sees B there
    expect((await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.cat }] })).kind).toBe('screen');
    expect(await s.post(ids.p1, 1, {})).toEqual({ kind: 'screen', pageId: ids.p2, screen: 0 });
    const catScreens = await s.at(await s.saved(), '2');
    expect(catScreens.count).toBe(3);
    expect(catScreens.questions.map((q) => q.id)).toEqual([ids.c]);

    // someone with a fish: B is hidden, so page 2 has two screens, A then C
    const other = await setUp();
    const o = other.ids;
    await other.post(o.p1, 0, { [o.pet]: [{ choice_id: o.fish }] });
    await other.post(o.p1, 1, {});
    const first = await other.at(await other.saved());
    expect([first.page.pageId, first.screen, first.count]).toEqual([o.p2, 0, 2]);
    expect(first.questions.map((q) => q.id)).toEqual([o.a]);
    expect(await other.post(o.p2, 0, {})).toEqual({ kind: 'screen', pageId: o.p2, screen: 1 });
    expect((await other.at(await other.saved(), '1')).questions.map((q) => q.id)).toEqual([o.c]);
  });

  it('refuses a screen whose required question is unanswered, saving nothing', async () => {
    const s = await setUp();
    const out = await s.post(s.ids.p1, 0, {});
    expect(out.kind).toBe('invalid');
    expect(out.kind === 'invalid' && [...out.errors.values()]).toEqual([{ text: 'Please pick a pet.' }]);
    expect(await s.saved()).toBeUndefined();
  });

  it('saves each screen into its page and resumes at the screen after the last answered', async () => {
    const s = await setUp();
    const { ids } = s;
    await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.cat }] });
    const partial = (await s.saved())!;
    expect(partial.response_status).toBe('partial');
    expect(partial.current_page_id).toBe(ids.p1);
    expect(storedPages(partial)).toEqual([
      { id: ids.p1, questions: [{ id: ids.pet, answers: [{ choice_id: ids.cat }] }] },
    ]);
    // back later without a screen named: where they left off; a page not reached yet is not shown
    expect((await s.at(partial)).screen).toBe(1);
    expect((await s.at(partial, '0', ids.p2)).page.pageId).toBe(ids.p1);
    // answering the next screen keeps the first one's answer
    await s.post(ids.p1, 1, { [ids.name]: [{ text: 'Ann' }] });
    const both = storedPages((await s.saved())!).find((p) => p.id === ids.p1)!;
    expect(both.questions.map((q) => q.id)).toEqual([ids.pet, ids.name]);
  });

  it('Exit on a screen keeps what the page’s other screens saved', async () => {
    const s = await setUp();
    const { ids } = s;
    await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.cat }] });
    await s.post(ids.p1, 1, {});
    await s.post(ids.p2, 0, { [ids.a]: [{ text: 'a' }] });
    // the form of screen 1 (B): every question of the page, only B answered
    const page = s.r.index.pageById.get(ids.p2)!;
    const given = {
      page: {
        id: ids.p2,
        questions: page.questions.map((q) => ({ id: q.id, answers: q.id === ids.b ? [{ text: 'b' }] : [] })),
      },
    };
    expect(await exitScreen(t.deps, s.r, await s.saved(), given, undefined, '1')).toMatchObject({
      response_status: 'partial',
    });
    const saved = (await s.saved())!;
    expect(saved.response_status).toBe('partial');
    expect(saved.current_page_id).toBe(ids.p2);
    expect(storedPages(saved).find((p) => p.id === ids.p2)!.questions).toEqual([
      { id: ids.a, answers: [{ text: 'a' }] },
      { id: ids.b, answers: [{ text: 'b' }] },
    ]);
    // coming back: the screen after B
    expect((await s.at(saved)).screen).toBe(2);
  });

  it('Finish later on a screen keeps the page’s other screens and gives a link to this response', async () => {
    const s = await setUp();
    const { ids } = s;
    await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.cat }] });
    await s.post(ids.p1, 1, {});
    await s.post(ids.p2, 0, { [ids.a]: [{ text: 'a' }] });
    const page = s.r.index.pageById.get(ids.p2)!;
    const given = {
      page: {
        id: ids.p2,
        questions: page.questions.map((q) => ({ id: q.id, answers: q.id === ids.b ? [{ text: 'b' }] : [] })),
      },
    };
    const later = await finishLater(t.deps, s.r, await s.saved(), given, undefined, '1');
    const saved = (await s.saved())!;
    expect(later?.response.id).toBe(saved.id);
    expect(storedPages(saved).find((p) => p.id === ids.p2)!.questions).toEqual([
      { id: ids.a, answers: [{ text: 'a' }] },
      { id: ids.b, answers: [{ text: 'b' }] },
    ]);
  });

  it('sends a page’s last screen back to an earlier screen whose required answer is missing', async () => {
    const s = await setUp();
    const { ids } = s;
    // screen 1 asked for directly, the pet never given
    const out = await s.post(ids.p1, 1, { [ids.name]: [{ text: 'Di' }] });
    expect(out.kind).toBe('invalid');
    if (out.kind !== 'invalid') return;
    expect([...out.errors.keys()]).toEqual([ids.pet]);
    expect(await s.saved()).toBeUndefined();
    const shown = await s.at(undefined, '1');
    expect(shown.page.pageId).toBe(ids.p1);
    expect(shown.screen).toBe(1);
    const place = placeOf(s.r.index, undefined);
    const view = await pageView(t.deps, s.r, undefined, place.pageId);
    expect(screenPlace(s.r, undefined, place, view, '1', out.errors).screen).toBe(0);
  });

  it('runs the page’s skip logic only when its last screen is answered', async () => {
    const s = await setUp();
    const { ids } = s;
    // Dog jumps to page 3, but only after the page's last screen
    expect(await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.dog }] })).toEqual({
      kind: 'screen',
      pageId: ids.p1,
      screen: 1,
    });
    expect(JSON.parse((await s.saved())!.page_path)).toEqual([]);
    expect(await s.post(ids.p1, 1, { [ids.name]: [{ text: 'Bo' }] })).toEqual({
      kind: 'screen',
      pageId: ids.p3,
      screen: 0,
    });
    const jumped = (await s.saved())!;
    expect(JSON.parse(jumped.page_path)).toEqual([ids.p1]);
    expect(JSON.parse(jumped.logic_path)[ids.p1]).toMatchObject({ choice_id: ids.dog, action: 'go_to_page' });

    // page 2's own rule (disqualify) waits for its last screen too
    const cat = await setUp();
    const c = cat.ids;
    await cat.post(c.p1, 0, { [c.pet]: [{ choice_id: c.cat }] });
    await cat.post(c.p1, 1, {});
    expect((await cat.post(c.p2, 0, { [c.a]: [{ text: 'a' }] })).kind).toBe('screen');
    expect((await cat.post(c.p2, 1, { [c.b]: [{ text: 'b' }] })).kind).toBe('screen');
    expect((await cat.saved())!.response_status).toBe('partial');
    const end = await cat.post(c.p2, 2, { [c.c]: [{ text: 'c' }] });
    expect(end.kind === 'finished' && end.status).toBe('disqualified');
    const done = (await cat.saved())!;
    // every screen's answer is in the page
    expect(
      storedPages(done)
        .find((p) => p.id === c.p2)!
        .questions.map((q) => q.id),
    ).toEqual([c.a, c.b, c.c]);
  });

  it('goes Back to the screen before, and from a page’s first screen to the last of the page before on the path', async () => {
    const s = await setUp();
    const { ids } = s;
    await s.post(ids.p1, 0, { [ids.pet]: [{ choice_id: ids.dog }] });
    let response = await s.saved();
    expect(screenBack(s.r, response, placeOf(s.r.index, response), '1')).toEqual({
      pageId: ids.p1,
      screen: 0,
    });
    await s.post(ids.p1, 1, {});
    response = await s.saved();
    // on page 3 (page 2 skipped): Back goes to page 1's last screen, which may be shown again
    const place = placeOf(s.r.index, response);
    expect(place.pageId).toBe(ids.p3);
    expect(screenBack(s.r, response, place, '0')).toEqual({ pageId: ids.p1, screen: 1 });
    const again = await s.at(response, '1', ids.p1);
    expect([again.page.pageId, again.screen]).toEqual([ids.p1, 1]);
    expect(again.back).toEqual({ pageId: ids.p1, screen: 0 });
    // the first screen of the survey has nowhere to go back to
    expect((await s.at(response, '0', ids.p1)).back).toBeNull();
    // progress counts screens: two answered on page 1, and page 3's one is the last
    expect((await s.at(response)).progress).toEqual({ done: 2, total: 3, exact: true });
  });
});
