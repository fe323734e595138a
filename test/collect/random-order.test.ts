// Random and flipped choice order on the respondent pages (the question's `sorting`): per
// respondent, the same on every reload of the same session, the last choice kept last with
// `ignore_last`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

const TEXTS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'None of these'];

async function survey(sorting: object): Promise<{ surveyId: string; collectorId: string; url: string }> {
  const s = await server.client.post(
    '/v3/surveys',
    {
      title: 'Order',
      pages: [
        {
          questions: [
            {
              family: 'multiple_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Pick some' }],
              sorting,
              answers: { choices: TEXTS.map((text) => ({ text })) },
            },
          ],
        },
      ],
    },
    { token: owner.token },
  );
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const c = await server.client.post(
    `/v3/surveys/${s.body.id}/collectors`,
    { type: 'weblink' },
    { token: owner.token },
  );
  return { surveyId: s.body.id, collectorId: c.body.id, url: `${server.url}${new URL(c.body.url).pathname}` };
}

const surveyLink = async (sorting: object) => (await survey(sorting)).url;

/** The choices' order one browser session sees, loaded `times` times. */
async function orders(url: string, times: number): Promise<string[][]> {
  let cookie = '';
  const out: string[][] = [];
  for (let i = 0; i < times; i++) {
    const r = await fetch(url, { headers: cookie ? { cookie } : {} });
    cookie ||= (r.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await r.text();
    out.push([...page.matchAll(/<label for="c\d+">([^<]*)<\/label>/g)].map((m) => m[1]));
  }
  return out;
}

describe('choice order on the respondent pages', () => {
  it('shuffles per respondent, keeps the order on reload, and keeps the last choice last with ignore_last', async () => {
    const url = await surveyLink({ type: 'random', ignore_last: true });
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const [first, again] = await orders(url, 2);
      expect(again).toEqual(first);
      expect([...first].sort()).toEqual([...TEXTS].sort());
      expect(first.at(-1)).toBe('None of these');
      seen.add(first.join());
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('flips: some respondents see the list reversed, each always the same way', async () => {
    const url = await surveyLink({ type: 'flip' });
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const [first, again] = await orders(url, 2);
      expect(again).toEqual(first);
      seen.add(first.join());
    }
    expect(seen).toEqual(new Set([TEXTS.join(), [...TEXTS].reverse().join()]));
  });
});

describe('choice order by how often each was chosen (resp_count_asc, resp_count_desc)', () => {
  it('orders by the responses so far, ties and the unchosen as listed, the last kept last with ignore_last', async () => {
    const s = await survey({ type: 'resp_count_desc', ignore_last: true });
    const asc = await survey({ type: 'resp_count_asc' });
    // Before any response: as listed.
    expect((await orders(s.url, 1))[0]).toEqual(TEXTS);
    const d = (await server.client.get(`/v3/surveys/${s.surveyId}/details`, { token: owner.token })).body;
    const ids = new Map<string, string>(
      d.pages[0].questions[0].answers.choices.map((c: { id: string; text: string }) => [c.text, c.id]),
    );
    const q = d.pages[0].questions[0];
    // Echo chosen 3 times, Charlie twice, Golf and None of these once each.
    for (const picks of [
      ['Echo', 'Charlie', 'None of these'],
      ['Echo', 'Charlie'],
      ['Echo', 'Golf'],
    ]) {
      const r = await server.client.post(
        `/v3/collectors/${s.collectorId}/responses`,
        {
          pages: [
            {
              id: d.pages[0].id,
              questions: [{ id: q.id, answers: picks.map((t) => ({ choice_id: ids.get(t) })) }],
            },
          ],
        },
        { token: owner.token },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    expect((await orders(s.url, 1))[0]).toEqual([
      'Echo',
      'Charlie',
      'Golf',
      'Alpha',
      'Bravo',
      'Delta',
      'Foxtrot',
      'None of these',
    ]);
    // Ascending: the one chosen choice goes after the unchosen ones.
    const ad = (await server.client.get(`/v3/surveys/${asc.surveyId}/details`, { token: owner.token })).body;
    const aq = ad.pages[0].questions[0];
    const posted = await server.client.post(
      `/v3/collectors/${asc.collectorId}/responses`,
      {
        pages: [
          {
            id: ad.pages[0].id,
            questions: [{ id: aq.id, answers: [{ choice_id: aq.answers.choices[0].id }] }],
          },
        ],
      },
      { token: owner.token },
    );
    expect(posted.status).toBe(201);
    expect((await orders(asc.url, 1))[0]).toEqual([...TEXTS.slice(1), 'Alpha']);
  });
});

describe('question order within a page (the page’s sorting, an extension)', () => {
  const HEADS = ['Qalpha', 'Qbravo', 'Qcharlie', 'Qdelta', 'Qecho', 'Qfoxtrot', 'Qlast'];

  it('is set and read through the API, refused when unknown, and removed with null', async () => {
    const s = await server.client.post('/v3/surveys', { title: 'Page order' }, { token: owner.token });
    const pages = await server.client.get(`/v3/surveys/${s.body.id}/pages`, { token: owner.token });
    const href = `/v3/surveys/${s.body.id}/pages/${pages.body.data[0].id}`;
    const bad = await server.client.patch(href, { sorting: { type: 'textasc' } }, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('sorting');
    const set = await server.client.patch(href, { sorting: { type: 'random' } }, { token: owner.token });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.sorting).toEqual({ type: 'random', ignore_last: false });
    expect((await server.client.get(href, { token: owner.token })).body.sorting).toEqual({
      type: 'random',
      ignore_last: false,
    });
    const details = await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: owner.token });
    expect(details.body.pages[0].sorting).toEqual({ type: 'random', ignore_last: false });
    const cleared = await server.client.patch(href, { sorting: null }, { token: owner.token });
    expect(cleared.body.sorting).toBeUndefined();
    const made = await server.client.post(
      `/v3/surveys/${s.body.id}/pages`,
      { sorting: { type: 'flip', ignore_last: true } },
      { token: owner.token },
    );
    expect(made.status).toBe(201);
    expect(made.body.sorting).toEqual({ type: 'flip', ignore_last: true });
  });

  it('shuffles a page’s questions per respondent, the same on reload, the last kept last with ignore_last', async () => {
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Page order',
        pages: [
          {
            sorting: { type: 'random', ignore_last: true },
            questions: HEADS.map((heading) => ({
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading }],
            })),
          },
        ],
      },
      { token: owner.token },
    );
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const c = await server.client.post(
      `/v3/surveys/${s.body.id}/collectors`,
      { type: 'weblink' },
      { token: owner.token },
    );
    const url = `${server.url}${new URL(c.body.url).pathname}`;
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      let cookie = '';
      const heads: string[][] = [];
      for (let k = 0; k < 2; k++) {
        const r = await fetch(url, { headers: cookie ? { cookie } : {} });
        cookie ||= (r.headers.get('set-cookie') ?? '').split(';')[0];
        const page = await r.text();
        heads.push([...page.matchAll(/<span class="qnum">(\d+)\.<\/span> (Q[a-z]+)/g)].map((m) => m[2]));
        // Numbers follow the order shown.
        expect([...page.matchAll(/<span class="qnum">(\d+)\./g)].map((m) => m[1])).toEqual(
          HEADS.map((_, j) => String(j + 1)),
        );
      }
      expect(heads[1]).toEqual(heads[0]);
      expect([...heads[0]].sort()).toEqual([...HEADS].sort());
      expect(heads[0].at(-1)).toBe('Qlast');
      seen.add(heads[0].join());
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});
