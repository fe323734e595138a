// Quotas' rules (domain/quotas) as the API and the builder page call them: what a quota may say,
// which responses it counts (every condition met, once, when the response completes), what an
// overquota respondent's outcome is, and what a design change does to a quota's conditions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/domain/collectors/collectors.js';
import {
  createQuota,
  getQuota,
  meets,
  type QuotaInput,
  updateQuota,
} from '../../src/domain/quotas/quotas.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { answerPage, type Respondent } from '../../src/domain/responses/flow.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createPage, createQuestion, deleteQuestion } from '../../src/domain/surveys/design.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

let sessions = 0;

/** One page: a single-choice age, a multiple-choice fruit and a text; a weblink collector. */
async function setUp() {
  const created = await createSurvey(t.deps, owner.actor, { title: 'Quotas', pages: [] });
  const page = await createPage(t.deps, owner.actor, created, { title: 'Only' });
  const age = await createQuestion(t.deps, owner.actor, created, page.id, {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Age?' }],
    answers: { choices: [{ text: 'Young' }, { text: 'Old' }] },
  });
  const fruit = await createQuestion(t.deps, owner.actor, created, page.id, {
    family: 'multiple_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Fruit?' }],
    answers: { choices: [{ text: 'Apple' }, { text: 'Pear' }] },
  });
  const note = await createQuestion(t.deps, owner.actor, created, page.id, {
    family: 'open_ended',
    subtype: 'single',
    headings: [{ heading: 'Note?' }],
  });
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'design', 'write');
  const collector = await createCollector(t.deps, owner.actor, survey, { type: 'weblink' }, undefined);
  const [young, old] = age.doc.answers!.choices!.map((c) => c.id);
  const [apple, pear] = fruit.doc.answers!.choices!.map((c) => c.id);
  const respondent = async (): Promise<Respondent> => ({
    survey: await requireSurvey(t.deps, owner.actor, created.id, 'design', 'read'),
    collector,
    index: await designIndex(t.deps, await requireSurvey(t.deps, owner.actor, created.id, 'design', 'read')),
    link: new URLSearchParams(),
    respondentKey: `quota-session-${++sessions}`,
    ip: '192.0.2.9',
  });
  /** Answers the only page (which completes the response). */
  const answer = async (ageChoice: string, fruits: string[] = []) =>
    answerPage(
      t.deps,
      await respondent(),
      undefined,
      {
        page: {
          id: page.id,
          questions: [
            { id: age.id, answers: [{ choice_id: ageChoice }] },
            { id: fruit.id, answers: fruits.map((choice_id) => ({ choice_id })) },
            { id: note.id, answers: [] },
          ],
        },
      },
      undefined,
    );
  return { survey, page, age, fruit, note, young, old, apple, pear, answer, respondent };
}

type S = Awaited<ReturnType<typeof setUp>>;
const quota = (s: S, more: Partial<QuotaInput> = {}): QuotaInput => ({
  name: 'Young',
  limit: 1,
  conditions: [{ question_id: s.age.id, choice_id: s.young }],
  action: { type: 'end_survey' },
  ...more,
});

describe('what a quota may say', () => {
  it('refuses a limit below 1, no conditions, and conditions that are not a choice of a choice question of the survey', async () => {
    const s = await setUp();
    const other = await setUp();
    await refused(createQuota(t.deps, s.survey, quota(s, { limit: 0 })), 1002, /'limit'/);
    await refused(createQuota(t.deps, s.survey, quota(s, { name: '  ' })), 1002, /'name'/);
    await refused(createQuota(t.deps, s.survey, quota(s, { conditions: [] })), 1002, /'conditions'/);
    await refused(
      createQuota(
        t.deps,
        s.survey,
        quota(s, { conditions: [{ question_id: s.note.id, choice_id: s.young }] }),
      ),
      1002,
      /'conditions\[0\]\.question_id'/,
    );
    await refused(
      createQuota(
        t.deps,
        s.survey,
        quota(s, { conditions: [{ question_id: s.age.id, choice_id: s.apple }] }),
      ),
      1002,
      /'conditions\[0\]\.choice_id'/,
    );
    // another survey's question is not this survey's
    await refused(
      createQuota(
        t.deps,
        s.survey,
        quota(s, { conditions: [{ question_id: other.age.id, choice_id: other.young }] }),
      ),
      1002,
      /'conditions\[0\]\.question_id'/,
    );
    await refused(
      createQuota(
        t.deps,
        s.survey,
        quota(s, {
          conditions: [
            { question_id: s.age.id, choice_id: s.young },
            { question_id: s.age.id, choice_id: s.young },
          ],
        }),
      ),
      1002,
      /'conditions\[1\]'/,
    );
  });

  it('takes only an http(s) address for a redirect, and a URL only for a redirect', async () => {
    const s = await setUp();
    for (const url of ['', 'ftp://example.org/x', 'javascript:alert(1)', 'not a url'])
      await refused(
        createQuota(t.deps, s.survey, quota(s, { action: { type: 'redirect', url } })),
        1002,
        /'action\.url'/,
      );
    await refused(
      createQuota(t.deps, s.survey, quota(s, { action: { type: 'end_survey', url: 'https://example.org' } })),
      1002,
      /'action\.url'/,
    );
    const ok = await createQuota(
      t.deps,
      s.survey,
      quota(s, { action: { type: 'redirect', url: 'https://example.org/full' } }),
    );
    expect(ok.action).toEqual({ type: 'redirect', message: '', url: 'https://example.org/full' });
  });
});

describe('matching', () => {
  it('needs every condition, a multiple-choice answer meeting any of its chosen choices', () => {
    const q = {
      conditions: [
        { question_id: 'a', choice_id: '1' },
        { question_id: 'b', choice_id: '2' },
      ],
    };
    const answered = (b: string[]) => ({
      pages: [
        {
          questions: [
            { id: 'a', answers: [{ choice_id: '1' }] },
            { id: 'b', answers: b.map((choice_id) => ({ choice_id })) },
          ],
        },
      ],
    });
    expect(meets(q, answered(['3', '2']))).toBe(true);
    expect(meets(q, answered(['3']))).toBe(false);
    expect(meets({ conditions: [] }, answered(['2']))).toBe(false);
  });
});

describe('counting at completion', () => {
  it('completes up to the limit, then answers overquota with the quota; others still complete', async () => {
    const s = await setUp();
    const q = await createQuota(
      t.deps,
      s.survey,
      quota(s, {
        conditions: [
          { question_id: s.age.id, choice_id: s.young },
          { question_id: s.fruit.id, choice_id: s.pear },
        ],
        action: { type: 'end_survey', message: 'Full, thanks.' },
      }),
    );
    const first = await s.answer(s.young, [s.apple, s.pear]);
    expect(first.kind === 'finished' && first.response.response_status).toBe('completed');
    // not every condition met: not counted
    const apple = await s.answer(s.young, [s.apple]);
    expect(apple.kind === 'finished' && apple.response.response_status).toBe('completed');
    const second = await s.answer(s.young, [s.pear]);
    expect(second.kind).toBe('overquota');
    if (second.kind === 'overquota') {
      expect(second.response.response_status).toBe('overquota');
      expect(second.quota.action.message).toBe('Full, thanks.');
    }
    expect((await getQuota(t.deps, s.survey, q.id)).count).toBe(1);
  });

  it('ends a respondent beyond a disqualifying quota as disqualified, with the status overquota', async () => {
    const s = await setUp();
    await createQuota(t.deps, s.survey, quota(s, { action: { type: 'disqualify' } }));
    await s.answer(s.young);
    const out = await s.answer(s.young);
    expect(out.kind === 'finished' && out.status).toBe('disqualified');
    expect(out.kind === 'finished' && out.response.response_status).toBe('overquota');
  });

  it('keeps the count when the limit is lowered: the quota is then full', async () => {
    const s = await setUp();
    const q = await createQuota(t.deps, s.survey, quota(s, { limit: 3 }));
    await s.answer(s.young);
    await s.answer(s.young);
    const lowered = await updateQuota(t.deps, s.survey, q.id, { limit: 1 }, 'patch');
    expect(lowered).toMatchObject({ limit: 1, count: 2 });
    expect((await s.answer(s.young)).kind).toBe('overquota');
  });

  it('stops counting when a question its conditions name is deleted; the design change is not refused', async () => {
    const s = await setUp();
    const q = await createQuota(t.deps, s.survey, quota(s, { limit: 1 }));
    await s.answer(s.young);
    await deleteQuestion(t.deps, owner.actor, s.survey, s.page.id, s.age.id);
    const kept = await getQuota(t.deps, s.survey, q.id);
    expect(kept.conditions).toEqual([{ question_id: s.age.id, choice_id: s.young }]);
    // the answer it counted can no longer be given: later respondents complete
    const out = await answerPage(
      t.deps,
      await s.respondent(),
      undefined,
      { page: { id: s.page.id, questions: [{ id: s.fruit.id, answers: [{ choice_id: s.pear }] }] } },
      undefined,
    );
    expect(out.kind === 'finished' && out.response.response_status).toBe('completed');
    // and changing the quota again must name a question the survey has
    await refused(
      updateQuota(t.deps, s.survey, q.id, { limit: 5 }, 'patch'),
      1002,
      /'conditions\[0\]\.question_id'/,
    );
  });
});
