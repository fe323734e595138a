// Collector states and the doors of the respondent page (src/web/respond/pages.ts): when a collector
// takes no new responses (closed, past its close date, full) and why, its password, and which edit
// links reopen a response. The page tests (respond.e2e, collect-page.e2e) show the same pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Collector,
  CollectorNotOpen,
  closedReason,
  collectorById,
  createCollector,
  deleteCollector,
  updateCollector,
} from '../../src/domain/collectors/collectors.js';
import type { CollectorInput } from '../../src/domain/collectors/options.js';
import { checkCollectorPassword } from '../../src/domain/collectors/password.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { openEditLink, submitResponse } from '../../src/domain/responses/flow.js';
import { requireSurvey } from '../../src/domain/surveys/access.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

/** A one-question survey with a weblink collector made with `options`. */
async function withCollector(options: CollectorInput = {}, closeDate?: string | null) {
  const created = await createSurvey(t.deps, owner.actor, {
    title: 'Doors',
    pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Name?' }] }] }],
  });
  const survey = await requireSurvey(t.deps, owner.actor, created.id, 'collect', 'write');
  const collector = await createCollector(
    t.deps,
    owner.actor,
    survey,
    { type: 'weblink', ...options },
    closeDate,
  );
  return { survey, collector };
}

/** A completed response sent to the collector as POST /collectors/{id}/responses sends it. */
async function respond(s: Awaited<ReturnType<typeof withCollector>>, name = 'Ann') {
  const index = await designIndex(t.deps, s.survey);
  const page = index.pages[0];
  const collector = (await collectorById(t.deps, s.collector.id))!;
  return submitResponse(
    t.deps,
    { userId: owner.user.id, ip: null },
    s.survey,
    collector,
    index,
    { pages: [{ id: page.id, questions: [{ id: page.questions[0].id, answers: [{ text: name }] }] }] },
    undefined,
  );
}

const reload = async (c: Collector) => (await collectorById(t.deps, c.id))!;

describe('a collector takes no new responses', () => {
  it('when closed, and again when reopened', async () => {
    const s = await withCollector();
    expect(closedReason(s.collector, t.clock.now())).toBeNull();
    const closed = await updateCollector(
      t.deps,
      owner.actor,
      s.collector,
      { status: 'closed' },
      undefined,
      'patch',
    );
    expect(closedReason(closed, t.clock.now())).toBe('closed');
    await expect(respond(s)).rejects.toMatchObject({ code: 1025, reason: 'closed' });
    const open = await updateCollector(t.deps, owner.actor, closed, { status: 'open' }, undefined, 'patch');
    expect(closedReason(open, t.clock.now())).toBeNull();
    await respond(s);
  });

  it('from its close date on, by the clock', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const s = await withCollector({}, at);
    expect(closedReason(s.collector, t.clock.now())).toBeNull();
    expect(closedReason(s.collector, new Date(at))).toBe('expired');
    expect(closedReason(s.collector, new Date(Date.parse(at) - 1))).toBeNull();
  });

  it('once it holds response_limit responses; a limit of 0 is no limit', async () => {
    const s = await withCollector({ response_limit: 1 });
    await respond(s, 'first');
    const full = await reload(s.collector);
    expect(full.response_count).toBe(1);
    expect(closedReason(full, t.clock.now())).toBe('full');
    const err = await respond(s, 'second').catch((e) => e);
    expect(err).toBeInstanceOf(CollectorNotOpen);
    expect(err).toMatchObject({ code: 1025, reason: 'full' });
    const unlimited = await updateCollector(
      t.deps,
      owner.actor,
      full,
      { response_limit: 0 },
      undefined,
      'patch',
    );
    expect(unlimited.response_limit).toBeNull();
    expect(closedReason(unlimited, t.clock.now())).toBeNull();
  });
});

describe('deleting a collector', () => {
  it('takes its responses out of the survey’s count', async () => {
    const s = await withCollector({ allow_multiple_responses: true });
    const other = await createCollector(t.deps, owner.actor, s.survey, { type: 'weblink' }, undefined);
    await respond(s, 'one');
    await respond(s, 'two');
    await respond({ ...s, collector: other }, 'three');
    const count = async () =>
      Number(
        (
          await t.deps.db.kysely
            .selectFrom('surveys')
            .select('response_count')
            .where('id', '=', s.survey.id)
            .executeTakeFirstOrThrow()
        ).response_count,
      );
    expect(await count()).toBe(3);
    await deleteCollector(t.deps, owner.actor, await reload(s.collector));
    expect(await count()).toBe(1);
    expect(await collectorById(t.deps, s.collector.id)).toBeUndefined();
  });
});

describe('a collector’s password', () => {
  it('lets in only the right password; a collector without one lets everyone in', async () => {
    const s = await withCollector({ password: 'open sesame' });
    expect(s.collector.password_hash).not.toContain('open sesame');
    expect((await checkCollectorPassword(t.deps, s.collector, 'wrong', '192.0.2.1')).ok).toBe(false);
    expect((await checkCollectorPassword(t.deps, s.collector, 'open sesame', '192.0.2.1')).ok).toBe(true);
    const plain = await withCollector();
    expect((await checkCollectorPassword(t.deps, plain.collector, 'anything', '192.0.2.1')).ok).toBe(true);
    // emptying it removes it
    const cleared = await updateCollector(
      t.deps,
      owner.actor,
      s.collector,
      { password: '' },
      undefined,
      'patch',
    );
    expect(cleared.password_hash).toBeNull();
  });
});

describe('a response’s edit link', () => {
  it('reopens a completed response only when the collector allows editing always', async () => {
    const always = await withCollector({ edit_response_type: 'always' });
    const untilComplete = await withCollector();
    const never = await withCollector({ edit_response_type: 'never' });
    const r1 = await respond(always);
    const r2 = await respond(untilComplete);
    const r3 = await respond(never);
    const opened = await openEditLink(t.deps, r1.edit_token!);
    expect(opened && 'response' in opened && opened.response.id).toBe(r1.id);
    expect(await openEditLink(t.deps, r2.edit_token!)).toEqual({ refused: 'until_complete' });
    expect(await openEditLink(t.deps, r3.edit_token!)).toEqual({ refused: 'never' });
    expect(await openEditLink(t.deps, 'nonexistent-token-1234')).toBeUndefined();
  });
});
