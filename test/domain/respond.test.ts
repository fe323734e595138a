// The respondent page's flow (src/web/respond/pages.ts → domain/responses/flow.ts) without a browser:
// a page's answers checked on the server (nothing saved when one needs putting right), skip logic
// choosing the next page or the end, Exit saving a partial response unless the collector lets no
// saved response change, and one response per respondent session. The page tests (respond.e2e,
// branching.e2e) walk the same in Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, createCollector } from '../../src/domain/collectors/collectors.js';
import type { CollectorInput } from '../../src/domain/collectors/options.js';
import type { PageIn } from '../../src/domain/responses/answers.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { answerPage, exitPage, placeOf, type Respondent } from '../../src/domain/responses/flow.js';
import { responseOfRespondent } from '../../src/domain/responses/responses.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createPage, createQuestion, type PageWithCount } from '../../src/domain/surveys/design.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
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
 * Three pages: a required colour choice (Red jumps to page 3, Blue disqualifies) and a name on
 * page 1, a text on page 2 and on page 3; a weblink collector with `options`; and a respondent.
 */
async function setUp(options: CollectorInput = {}) {
  const created = await createSurvey(t.deps, owner.actor, { title: 'Flow', pages: [] });
  const pages: PageWithCount[] = [];
  for (const title of ['One', 'Two', 'Three'])
    pages.push(await createPage(t.deps, owner.actor, created, { title }));
  const colour = await createQuestion(t.deps, owner.actor, created, pages[0].id, {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Colour?' }],
    required: { text: 'Please pick a colour.' },
    answers: {
      choices: [
        { text: 'Red', logic: { action: 'go_to_page', page_id: pages[2].id } },
        { text: 'Blue', logic: { action: 'disqualify' } },
        { text: 'Green' },
      ],
    },
  });
  const name = await createQuestion(t.deps, owner.actor, created, pages[0].id, {
    family: 'open_ended',
    subtype: 'single',
    headings: [{ heading: 'Name?' }],
  });
  for (const p of pages.slice(1))
    await createQuestion(t.deps, owner.actor, created, p.id, {
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading: `${p.title}?` }],
    });
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'collect', 'write');
  const collector = await createCollector(
    t.deps,
    owner.actor,
    survey,
    { type: 'weblink', ...options },
    undefined,
  );
  const index = await designIndex(t.deps, survey);
  const [red, blue, green] = colour.doc.answers!.choices!.map((c) => c.id);
  return {
    collector,
    pages: pages.map((p) => p.id),
    choices: { red, blue, green },
    respondent: (c: Collector = collector): Respondent => ({
      survey,
      collector: c,
      index,
      link: new URLSearchParams(),
      respondentKey: `session-${++sessions}`,
      ip: '192.0.2.7',
    }),
    firstPage: (choice: string | null, nameText = ''): PageIn => ({
      id: pages[0].id,
      questions: [
        { id: colour.id, answers: choice ? [{ choice_id: choice }] : [] },
        { id: name.id, answers: nameText ? [{ text: nameText }] : [] },
      ],
    }),
  };
}

describe('answering a page', () => {
  it('refuses a required question left unanswered, saving nothing', async () => {
    const s = await setUp();
    const r = s.respondent();
    const outcome = await answerPage(t.deps, r, undefined, { page: s.firstPage(null, 'Ann') }, undefined);
    expect(outcome.kind).toBe('invalid');
    expect(outcome.kind === 'invalid' && [...outcome.errors.values()]).toEqual([
      { text: 'Please pick a colour.' },
    ]);
    expect(await responseOfRespondent(t.deps, s.collector.id, r.respondentKey)).toBeUndefined();
  });

  it('goes on to the next page without a rule, keeping a partial response on the path', async () => {
    const s = await setUp();
    const r = s.respondent();
    const outcome = await answerPage(t.deps, r, undefined, { page: s.firstPage(s.choices.green) }, undefined);
    expect(outcome).toEqual({ kind: 'next', pageId: s.pages[1] });
    const saved = (await responseOfRespondent(t.deps, s.collector.id, r.respondentKey))!;
    expect(saved.response_status).toBe('partial');
    // the page to show on a repeat visit is where they left off, Back goes to page 1
    expect(placeOf(r.index, saved)).toMatchObject({ pageId: s.pages[1], back: s.pages[0] });
  });

  it('follows a choice’s rule to a later page, and ends a disqualified respondent', async () => {
    const s = await setUp();
    const jump = await answerPage(
      t.deps,
      s.respondent(),
      undefined,
      { page: s.firstPage(s.choices.red) },
      undefined,
    );
    expect(jump).toEqual({ kind: 'next', pageId: s.pages[2] });
    const out = await answerPage(
      t.deps,
      s.respondent(),
      undefined,
      { page: s.firstPage(s.choices.blue) },
      undefined,
    );
    expect(out.kind).toBe('finished');
    if (out.kind === 'finished') {
      expect(out.status).toBe('disqualified');
      expect(out.response.response_status).toBe('disqualified');
    }
  });

  it('completes on the last page; the session’s response is then the completed one', async () => {
    const s = await setUp();
    const r = s.respondent();
    await answerPage(t.deps, r, undefined, { page: s.firstPage(s.choices.red) }, undefined);
    const partial = await responseOfRespondent(t.deps, s.collector.id, r.respondentKey);
    const last = r.index.pageById.get(s.pages[2])!;
    const done = await answerPage(
      t.deps,
      r,
      partial,
      { page: { id: last.id, questions: [{ id: last.questions[0].id, answers: [{ text: 'bye' }] }] } },
      undefined,
    );
    expect(done.kind === 'finished' && done.status).toBe('completed');
    const saved = (await responseOfRespondent(t.deps, s.collector.id, r.respondentKey))!;
    expect(saved.id).toBe(partial!.id);
    expect(saved.response_status).toBe('completed');
    expect(JSON.parse(saved.page_path)).toEqual([s.pages[0], s.pages[2]]);
  });
});

describe('Exit', () => {
  it('saves the acceptable answers as a partial response to resume', async () => {
    const s = await setUp();
    const r = s.respondent();
    // the colour is missing (required): the name is still kept
    const exited = await exitPage(t.deps, r, undefined, { page: s.firstPage(null, 'Ann') }, undefined);
    const saved = (await responseOfRespondent(t.deps, s.collector.id, r.respondentKey))!;
    expect(exited?.id).toBe(saved.id);
    expect(saved.response_status).toBe('partial');
    expect(saved.current_page_id).toBe(s.pages[0]);
  });

  it('keeps nothing when the collector lets no saved response change', async () => {
    const s = await setUp({ edit_response_type: 'never' });
    const r = s.respondent();
    expect(
      await exitPage(t.deps, r, undefined, { page: s.firstPage(s.choices.green, 'Ann') }, undefined),
    ).toBeNull();
    expect(await responseOfRespondent(t.deps, s.collector.id, r.respondentKey)).toBeUndefined();
  });
});
