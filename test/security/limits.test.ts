// Every limit holds under concurrency, on SQLite and PostgreSQL: real concurrent HTTP requests
// against a small ceiling, and the exact number stored afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { answerThrough } from '../invite/helpers.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({
    clock,
    env: { CONTACT_LIMIT_BASIC: '20', SEND_LIMIT_STANDARD: '5', RECIPIENT_LIMIT_STANDARD: '6' },
  });
});
afterAll(() => server.close());

/** A one-question survey with a weblink collector created with `options`. */
async function weblink(token: string, options: Record<string, unknown> = {}) {
  const s = await server.client.post(
    '/v3/surveys',
    {
      title: 'Limits',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] }] }],
    },
    { token },
  );
  expect(s.status, s.text).toBe(201);
  const details = await server.client.get(`/v3/surveys/${s.body.id}/details`, { token });
  const c = await server.client.post(
    `/v3/surveys/${s.body.id}/collectors`,
    { type: 'weblink', ...options },
    { token },
  );
  expect(c.status, c.text).toBe(201);
  const link = `${server.url}${new URL(c.body.url).pathname}`;
  return {
    surveyId: s.body.id as string,
    collectorId: c.body.id as string,
    questionId: details.body.pages[0].questions[0].id as string,
    link,
  };
}

/** A respondent without JavaScript: opens the survey page, and later submits its form. */
async function openSurvey(link: string, headers: Record<string, string> = {}) {
  const first = await fetch(link, { headers });
  expect(first.status).toBe(200);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  expect(field('csrf')).not.toBe('');
  return {
    async submit(answers: Record<string, string>) {
      const res = await fetch(link, {
        method: 'POST',
        headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: field('csrf'), p: field('p'), nav: 'next', ...answers }).toString(),
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
  };
}

async function storedResponses(collectorId: string) {
  const rows = await server.deps.db.kysely
    .selectFrom('responses')
    .select('id')
    .where('collector_id', '=', collectorId)
    .execute();
  const c = await server.deps.db.kysely
    .selectFrom('collectors')
    .select('response_count')
    .where('id', '=', collectorId)
    .executeTakeFirstOrThrow();
  return { rows: rows.length, count: Number(c.response_count) };
}

describe('response_limit and closed collectors', () => {
  it('30 concurrent API creates store exactly response_limit responses; the rest get 409/1025', async () => {
    const a = await server.account();
    const { collectorId } = await weblink(a.token, { response_limit: 10 });
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: a.token }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(20);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.id).toBe('1025');
      expect(r.body.error.message).toContain('response_limit');
    }
    expect(await storedResponses(collectorId)).toEqual({ rows: 10, count: 10 });
  });

  it('30 concurrent respondents on the page store exactly response_limit responses; the rest see the full page', async () => {
    const a = await server.account();
    const { collectorId, questionId, link } = await weblink(a.token, { response_limit: 10 });
    // every respondent opens the survey while it is open, then all submit at once
    const opened = await Promise.all(Array.from({ length: 30 }, () => openSurvey(link)));
    const results = await Promise.all(opened.map((o, i) => o.submit({ [`q_${questionId}`]: `answer ${i}` })));
    // a one-page survey: a stored response ends on the thank-you page
    expect(results.filter((r) => r.text.includes('class="thank-you"'))).toHaveLength(10);
    expect(results.filter((r) => r.text.includes('data-reason="full"'))).toHaveLength(20);
    expect(await storedResponses(collectorId)).toEqual({ rows: 10, count: 10 });
  });

  it('the API refuses new responses to a closed or expired collector, as the page does', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId, questionId, link } = await weblink(a.token);
    const path = `/v3/collectors/${collectorId}`;
    expect((await server.client.patch(path, { status: 'closed' }, t)).status).toBe(200);
    const closed = await server.client.post(`${path}/responses`, {}, t);
    expect(closed.status).toBe(409);
    expect(closed.body.error.id).toBe('1025');
    expect(closed.body.error.message).toContain('is closed');

    expect(
      (await server.client.patch(path, { status: 'open', close_date: '2026-05-31T00:00:00+00:00' }, t))
        .status,
    ).toBe(200);
    const expired = await server.client.post(`${path}/responses`, {}, t);
    expect(expired.status).toBe(409);
    expect(expired.body.error.message).toContain('close_date');
    expect((await storedResponses(collectorId)).rows).toBe(0);

    // reopened: both paths accept again
    expect((await server.client.patch(path, { close_date: null }, t)).status).toBe(200);
    expect((await server.client.post(`${path}/responses`, {}, t)).status).toBe(201);
    expect((await answerThrough(link, questionId, 'hello')).text).toContain('class="thank-you"');
    expect(await storedResponses(collectorId)).toEqual({ rows: 2, count: 2 });
  });
});
