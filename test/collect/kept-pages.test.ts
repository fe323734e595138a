// A new respondent's page is drawn once and kept (web/respond/page-cache.ts), from the collector and
// survey a process keeps per link (domain/collectors/entry.ts): each respondent still gets their own
// session, CSRF token and shown stamp, an edit of the design, the survey, the collector or its
// languages shows at once (also to respondents mid-survey), a full link is full for the next
// visitor, and a random order stays each one's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer({ env: { RESPONDENT_MIN_PAGE_MS: '0' } });
  owner = await server.account();
});
afterAll(() => server.close());

interface Seeded {
  surveyId: string;
  url: string;
  pages: { id: string; questions: { id: string; answers?: { choices?: { id: string }[] } }[] }[];
}

async function seed(questions: object[][]): Promise<Seeded> {
  const s = await server.client.post(
    '/v3/surveys',
    { title: 'Kept', pages: questions.map((qs, i) => ({ title: `Page ${i + 1}`, questions: qs })) },
    { token: owner.token },
  );
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const details = await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: owner.token });
  const c = await server.client.post(
    `/v3/surveys/${s.body.id}/collectors`,
    { type: 'weblink' },
    { token: owner.token },
  );
  return {
    surveyId: s.body.id,
    url: `${server.url}${new URL(c.body.url).pathname}`,
    pages: details.body.pages,
  };
}

const choice = (heading: string, texts: string[], sorting?: object) => ({
  family: 'single_choice',
  subtype: 'vertical',
  headings: [{ heading }],
  ...(sorting && { sorting }),
  answers: { choices: texts.map((text) => ({ text })) },
});

/** One visit: the page and, for a new visitor, the session cookie it was given. */
async function visit(url: string, cookie = ''): Promise<{ page: string; cookie: string }> {
  const r = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  expect(r.status).toBe(200);
  return { page: await r.text(), cookie: cookie || (r.headers.get('set-cookie') ?? '').split(';')[0] };
}

const field = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';

function post(url: string, cookie: string, page: string, answers: Record<string, string>) {
  const form = new URLSearchParams({
    csrf: field(page, 'csrf'),
    p: field(page, 'p'),
    started: field(page, 'started'),
    shown: field(page, 'shown'),
    nav: 'next',
    ...answers,
  });
  return fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

describe('kept respondent pages', () => {
  it('gives each new respondent the same page with their own session, CSRF token and shown stamp', async () => {
    const s = await seed([[choice('Colour?', ['Red', 'Blue'])], [choice('Size?', ['S', 'L'])]]);
    const [a, b] = [await visit(s.url), await visit(s.url)];
    expect(a.cookie).not.toBe(b.cookie);
    for (const name of ['csrf', 'shown']) {
      expect(field(a.page, name)).not.toBe('');
      expect(field(a.page, name)).not.toBe(field(b.page, name));
    }
    const strip = (page: string) => page.replace(/name="(csrf|shown|started)" value="[^"]*"/g, '');
    expect(strip(a.page)).toBe(strip(b.page));
    expect(a.page).not.toContain('\u0001');
    const q = s.pages[0].questions[0];
    const answer = { [`q_${q.id}`]: q.answers!.choices![0].id };
    // B's token is no good in A's session; each respondent's own is.
    expect((await post(s.url, a.cookie, b.page, answer)).status).toBe(403);
    const saved = await post(s.url, a.cookie, a.page, answer);
    expect(saved.status).toBe(303);
    expect((await post(s.url, b.cookie, b.page, answer)).status).toBe(303);
    const list = await server.client.get(`/v3/surveys/${s.surveyId}/responses/bulk`, { token: owner.token });
    expect(list.body.data).toHaveLength(2);
    // Not flagged as too fast, nor as a bot: the shown stamp was each one's own.
    expect(list.body.data.map((r: { response_status: string }) => r.response_status)).toEqual([
      'partial',
      'partial',
    ]);
  });

  it('shows a design edit at once, to new respondents and to those mid-survey', async () => {
    const s = await seed([[choice('Colour?', ['Red', 'Blue'])], [choice('Size?', ['S', 'L'])]]);
    const [p1, p2] = s.pages;
    const started = await visit(s.url);
    expect((await visit(s.url)).page).toContain('Colour?');
    const q = p1.questions[0];
    const next = await post(s.url, started.cookie, started.page, {
      [`q_${q.id}`]: q.answers!.choices![0].id,
    });
    expect(next.status).toBe(303);
    const second = `${server.url}${next.headers.get('location')}`;
    expect((await visit(second, started.cookie)).page).toContain('Size?');
    const edit = (page: string, question: string, heading: string) =>
      server.client.patch(
        `/v3/surveys/${s.surveyId}/pages/${page}/questions/${question}`,
        { headings: [{ heading }] },
        { token: owner.token },
      );
    expect((await edit(p1.id, q.id, 'Favourite colour?')).status).toBe(200);
    expect((await edit(p2.id, p2.questions[0].id, 'Shoe size?')).status).toBe(200);
    const fresh = await visit(s.url);
    expect(fresh.page).toContain('Favourite colour?');
    expect(fresh.page).not.toContain('>Colour?');
    expect((await visit(second, started.cookie)).page).toContain('Shoe size?');
    // The survey's own settings (its title) and the collector's (closed) too.
    expect(
      (await server.client.patch(`/v3/surveys/${s.surveyId}`, { title: 'Renamed' }, { token: owner.token }))
        .status,
    ).toBe(200);
    expect((await visit(s.url)).page).toContain('<h1>Renamed</h1>');
  });

  it('shows a new language, a changed collector and a full link to the next visitor', async () => {
    const s = await seed([[choice('Colour?', ['Red', 'Blue'])]]);
    expect((await visit(s.url)).page).not.toContain('hreflang="de"');
    const german = await server.client.post(
      `/v3/surveys/${s.surveyId}/languages/de`,
      { translations: [{ context: 'survey_title_html', resource_id: s.surveyId, translation: 'Behalten' }] },
      { token: owner.token },
    );
    expect(german.status).toBe(200);
    expect((await visit(s.url)).page).toContain('hreflang="de"');
    expect((await visit(`${s.url}?lang=de`)).page).toContain('<h1>Behalten</h1>');
    const collectors = await server.client.get(`/v3/surveys/${s.surveyId}/collectors`, {
      token: owner.token,
    });
    const collector = `/v3/collectors/${collectors.body.data[0].id}`;
    // One response allowed, then one given: the count moves, nothing else of the rows does.
    expect((await server.client.patch(collector, { response_limit: 1 }, { token: owner.token })).status).toBe(
      200,
    );
    const first = await visit(s.url);
    expect(first.page).toContain('Colour?');
    const q = s.pages[0].questions[0];
    const done = await post(s.url, first.cookie, first.page, {
      [`q_${q.id}`]: q.answers!.choices![0].id,
      nav: 'done',
    });
    expect(done.status).toBe(200);
    const full = await visit(s.url);
    expect(full.page).toContain('data-reason="full"');
    expect(full.page).not.toContain('Colour?');
    expect(
      (
        await server.client.patch(
          collector,
          { response_limit: null, status: 'closed' },
          { token: owner.token },
        )
      ).status,
    ).toBe(200);
    expect((await visit(s.url)).page).toContain('data-reason="closed"');
  });

  it("keeps each respondent's own random order", async () => {
    const texts = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf'];
    const s = await seed([[choice('Pick one', texts, { type: 'random' }), choice('Plain', ['Yes', 'No'])]]);
    const order = (page: string) =>
      [...page.matchAll(/<label for="c\d+">([^<]*)<\/label>/g)].map((m) => m[1]);
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const v = await visit(s.url);
      const again = await visit(s.url, v.cookie);
      expect(order(again.page)).toEqual(order(v.page));
      seen.add(order(v.page).join());
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});
