// The screening's rules (src/domain/screening) as the respondent page calls them: a caught post is
// routed by the survey's skip logic as the flow would route it (next page, jump, disqualification)
// while nothing is counted; releasing a flagged response counts it, unless its collector is full
// (it stays aside); the collector option's checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, createCollector, updateCollector } from '../../src/domain/collectors/collectors.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { answerPage, type Respondent } from '../../src/domain/responses/flow.js';
import { countMatching } from '../../src/domain/responses/responses.js';
import { countFlagged, flaggedPage, releaseFlagged } from '../../src/domain/screening/review.js';
import { type PostSignals, screenPage, shownStamp } from '../../src/domain/screening/screen.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createPage, createQuestion, type PageWithCount } from '../../src/domain/surveys/design.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;
let sessions = 0;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

const bot: PostSignals = { honeypot: 'https://spam.example', shown: '', browserKey: null };

/** Page 1: a colour (Red jumps to page 3, Blue disqualifies); pages 2 and 3: a text each. */
async function setUp() {
  const created = await createSurvey(t.deps, owner.actor, { title: 'Screened', pages: [] });
  const pages: PageWithCount[] = [];
  for (const title of ['One', 'Two', 'Three'])
    pages.push(await createPage(t.deps, owner.actor, created, { title }));
  const colour = await createQuestion(t.deps, owner.actor, created, pages[0].id, {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Colour?' }],
    answers: {
      choices: [
        { text: 'Red', logic: { action: 'go_to_page', page_id: pages[2].id } },
        { text: 'Blue', logic: { action: 'disqualify' } },
        { text: 'Green' },
      ],
    },
  });
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'collect', 'write');
  const collector = await createCollector(t.deps, owner.actor, survey, { type: 'weblink' }, undefined);
  const index = await designIndex(t.deps, survey);
  const [red, blue, green] = colour.doc.answers!.choices!.map((c) => c.id);
  const respondent = (c: Collector = collector): Respondent => ({
    survey,
    collector: c,
    index,
    link: new URLSearchParams(),
    respondentKey: `session-${++sessions}`,
    ip: '192.0.2.7',
  });
  const first = (choice: string) => ({
    id: pages[0].id,
    questions: [{ id: colour.id, answers: [{ choice_id: choice }] }],
  });
  return {
    survey,
    collector,
    pages: pages.map((p) => p.id),
    choices: { red, blue, green },
    respondent,
    first,
  };
}

describe('a caught post', () => {
  it('goes where the skip logic sends it, and nothing is counted', async () => {
    const s = await setUp();
    expect(await screenPage(t.deps, s.respondent(), {}, s.first(s.choices.green), undefined, bot)).toEqual({
      kind: 'next',
      pageId: s.pages[1],
    });
    expect(await screenPage(t.deps, s.respondent(), {}, s.first(s.choices.red), undefined, bot)).toEqual({
      kind: 'next',
      pageId: s.pages[2],
    });
    expect(await screenPage(t.deps, s.respondent(), {}, s.first(s.choices.blue), undefined, bot)).toEqual({
      kind: 'finished',
      status: 'disqualified',
    });
    expect(await countFlagged(t.deps, { surveyId: s.survey.id })).toBe(3);
    expect((await countMatching(t.deps, { surveyId: s.survey.id })).total).toBe(0);
  });

  it('lets a post through to the flow once its page was shown for 1.5 s, not sooner', async () => {
    const s = await setUp();
    const r = s.respondent();
    const signals = (): PostSignals => ({
      honeypot: '',
      shown: shownStamp(t.deps, r.respondentKey, s.pages[0]),
      browserKey: null,
    });
    const early = signals();
    t.clock.advance(1499);
    const late = signals();
    t.clock.advance(1500);
    expect(await screenPage(t.deps, r, {}, s.first(s.choices.green), undefined, late)).toBeNull();
    const outcome = await answerPage(t.deps, r, undefined, { page: s.first(s.choices.green) }, undefined);
    expect(outcome).toEqual({ kind: 'next', pageId: s.pages[1] });
    expect((await countMatching(t.deps, { surveyId: s.survey.id })).total).toBe(1);
    // another respondent's page drawn 1.499 s before its post is too fast
    const other = s.respondent();
    const stamp = shownStamp(t.deps, other.respondentKey, s.pages[0]);
    t.clock.advance(1499);
    const caught = await screenPage(t.deps, other, {}, s.first(s.choices.green), undefined, {
      ...early,
      shown: stamp,
    });
    expect(caught).toEqual({ kind: 'next', pageId: s.pages[1] });
    expect(await countFlagged(t.deps, { surveyId: s.survey.id })).toBe(1);
  });
});

describe('release', () => {
  it('counts a flagged response, but keeps it aside when its collector is full', async () => {
    const s = await setUp();
    for (let i = 0; i < 2; i++)
      await screenPage(t.deps, s.respondent(), {}, s.first(s.choices.blue), undefined, bot);
    const [a, b] = await flaggedPage(t.deps, { surveyId: s.survey.id }, 0, 10);
    const actor = { userId: owner.user.id, ip: null };
    expect(await releaseFlagged(t.deps, actor, s.survey, [a.id])).toEqual({ released: 1, refused: 0 });
    expect((await countMatching(t.deps, { surveyId: s.survey.id })).total).toBe(1);
    await updateCollector(t.deps, owner.actor, s.collector, { response_limit: 1 }, undefined, 'patch');
    expect(await releaseFlagged(t.deps, actor, s.survey, [b.id])).toEqual({ released: 0, refused: 1 });
    expect(await countFlagged(t.deps, { surveyId: s.survey.id })).toBe(1);
    expect((await countMatching(t.deps, { surveyId: s.survey.id })).total).toBe(1);
  });
});

describe('the collector option', () => {
  it('refuses values out of range, naming the field', async () => {
    const s = await setUp();
    const set = (screening: Record<string, unknown>) =>
      updateCollector(t.deps, owner.actor, s.collector, { screening }, undefined, 'patch');
    await refused(set({ min_page_seconds: 61 }), 1002, /screening.min_page_seconds/);
    await refused(set({ max_per_address: 0 }), 1002, /screening.max_per_address/);
    await refused(set({ duplicates: 'cookie' }), 1002, /screening.duplicates/);
    await refused(set({ window_hours: 0.5 }), 1002, /screening.window_hours/);
    const ok = await set({ max_per_address: 3, duplicates: 'contact' });
    expect(ok.options.screening).toEqual({
      min_page_seconds: null,
      max_per_address: 3,
      duplicates: 'contact',
      window_hours: 24,
    });
  });
});
