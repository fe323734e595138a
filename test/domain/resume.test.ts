// "Finish later" (domain/responses/resume.ts): the page's acceptable answers saved as a partial
// response without asking for required ones, a link of at least 128 random bits stored only as its
// hash, which opens the response until RESUME_DAYS have passed, says so once the response is done,
// and can be emailed a few times; and where respondents stopped (domain/analysis/dropoff.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropOff } from '../../src/domain/analysis/dropoff.js';
import { createCollector } from '../../src/domain/collectors/collectors.js';
import type { CollectorInput } from '../../src/domain/collectors/options.js';
import type { PageIn } from '../../src/domain/responses/answers.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { answerPage, type Respondent } from '../../src/domain/responses/flow.js';
import { type ResponseRow, responseOfRespondent, storedPages } from '../../src/domain/responses/responses.js';
import {
  emailResumeLink,
  finishLater,
  openResumeLink,
  pruneResumeLinks,
  RESUME_EMAILS_PER_LINK,
} from '../../src/domain/responses/resume.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createPage, createQuestion } from '../../src/domain/surveys/design.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { sha256 } from '../../src/platform/secrets.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;

beforeAll(async () => {
  t = await openDomain({ RESUME_DAYS: '7' });
  owner = await t.account();
});
afterAll(() => t?.close());

let sessions = 0;

/** Two pages, each a required choice and a text; a weblink collector with `options`. */
async function setUp(options: CollectorInput = {}) {
  const created = await createSurvey(t.deps, owner.actor, { title: 'Later', pages: [] });
  const pages: string[] = [];
  const questions: Array<{ choice: string; red: string; text: string }> = [];
  for (const title of ['One', 'Two']) {
    const page = await createPage(t.deps, owner.actor, created, { title });
    pages.push(page.id);
    const choice = await createQuestion(t.deps, owner.actor, created, page.id, {
      family: 'single_choice',
      subtype: 'vertical',
      headings: [{ heading: `${title}: colour?` }],
      required: { text: 'Please pick one.' },
      answers: { choices: [{ text: 'Red' }, { text: 'Green' }] },
    });
    const text = await createQuestion(t.deps, owner.actor, created, page.id, {
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading: `${title}: why?` }],
    });
    questions.push({ choice: choice.id, red: choice.doc.answers!.choices![0].id!, text: text.id });
  }
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'collect', 'write');
  const collector = await createCollector(
    t.deps,
    owner.actor,
    survey,
    { type: 'weblink', ...options },
    undefined,
  );
  const index = await designIndex(t.deps, survey);
  const page = (i: number, red: boolean, why: string): PageIn => ({
    id: pages[i],
    questions: [
      { id: questions[i].choice, answers: red ? [{ choice_id: questions[i].red }] : [] },
      { id: questions[i].text, answers: why ? [{ text: why }] : [] },
    ],
  });
  const respondent = (): Respondent => ({
    survey,
    collector,
    index,
    link: new URLSearchParams(),
    respondentKey: `later-${++sessions}`,
    ip: '192.0.2.9',
  });
  return { survey, collector, index, pages, page, respondent };
}

const texts = (r: ResponseRow) =>
  storedPages(r).flatMap((p) => p.questions.flatMap((q) => q.answers.map((a) => a.text ?? a.choice_id)));

describe('finish later', () => {
  it('saves what is valid without the required answer, and issues a hashed link of 256 bits', async () => {
    const s = await setUp();
    const r = s.respondent();
    const first = await answerPage(t.deps, r, undefined, { page: s.page(0, true, 'because') }, undefined);
    expect(first.kind).toBe('next');
    const partial = await responseOfRespondent(t.deps, s.collector.id, r.respondentKey);
    // page 2: the required colour left out, the text kept
    const saved = (await finishLater(t.deps, r, partial, { page: s.page(1, false, 'tired') }, undefined))!;
    expect(saved.response.response_status).toBe('partial');
    expect(saved.response.current_page_id).toBe(s.pages[1]);
    expect(texts(saved.response)).toEqual([expect.any(String), 'because', 'tired']);
    // 32 random bytes as base64url: 256 bits
    expect(saved.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.deps.db.kysely.selectFrom('resume_links').selectAll().execute();
    expect(rows.some((x) => x.token_hash === sha256(saved.token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(saved.token);
    const expires = Date.parse(saved.expiresAt) - t.clock.now().getTime();
    expect(expires).toBe(7 * 86_400_000);
  });

  it('opens the response until RESUME_DAYS have passed, then says the link expired', async () => {
    const s = await setUp();
    const saved = (await finishLater(
      t.deps,
      s.respondent(),
      undefined,
      { page: s.page(0, true, '') },
      undefined,
    ))!;
    const open = await openResumeLink(t.deps, saved.token);
    expect(open.state).toBe('open');
    expect(open.state === 'open' && open.link.response.id).toBe(saved.response.id);
    t.clock.advance(7 * 86_400_000 - 1000);
    expect((await openResumeLink(t.deps, saved.token)).state).toBe('open');
    t.clock.advance(2000);
    expect(await openResumeLink(t.deps, saved.token)).toMatchObject({
      state: 'expired',
      expiresAt: saved.expiresAt,
    });
    // the retention pass keeps an expired link RESUME_DAYS more (it still says "expired"), then deletes it
    expect(await pruneResumeLinks(t.deps, 500)).toBe(0);
    t.clock.advance(7 * 86_400_000);
    expect(await pruneResumeLinks(t.deps, 500)).toBeGreaterThan(0);
    expect((await openResumeLink(t.deps, saved.token)).state).toBe('unknown');
  });

  it('says an unknown or malformed link leads nowhere', async () => {
    expect((await openResumeLink(t.deps, 'A'.repeat(43))).state).toBe('unknown');
    expect((await openResumeLink(t.deps, '../x')).state).toBe('unknown');
  });

  it('says the response is done once it is completed, even after the link expired', async () => {
    const s = await setUp();
    const r = s.respondent();
    const saved = (await finishLater(t.deps, r, undefined, { page: s.page(0, true, '') }, undefined))!;
    const open = await openResumeLink(t.deps, saved.token);
    if (open.state !== 'open') throw new Error(open.state);
    // the response continued elsewhere: pages answered to the end
    const a = await answerPage(t.deps, r, open.link.response, { page: s.page(0, true, '') }, undefined);
    expect(a.kind).toBe('next');
    const now = await responseOfRespondent(t.deps, s.collector.id, r.respondentKey);
    const end = await answerPage(t.deps, r, now, { page: s.page(1, true, 'done') }, undefined);
    expect(end.kind).toBe('finished');
    expect((await openResumeLink(t.deps, saved.token)).state).toBe('done');
    t.clock.advance(30 * 86_400_000);
    expect((await openResumeLink(t.deps, saved.token)).state).toBe('done');
  });

  it('saves nothing and issues no link where the collector lets no saved response change', async () => {
    const s = await setUp({ edit_response_type: 'never' });
    expect(
      await finishLater(t.deps, s.respondent(), undefined, { page: s.page(0, true, '') }, undefined),
    ).toBeNull();
  });

  it('emails the link through the outbox a few times at most, and refuses a malformed address', async () => {
    const s = await setUp();
    const saved = (await finishLater(
      t.deps,
      s.respondent(),
      undefined,
      { page: s.page(0, true, '') },
      undefined,
    ))!;
    await refused(emailResumeLink(t.deps, saved.token, 'not an address', '192.0.2.50'), 1002);
    const outcomes = [];
    for (let i = 0; i < RESUME_EMAILS_PER_LINK + 1; i++)
      outcomes.push(
        (await emailResumeLink(t.deps, saved.token, 'ann@example.com', `192.0.2.${60 + i}`)).state,
      );
    expect(outcomes).toEqual([...Array(RESUME_EMAILS_PER_LINK).fill('sent'), 'capped']);
    const mails = await t.deps.db.kysely
      .selectFrom('emails')
      .selectAll()
      .where('purpose', '=', 'resume_link')
      .where('ref_id', '=', saved.response.id)
      .execute();
    expect(mails).toHaveLength(RESUME_EMAILS_PER_LINK);
    expect(mails[0].to_address).toBe('ann@example.com');
    expect(mails[0].text_body).toContain(`/r/resume/${saved.token}`);
    expect(mails[0].subject).toContain('Later');
  });
});

describe('drop-off', () => {
  it('counts partial responses by the page they stopped on, and completed ones as finished', async () => {
    const s = await setUp();
    // two stop on page 1 (Finish later there), one on page 2 (answered page 1), two finish
    for (let i = 0; i < 2; i++)
      await finishLater(t.deps, s.respondent(), undefined, { page: s.page(0, false, 'x') }, undefined);
    await answerPage(t.deps, s.respondent(), undefined, { page: s.page(0, true, '') }, undefined);
    for (let i = 0; i < 2; i++) {
      const r = s.respondent();
      await answerPage(t.deps, r, undefined, { page: s.page(0, true, '') }, undefined);
      const now = await responseOfRespondent(t.deps, s.collector.id, r.respondentKey);
      await answerPage(t.deps, r, now, { page: s.page(1, true, '') }, undefined);
    }
    const d = await dropOff(t.deps, s.index, { surveyId: s.survey.id });
    // (the survey's own empty first page included: nobody stopped there)
    const want: Record<string, number> = { [s.pages[0]]: 2, [s.pages[1]]: 1 };
    expect(d).toEqual({
      pages: s.index.pages.map((p) => ({ pageId: p.id, stopped: want[p.id] ?? 0 })),
      elsewhere: 0,
      finished: 2,
      screenedOut: 0,
      total: 5,
    });
    // with the results filter: completed only
    const done = await dropOff(t.deps, s.index, { surveyId: s.survey.id, status: ['completed'] });
    expect(done).toMatchObject({ finished: 2, total: 2 });
    expect(done.pages.every((p) => p.stopped === 0)).toBe(true);
  });
});
