// Quotas through HTTP: the /v3/surveys/{id}/quotas extension (CRUD, its errors and scopes), and the
// count under real concurrent submissions on the respondent pages and through the API (exactly the
// limit complete, the rest are overquota and get the quota's action).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  errorCode,
  openEnded,
  type SeededSurvey,
  seedSurvey,
  singleChoice,
  startServer,
  type TestAccount,
} from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

const api = () => server.client;
const auth = () => ({ token: owner.token });

/** A two-page survey (the quota's question on the first page, a note on the last) with a weblink. */
function twoPages(): Promise<SeededSurvey> {
  return seedSurvey(server, owner, {
    pages: [
      { questions: { age: singleChoice('Your age?', ['Under 30', '30 or over']) } },
      { questions: { note: openEnded('Anything else?') } },
    ],
    collector: 'weblink',
  });
}

/** A one-page survey (its only page completes the response) with a weblink. */
function onePage(): Promise<SeededSurvey> {
  return seedSurvey(server, owner, {
    questions: {
      age: singleChoice('Your age?', ['Under 30', '30 or over']),
      region: singleChoice('Region?', ['North', 'South']),
      note: openEnded('Anything else?'),
    },
    collector: 'weblink',
  });
}

async function addQuota(s: SeededSurvey, body: Record<string, unknown>): Promise<any> {
  const res = await api().post(`/v3/surveys/${s.id}/quotas`, body, auth());
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const under30 = (s: SeededSurvey) => ({ question_id: s.questions.age, choice_id: s.choices.age[0] });

function expect1002(res: ApiResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(errorCode(res)).toBe('1002');
  expect(res.body.error.message).toContain(field);
}

/** A respondent session opened at the survey link: its cookie and the form's hidden fields. */
async function openSession(url: string) {
  const path = new URL(url).pathname;
  const first = await fetch(`${server.url}${path}`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  return { path, cookie, csrf: field('csrf'), p: field('p') };
}

type Session = Awaited<ReturnType<typeof openSession>>;

/** Posts the session's current page (the page id `p` unless given). */
function postPage(s: Session, answers: Record<string, string>, nav: string, p = s.p) {
  return fetch(`${server.url}${s.path}?p=${p}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: s.csrf, p, nav, ...answers }).toString(),
  });
}

async function statuses(surveyId: string): Promise<Record<string, number>> {
  const res = await api().get(`/v3/surveys/${surveyId}/responses/bulk?per_page=100`, auth());
  expect(res.status, res.text).toBe(200);
  const out: Record<string, number> = {};
  for (const r of res.body.data) out[r.response_status] = (out[r.response_status] ?? 0) + 1;
  return out;
}

describe('the quotas endpoints', () => {
  it('create, list, read, change and delete a quota', async () => {
    const s = await onePage();
    const created = await addQuota(s, {
      name: 'Young people',
      limit: 5,
      conditions: [under30(s)],
      action: { type: 'end_survey', message: 'We have enough answers from you.' },
    });
    expect(created).toMatchObject({
      name: 'Young people',
      limit: 5,
      count: 0,
      conditions: [under30(s)],
      action: { type: 'end_survey', message: 'We have enough answers from you.', url: '' },
    });
    expect(created.href).toMatch(new RegExp(`/v3/surveys/${s.id}/quotas/${created.id}$`));
    const list = await api().get(`/v3/surveys/${s.id}/quotas`, auth());
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.data[0].id).toBe(created.id);
    const one = await api().get(`/v3/surveys/${s.id}/quotas/${created.id}`, auth());
    expect(one.body.name).toBe('Young people');

    const patched = await api().patch(
      `/v3/surveys/${s.id}/quotas/${created.id}`,
      {
        limit: 7,
        conditions: [under30(s), { question_id: s.questions.region, choice_id: s.choices.region[1] }],
      },
      auth(),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Young people', limit: 7 });
    expect(patched.body.conditions).toHaveLength(2);

    const put = await api().put(
      `/v3/surveys/${s.id}/quotas/${created.id}`,
      {
        name: 'Elsewhere',
        limit: 1,
        conditions: [under30(s)],
        action: { type: 'redirect', url: 'https://example.org/full' },
      },
      auth(),
    );
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      name: 'Elsewhere',
      limit: 1,
      action: { type: 'redirect', url: 'https://example.org/full' },
    });

    const gone = await api().delete(`/v3/surveys/${s.id}/quotas/${created.id}`, auth());
    expect(gone.status).toBe(200);
    expect(gone.body.name).toBe('Elsewhere');
    const after = await api().get(`/v3/surveys/${s.id}/quotas/${created.id}`, auth());
    expect(after.status).toBe(404);
    expect(errorCode(after)).toBe('1020');
  });

  it('refuses bad bodies naming the field, and unknown or foreign ids with 404', async () => {
    const s = await onePage();
    const base = { name: 'Q', limit: 2, conditions: [under30(s)], action: { type: 'end_survey' } };
    const post = (body: unknown) => api().post(`/v3/surveys/${s.id}/quotas`, body, auth());
    expect1002(await post({ ...base, limit: 0 }), 'limit');
    expect1002(await post({ ...base, name: '' }), 'name');
    expect1002(
      await post({ ...base, conditions: [{ question_id: s.questions.note, choice_id: s.choices.age[0] }] }),
      'conditions[0].question_id',
    );
    expect1002(
      await post({ ...base, conditions: [{ question_id: s.questions.age, choice_id: s.choices.region[0] }] }),
      'conditions[0].choice_id',
    );
    expect1002(await post({ ...base, conditions: [] }), 'conditions');
    expect1002(await post({ ...base, action: { type: 'redirect' } }), 'action.url');
    expect1002(
      await post({ ...base, action: { type: 'redirect', url: 'javascript:alert(1)' } }),
      'action.url',
    );
    expect1002(await post({ ...base, action: { type: 'explode' } }), 'action');

    const other = await seedSurvey(server, owner, { kind: 'simple' });
    const q = await addQuota(s, base);
    const wrongSurvey = await api().get(`/v3/surveys/${other.id}/quotas/${q.id}`, auth());
    expect(wrongSurvey.status).toBe(404);
    expect(errorCode(wrongSurvey)).toBe('1020');
    const unknown = await api().patch(`/v3/surveys/${s.id}/quotas/999999999`, { limit: 3 }, auth());
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('1020');

    const stranger = await server.account();
    const foreign = await api().get(`/v3/surveys/${s.id}/quotas`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(errorCode(foreign)).toBe('1020');
  });

  it('takes surveys_write to change quotas and surveys_read to read them (scopes come first)', async () => {
    const s = await onePage();
    const body = { name: 'Q', limit: 2, conditions: [under30(s)], action: { type: 'end_survey' } };
    const reader = await server.account({ scopes: ['surveys_read'] });
    const refused = await api().post(`/v3/surveys/${s.id}/quotas`, body, { token: reader.token });
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('1014');
    expect(refused.body.error.message).toContain('surveys_write');
    const noRead = await server.account({ scopes: ['responses_read'] });
    const unread = await api().get(`/v3/surveys/${s.id}/quotas`, { token: noRead.token });
    expect(unread.status).toBe(403);
    expect(unread.body.error.message).toContain('surveys_read');
  });
});

describe('the count under concurrency', () => {
  it('lets exactly 2 of 20 simultaneous respondents complete; 18 are overquota and see the end message', async () => {
    const s = await twoPages();
    const quota = await addQuota(s, {
      name: 'Under 30',
      limit: 2,
      conditions: [under30(s)],
      action: { type: 'end_survey', message: 'Our quota for your group is full.' },
    });
    const sessions = await Promise.all(Array.from({ length: 20 }, () => openSession(s.collector.url)));
    // The first page of each (partial responses), then every last page at once.
    for (const session of sessions) {
      const res = await postPage(session, { [`q_${s.questions.age}`]: s.choices.age[0] }, 'next');
      expect(res.status).toBe(303);
    }
    const ends = await Promise.all(
      sessions.map(async (session) => {
        const res = await postPage(session, { [`q_${s.questions.note}`]: 'hi' }, 'done', s.pages[1]);
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    expect(ends.filter((t) => t.includes('Our quota for your group is full.'))).toHaveLength(18);
    expect(ends.filter((t) => t.includes('class="thank-you"'))).toHaveLength(2);
    expect(await statuses(s.id)).toEqual({ completed: 2, overquota: 18 });
    const after = await api().get(`/v3/surveys/${s.id}/quotas/${quota.id}`, auth());
    expect(after.body.count).toBe(2);

    // A respondent the quota does not cover still completes.
    const other = await openSession(s.collector.url);
    await postPage(other, { [`q_${s.questions.age}`]: s.choices.age[1] }, 'next');
    const done = await postPage(other, {}, 'done', s.pages[1]);
    expect(await done.text()).toContain('class="thank-you"');
    expect(await statuses(s.id)).toEqual({ completed: 3, overquota: 18 });
  });

  it.each([
    ['redirect', { type: 'redirect', url: 'https://example.org/full' }],
    ['disqualify', { type: 'disqualify' }],
    ['close_collector', { type: 'close_collector', message: 'We are done collecting.' }],
  ])(
    'with the %s action: 2 of 20 simultaneous respondents complete, 18 get the action',
    async (kind, action) => {
      const s = await twoPages();
      await addQuota(s, { name: 'Under 30', limit: 2, conditions: [under30(s)], action });
      const sessions = await Promise.all(Array.from({ length: 20 }, () => openSession(s.collector.url)));
      for (const session of sessions)
        await postPage(session, { [`q_${s.questions.age}`]: s.choices.age[0] }, 'next');
      const ends = await Promise.all(
        sessions.map((session) => postPage(session, { [`q_${s.questions.note}`]: 'hi' }, 'done', s.pages[1])),
      );
      const texts = await Promise.all(ends.map((r) => r.text()));
      expect(texts.filter((t) => t.includes('class="thank-you"'))).toHaveLength(2);
      if (kind === 'redirect')
        expect(
          ends.filter((r) => r.status === 303 && r.headers.get('location') === 'https://example.org/full'),
        ).toHaveLength(18);
      if (kind === 'disqualify')
        expect(texts.filter((t) => t.includes('class="disqualified"'))).toHaveLength(18);
      if (kind === 'close_collector') {
        // The first one beyond the quota closes the collector: whoever posts after that finds it
        // closed (the collector's closed page; that response stays partial).
        const told = texts.filter((t) => t.includes('We are done collecting.')).length;
        const closed = texts.filter((t) => t.includes('data-reason="closed"')).length;
        expect(told).toBeGreaterThanOrEqual(1);
        expect(told + closed).toBe(18);
        expect((await api().get(`/v3/collectors/${s.collector.id}`, auth())).body.status).toBe('closed');
        const partial = closed ? { partial: closed } : {};
        expect(await statuses(s.id)).toEqual({ completed: 2, overquota: told, ...partial });
        return;
      }
      expect(await statuses(s.id)).toEqual({ completed: 2, overquota: 18 });
    },
  );

  it('through the API: 20 simultaneous completed responses, 2 completed and 18 overquota', async () => {
    const s = await onePage();
    const quota = await addQuota(s, {
      name: 'Under 30 in the south',
      limit: 2,
      conditions: [under30(s), { question_id: s.questions.region, choice_id: s.choices.region[1] }],
      action: { type: 'end_survey' },
    });
    const body = {
      pages: [
        {
          id: s.pages[0],
          questions: [
            { id: s.questions.age, answers: [{ choice_id: s.choices.age[0] }] },
            { id: s.questions.region, answers: [{ choice_id: s.choices.region[1] }] },
          ],
        },
      ],
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        api().post(`/v3/collectors/${s.collector.id}/responses`, body, auth()),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(201);
    const sent = results.map((r) => r.body.response_status);
    expect(sent.filter((x) => x === 'completed')).toHaveLength(2);
    expect(sent.filter((x) => x === 'overquota')).toHaveLength(18);
    expect(await statuses(s.id)).toEqual({ completed: 2, overquota: 18 });
    expect((await api().get(`/v3/surveys/${s.id}/quotas/${quota.id}`, auth())).body.count).toBe(2);
  });
});

describe('counting API updates', () => {
  it('counts a partial response when a PATCH completes it, and keeps it overquota beyond the limit', async () => {
    const s = await onePage();
    const quota = await addQuota(s, {
      name: 'Under 30',
      limit: 1,
      conditions: [under30(s)],
      action: { type: 'end_survey' },
    });
    const page = {
      id: s.pages[0],
      questions: [{ id: s.questions.age, answers: [{ choice_id: s.choices.age[0] }] }],
    };
    const partial = async () => {
      const res = await api().post(
        `/v3/collectors/${s.collector.id}/responses`,
        { response_status: 'partial', pages: [page] },
        auth(),
      );
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const [a, b] = [await partial(), await partial()];
    const complete = (id: string) =>
      api().patch(`/v3/surveys/${s.id}/responses/${id}`, { response_status: 'completed' }, auth());
    expect((await complete(a)).body.response_status).toBe('completed');
    expect((await complete(b)).body.response_status).toBe('overquota');
    // editing a completed response does not count it again
    const again = await api().patch(`/v3/surveys/${s.id}/responses/${a}`, { custom_value: 'x' }, auth());
    expect(again.body.response_status).toBe('completed');
    expect((await api().get(`/v3/surveys/${s.id}/quotas/${quota.id}`, auth())).body.count).toBe(1);
  });
});

describe('the actions', () => {
  /** A one-page survey whose quota of 1 on "Under 30" takes `action`, already filled by one respondent. */
  async function full(action: Record<string, unknown>) {
    const s = await onePage();
    await addQuota(s, { name: 'Under 30', limit: 1, conditions: [under30(s)], action });
    const first = await postPage(
      await openSession(s.collector.url),
      { [`q_${s.questions.age}`]: s.choices.age[0] },
      'done',
    );
    expect(await first.text()).toContain('class="thank-you"');
    const next = await openSession(s.collector.url);
    return { s, res: await postPage(next, { [`q_${s.questions.age}`]: s.choices.age[0] }, 'done') };
  }

  /** A respondent on the page in `lang` (one the survey offers), beyond its full quota: the page. */
  async function overquota(s: SeededSurvey, lang: string): Promise<string> {
    const path = `${new URL(s.collector.url).pathname}?lang=${lang}`;
    const first = await fetch(`${server.url}${path}`);
    const page = await first.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
    const res = await fetch(`${server.url}${path}&p=${field('p')}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: (first.headers.get('set-cookie') ?? '').split(';')[0],
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        csrf: field('csrf'),
        p: field('p'),
        nav: 'done',
        [`q_${s.questions.age}`]: s.choices.age[0],
      }).toString(),
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  it('redirects to the quota’s address', async () => {
    const { s, res } = await full({ type: 'redirect', url: 'https://example.org/quota-full?from=survey' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.org/quota-full?from=survey');
    expect(await statuses(s.id)).toEqual({ completed: 1, overquota: 1 });
  });

  it('disqualifies with the collector’s disqualification page', async () => {
    const { s, res } = await full({ type: 'disqualify' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('class="disqualified"');
    expect(await statuses(s.id)).toEqual({ completed: 1, overquota: 1 });
  });

  it('closes the collector after the overquota response', async () => {
    const { s, res } = await full({ type: 'close_collector', message: 'Thanks, we are done collecting.' });
    expect(await res.text()).toContain('Thanks, we are done collecting.');
    const c = await api().get(`/v3/collectors/${s.collector.id}`, auth());
    expect(c.body.status).toBe('closed');
    expect(await statuses(s.id)).toEqual({ completed: 1, overquota: 1 });
    const later = await fetch(`${server.url}${new URL(s.collector.url).pathname}`);
    expect(await later.text()).toContain('data-reason="closed"');
    // the close is an event like a close through the API (webhooks, activity)
    const events = await server.deps.db.kysely
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'collector_updated')
      .where('resource_id', '=', s.collector.id)
      .execute();
    expect(events.map((e) => JSON.parse(e.data).fields)).toEqual([['status']]);
  });
  it('says its default end message in the page’s language (German; Arabic right to left); an owner’s own stays', async () => {
    const { s } = await full({ type: 'end_survey' });
    for (const lang of ['de', 'ar']) {
      const res = await api().post(
        `/v3/surveys/${s.id}/languages/${lang}`,
        {
          translations: [{ context: 'survey_title_html', resource_id: s.id, translation: `Umfrage ${lang}` }],
        },
        auth(),
      );
      expect(res.status, res.text).toBe(200);
    }
    const de = await overquota(s, 'de');
    expect(de).toMatch(/<html lang="de">/);
    expect(de).toContain('class="thank-you overquota"');
    expect(de).toContain('Vielen Dank für Ihre Zeit.');
    expect(de).not.toContain('Thank you for your time');
    const ar = await overquota(s, 'ar');
    expect(ar).toMatch(/<html lang="ar" dir="rtl">/);
    expect(ar).toContain('شكرًا لوقتك.');
    // an owner's own message is shown as written, whatever the language
    const own = await full({ type: 'end_survey', message: 'We have enough answers, thanks.' });
    const mine = await api().post(
      `/v3/surveys/${own.s.id}/languages/de`,
      { translations: [{ context: 'survey_title_html', resource_id: own.s.id, translation: 'Umfrage' }] },
      auth(),
    );
    expect(mine.status, mine.text).toBe(200);
    const text = await overquota(own.s, 'de');
    expect(text).toMatch(/<html lang="de">/);
    expect(text).toContain('We have enough answers, thanks.');
  });
});
