// The responses page (/analyze/<manage_token>/responses) over HTTP: newest first, paged at 50,
// filtered by status, collector and dates; one response in readable form; delete after a
// confirmation; analyze access decides (write access to delete); the basic plan reads the first 25.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateUser } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, signIn, singleChoice, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';

let server: TestServer;
let t: TestTeam;
let surveyId: string;
let base: string;
let ids: string[];
let collectors: string[];

const rowsOf = (text: string) => [...text.matchAll(/>Response #(\d+)<\/a><\/th>/g)].map((m) => Number(m[1]));

/** A survey with a choice question, two collectors and `n` responses: every fourth partial,
 * alternate collectors, the first ten made on 2026-01-10 and the rest on 2026-02-20. */
async function surveyWithResponses(owner: TestAccount, n: number) {
  const tk = { token: owner.token };
  const created = await seedSurvey(server, owner, {
    title: 'Office move',
    questions: { floor: singleChoice('Which floor?', ['Ground floor', 'Top floor']) },
  });
  const details = created.details;
  const q = created.question('floor');
  const cs: string[] = [];
  for (const name of ['Email', 'Website'])
    cs.push(
      (await server.client.post(`/v3/surveys/${created.id}/collectors`, { type: 'weblink', name }, tk)).body
        .id,
    );
  const made: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await server.client.post(
      `/v3/collectors/${cs[i % 2]}/responses`,
      {
        response_status: i % 4 === 3 ? 'partial' : 'completed',
        date_created: i < 10 ? '2026-01-10T09:00:00+00:00' : '2026-02-20T09:00:00+00:00',
        pages: [
          {
            id: details.pages[0].id,
            questions: [{ id: q.id, answers: [{ choice_id: q.answers.choices[i % 2].id }] }],
          },
        ],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
    made.push(r.body.id);
  }
  return {
    id: created.id as string,
    base: `${new URL(details.analyze_url).pathname}/responses`,
    ids: made,
    cs,
  };
}

beforeAll(async () => {
  server = await startServer();
  t = await makeTeam(server, { plan: 'premier' });
  const s = await surveyWithResponses(t.owner, 52);
  surveyId = s.id;
  base = s.base;
  ids = s.ids;
  collectors = s.cs;
  const a = api(server);
  const viewers = await a.workgroup(t.owner.token, 'Viewers', [t.regular.user.id]);
  await a.share(t.owner.token, viewers.id, surveyId, ROLES.viewer);
  const analyzers = await a.workgroup(t.owner.token, 'Analyzers', [t.admin.user.id]);
  await a.share(t.owner.token, analyzers.id, surveyId, ROLES.analyzer);
});
afterAll(() => server.close());

describe('listing', () => {
  it('shows the newest first, 50 to a page', async () => {
    const web = await signIn(server, t.owner);
    const first = await web.get(base);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-robots-tag')).toContain('noindex');
    const rows = rowsOf(first.text);
    expect(rows).toHaveLength(50);
    expect(rows.slice(0, 3)).toEqual([52, 51, 50]);
    expect(first.text).toContain('<strong>52</strong> responses, page 1 of 2.');
    expect(first.text).toContain(`href="${base}?page=2" rel="next"`);
    expect(rowsOf((await web.get(`${base}?page=2`)).text)).toEqual([2, 1]);
    // The survey's own pages link each other, this one among them.
    expect(first.text).toContain('aria-current="page">Responses</a>');
  });

  it('filters by status, collector and dates, and ignores a filter it cannot read', async () => {
    const web = await signIn(server, t.owner);
    const partial = rowsOf((await web.get(`${base}?status=partial`)).text);
    expect(partial).toEqual([52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4]);
    const website = rowsOf((await web.get(`${base}?collector=${collectors[1]}`)).text);
    expect(website).toHaveLength(26);
    expect(website.every((n) => n % 2 === 0)).toBe(true);
    const january = await web.get(`${base}?start=2026-01-01&end=2026-01-31`);
    expect(rowsOf(january.text)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(january.text).toContain('10</strong> responses match.');
    expect(rowsOf((await web.get(`${base}?start=2026-01-10&end=2026-01-10&status=partial`)).text)).toEqual([
      8, 4,
    ]);
    const none = await web.get(`${base}?start=2030-01-01`);
    expect(none.text).toContain('No responses match these filters.');
    const odd = await web.get(`${base}?status=bogus&collector=123&start=yesterday&page=zero`);
    expect(odd.status).toBe(200);
    expect(rowsOf(odd.text)).toHaveLength(50);
  });
});

describe('one response', () => {
  it('shows every answer with its question, and the response’s facts', async () => {
    const web = await signIn(server, t.owner);
    const res = await web.get(`${base}/${ids[1]}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Response #2');
    expect(res.text).toContain('<h4>Which floor?</h4>');
    expect(res.text).toContain('<li>Top floor</li>');
    expect(res.text).toContain('Website');
    expect(res.text).toContain('Delete this response');
  });

  it('is not found through another survey’s page, nor with a bad id', async () => {
    const web = await signIn(server, t.owner);
    const other = await server.client.post('/v3/surveys', { title: 'Other' }, { token: t.owner.token });
    const otherBase = `${new URL(other.body.analyze_url).pathname}/responses`;
    expect((await web.get(`${otherBase}/${ids[0]}`)).status).toBe(404);
    expect((await web.get(`${base}/not-a-number`)).status).toBe(404);
    expect((await web.get(`${base}/999999999`)).status).toBe(404);
  });
});

describe('access', () => {
  it('signed out: sign in first; a stranger: not found', async () => {
    const out = await new WebSession(server.url).get(base);
    expect(out.status).toBe(303);
    expect(out.location).toBe(`/login?next=${encodeURIComponent(base)}`);
    const stranger = await signIn(server, await server.account());
    expect((await stranger.get(base)).status).toBe(404);
    expect((await stranger.get(`${base}/${ids[0]}`)).status).toBe(404);
    expect((await stranger.get('/analyze/AAAAAAAAAAAAAAAAAAAA/responses')).status).toBe(404);
  });

  it('a viewer reads the responses but may not delete one; an analyzer may', async () => {
    const viewer = await signIn(server, t.regular);
    expect(rowsOf((await viewer.get(base)).text)).toHaveLength(50);
    const one = await viewer.get(`${base}/${ids[0]}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain('Delete this response');
    const _csrf = await viewer.csrf(base);
    const refused = await viewer.post(`${base}/${ids[0]}/delete`, { _csrf, confirm: 'yes' });
    expect(refused.status).toBe(403);
    // A share with analyze write access may delete.
    const analyzer = await signIn(server, t.admin);
    expect((await analyzer.get(`${base}/${ids[0]}`)).text).toContain('Delete this response');
    const still = await server.client.get(`/v3/surveys/${surveyId}/responses/${ids[0]}`, {
      token: t.owner.token,
    });
    expect(still.status).toBe(200);
  });
});

describe('deleting', () => {
  it('asks first (the no-script path), then deletes the response and its counts', async () => {
    const web = await signIn(server, t.owner);
    const _csrf = await web.csrf(`${base}/${ids[0]}`);
    const ask = await web.post(`${base}/${ids[0]}/delete`, { _csrf });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Delete response #1?');
    expect(ask.text).toContain('Its answers to 1 question');
    expect(ask.text).toContain('name="confirm" value="yes"');
    expect(
      (await server.client.get(`/v3/surveys/${surveyId}/responses/${ids[0]}`, { token: t.owner.token }))
        .status,
    ).toBe(200);
    expect((await web.post(`${base}/${ids[0]}/delete`, { _csrf: 'forged', confirm: 'yes' })).status).toBe(
      403,
    );
    const done = await web.post(`${base}/${ids[0]}/delete`, { _csrf, confirm: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${base}?done=deleted`);
    expect(
      (await server.client.get(`/v3/surveys/${surveyId}/responses/${ids[0]}`, { token: t.owner.token }))
        .status,
    ).toBe(404);
    const survey = (await server.client.get(`/v3/surveys/${surveyId}`, { token: t.owner.token })).body;
    expect(survey.response_count).toBe(51);
    const list = await web.get(`${base}?done=deleted`);
    expect(list.text).toContain('The response was deleted.');
    expect(rowsOf((await web.get(`${base}?page=2`)).text)).toEqual([2]);
    expect((await web.post(`${base}/${ids[0]}/delete`, { _csrf, confirm: 'yes' })).status).toBe(404);
  });
});

describe('the basic plan', () => {
  it('lists and opens only the first 25 responses, and says so', async () => {
    const owner = await server.account({ plan: 'premier' });
    const s = await surveyWithResponses(owner, 27);
    await updateUser(server.deps, owner.user.username, { plan: 'basic' });
    const web = await signIn(server, owner);
    const list = await web.get(s.base);
    expect(rowsOf(list.text)[0]).toBe(25);
    expect(rowsOf(list.text)).toHaveLength(25);
    expect(list.text).toContain('shows the first 25 responses of this survey; 2 more are not shown');
    expect((await web.get(`${s.base}/${s.ids[24]}`)).status).toBe(200);
    const beyond = await web.get(`${s.base}/${s.ids[25]}`);
    expect(beyond.status).toBe(402);
    expect(beyond.text).toContain('first 25 responses');
  });
});
