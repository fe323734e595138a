// The basic plan reads the first 25 responses of a survey: one rule (domain/responses/plan-limit.ts)
// for the API (402/1005) and the pages, whose results, charts, summary and single responses show
// and count only those 25.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateUser } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let survey: any;
let responseIds: string[];
let web: WebSession;

const local = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.search;
};

beforeAll(async () => {
  server = await startServer();
  owner = await server.account({ plan: 'premier' });
  const t = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Limited',
      pages: [
        {
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Pick' }],
              answers: { choices: [{ text: 'Early' }, { text: 'Late' }] },
            },
          ],
        },
      ],
    },
    t,
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, t)).body;
  const q = details.pages[0].questions[0];
  const [early, late] = q.answers.choices.map((c: any) => c.id);
  const c = await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, t);
  responseIds = [];
  // 25 answer "Early", then 5 answer "Late": only the first 25 are the basic plan's to read.
  for (let i = 0; i < 30; i++) {
    const r = await server.client.post(
      `/v3/collectors/${c.body.id}/responses`,
      {
        response_status: 'completed',
        pages: [
          {
            id: details.pages[0].id,
            questions: [{ id: q.id, answers: [{ choice_id: i < 25 ? early : late }] }],
          },
        ],
      },
      t,
    );
    expect(r.status, r.text).toBe(201);
    responseIds.push(r.body.id);
  }
  survey = (await server.client.get(`/v3/surveys/${created.body.id}`, t)).body;
  await updateUser(server.deps, owner.user.username, { plan: 'basic' });
  web = await signIn(server, owner);
});
afterAll(() => server.close());

describe('the basic plan on a survey with 30 responses', () => {
  it('the API answers 402/1005 for details and rollups', async () => {
    const t = { token: owner.token };
    const bulk = await server.client.get(`/v3/surveys/${survey.id}/responses/bulk?per_page=100`, t);
    expect(bulk.status).toBe(402);
    expect(bulk.body.error.id).toBe('1005');
    const rollups = await server.client.get(`/v3/surveys/${survey.id}/rollups`, t);
    expect(rollups.status).toBe(402);
    const last = await server.client.get(`/v3/surveys/${survey.id}/responses/${responseIds[29]}/details`, t);
    expect(last.status).toBe(402);
    const first = await server.client.get(`/v3/surveys/${survey.id}/responses/${responseIds[0]}/details`, t);
    expect(first.status).toBe(200);
  });

  it('the analyze page shows and charts only the first 25, and says so', async () => {
    const res = await web.get(local(survey.analyze_url));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/id="total"><strong>25<\/strong> responses/);
    expect(res.text).toMatch(/Answered: 25 · Skipped: 0/);
    // The "Late" bar (answered only by responses 26 to 30) counts nothing.
    expect(res.text).toContain('<title>Early: 25 (100%)</title>');
    expect(res.text).toContain('<title>Late: 0 (0%)</title>');
    expect(res.text).toMatch(/first 25 responses/);
    // A date or collector filter cannot bring the others back.
    const filtered = await web.get(`${local(survey.analyze_url)}?start=2000-01-01`);
    expect(filtered.text).toMatch(/id="total"><strong>25<\/strong>/);
  });

  it('the summary counts only the first 25', async () => {
    const res = await web.get(local(survey.summary_url));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/id="f-total"><span class="n">25<\/span>/);
    expect(res.text).toMatch(/id="f-completed"><span class="n">25<\/span>/);
  });

  it('a single response beyond the first 25 is refused with 402, one within is shown', async () => {
    // The API's analyze_url for one response leads to the responses page's view of it.
    const browse = (id: string) =>
      `/analyze/browse/${survey.analyze_url.split('/').pop()}?respondent_id=${id}`;
    const open = async (id: string) => {
      const hop = await web.get(browse(id));
      expect(hop.status).toBe(303);
      return web.get(hop.location!);
    };
    const beyond = await open(responseIds[29]);
    expect(beyond.status).toBe(402);
    expect(beyond.text).not.toContain('Late');
    const within = await open(responseIds[0]);
    expect(within.status).toBe(200);
    expect(within.text).toContain('Early');
  });

  it('a paid plan sees all 30 on the pages', async () => {
    await updateUser(server.deps, owner.user.username, { plan: 'standard' });
    try {
      const res = await web.get(local(survey.analyze_url));
      expect(res.text).toMatch(/id="total"><strong>30<\/strong>/);
      expect(res.text).not.toMatch(/first 25 responses/);
      const summary = await web.get(local(survey.summary_url));
      expect(summary.text).toMatch(/id="f-total"><span class="n">30<\/span>/);
    } finally {
      await updateUser(server.deps, owner.user.username, { plan: 'basic' });
    }
  });
});
