import { sql } from 'kysely';
// Every limit holds under concurrency, on SQLite and PostgreSQL: real concurrent HTTP requests
// against a small ceiling, and the exact number stored afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/domain/core/events.js';
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

  // Concurrent creates are committed in groups (PostgreSQL: one insert_responses() call, SQLite:
  // one transaction); within a group, a refused response must not take the others with it.
  it('40 concurrent creates on two limited collectors of one survey: exact counts, ordinals and events', async () => {
    const a = await server.account();
    const { surveyId, collectorId: first, questionId } = await weblink(a.token, { response_limit: 6 });
    const second = await server.client.post(
      `/v3/surveys/${surveyId}/collectors`,
      { type: 'weblink', response_limit: 4 },
      { token: a.token },
    );
    expect(second.status, second.text).toBe(201);
    const details = await server.client.get(`/v3/surveys/${surveyId}/details`, { token: a.token });
    const pageId = details.body.pages[0].id;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server.client.post(
          `/v3/collectors/${i % 2 ? second.body.id : first}/responses`,
          { pages: [{ id: pageId, questions: [{ id: questionId, answers: [{ text: `answer ${i}` }] }] }] },
          { token: a.token },
        ),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(30);
    expect(await storedResponses(first)).toEqual({ rows: 6, count: 6 });
    expect(await storedResponses(second.body.id)).toEqual({ rows: 4, count: 4 });
    const k = server.deps.db.kysely;
    const rows = await k
      .selectFrom('responses')
      .select(['id', 'ordinal'])
      .where('survey_id', '=', surveyId)
      .execute();
    expect(rows.map((r) => r.ordinal).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows.map((r) => r.id).sort()).toEqual(created.map((r) => r.body.id).sort());
    const survey = await server.client.get(`/v3/surveys/${surveyId}`, { token: a.token });
    expect(survey.body.response_count).toBe(10);
    // As the fan-out reads them: a row may hold two events (domain/core/events.ts oneRow).
    const events = (
      await k
        .selectFrom('events')
        .select(['id', 'type', 'resource_id', 'data'])
        .where(
          'resource_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
    ).flatMap(eventsOf);
    expect(events.filter((e) => e.type === 'response_created')).toHaveLength(10);
    expect(events.filter((e) => e.type === 'response_completed')).toHaveLength(10);
    const listed = await server.client.get(`/v3/surveys/${surveyId}/responses/bulk`, { token: a.token });
    expect(listed.body.total).toBe(10);
  });

  it('a response dated 1900 is stored (its total_time fits the column)', async () => {
    const a = await server.account();
    const { collectorId } = await weblink(a.token);
    const old = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      { date_created: '1900-01-01T00:00:00+00:00' },
      { token: a.token },
    );
    expect(old.status).toBe(201);
    expect(old.body.total_time).toBe(2147483647);
  });

  // Concurrent responses are written together (one statement or transaction per group). A response
  // the database refuses (a trigger stands in for a constraint or a disk error only it sees) must
  // not take the others with it: each is retried on its own.
  it('a response the database refuses does not take the concurrent ones with it', async () => {
    const a = await server.account();
    const { collectorId } = await weblink(a.token);
    const { db } = server.deps;
    if (db.sqlite)
      db.sqlite.exec(
        `CREATE TRIGGER refuse_marked BEFORE INSERT ON responses WHEN NEW.custom_value = 'refuse-me'
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    else {
      await sql`CREATE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.custom_value = 'refuse-me' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW; END $$`.execute(db.kysely);
      await sql`CREATE TRIGGER refuse_marked BEFORE INSERT ON responses FOR EACH ROW EXECUTE FUNCTION refuse_marked()`.execute(
        db.kysely,
      );
    }
    try {
      const results = await Promise.all(
        Array.from({ length: 11 }, (_, i) =>
          server.client.post(
            `/v3/collectors/${collectorId}/responses`,
            i === 5 ? { custom_value: 'refuse-me' } : {},
            { token: a.token },
          ),
        ),
      );
      expect(results[5].status).toBe(500);
      expect(results.filter((_r, i) => i !== 5).map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(await storedResponses(collectorId)).toEqual({ rows: 10, count: 10 });
    } finally {
      if (db.sqlite) db.sqlite.exec('DROP TRIGGER refuse_marked');
      else
        await sql`DROP TRIGGER refuse_marked ON responses; DROP FUNCTION refuse_marked()`.execute(db.kysely);
    }
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

const tally = (statuses: number[]) => {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
};

async function contactsOf(ownerId: string) {
  const rows = await server.deps.db.kysely
    .selectFrom('contacts')
    .select('email')
    .where('owner_id', '=', ownerId)
    .execute();
  return rows.map((r) => r.email);
}

describe('contact limit and unique emails under concurrency', () => {
  it('10 concurrent bulk requests of 5 store exactly the plan limit of 20', async () => {
    const a = await server.account({ plan: 'basic' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, r) =>
        server.client.post(
          '/v3/contacts/bulk',
          { contacts: Array.from({ length: 5 }, (_, i) => ({ email: `b${r}.${i}@example.org` })) },
          { token: a.token },
        ),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 4, 403: 6 });
    for (const r of results.filter((x) => x.status === 403)) expect(r.body.error.id).toBe('1017');
    expect(await contactsOf(a.user.id)).toHaveLength(20);
  });

  it('30 concurrent creates store exactly 20; 10 concurrent creates of one address store it once', async () => {
    const a = await server.account({ plan: 'basic' });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.client.post('/v3/contacts', { email: `one${i}@example.org` }, { token: a.token }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 20, 403: 10 });
    expect(await contactsOf(a.user.id)).toHaveLength(20);

    const b = await server.account();
    const same = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.client.post(
          '/v3/contacts',
          { email: i % 2 ? 'Same@Example.org' : 'same@example.org' },
          { token: b.token },
        ),
      ),
    );
    expect(tally(same.map((r) => r.status))).toEqual({ 201: 1, 409: 9 });
    expect(await contactsOf(b.user.id)).toHaveLength(1);
  });
});

/** An email collector of `token`'s account with an invite message holding `emails`. */
async function inviteMessage(token: string, emails: string[]) {
  const t = { token };
  const s = await server.client.post(
    '/v3/surveys',
    {
      title: 'Invite',
      pages: [
        { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Ideas?' }] }] },
      ],
    },
    t,
  );
  const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'email' }, t);
  const msg = await server.client.post(`/v3/collectors/${c.body.id}/messages`, { type: 'invite' }, t);
  expect(msg.status, msg.text).toBe(201);
  const m = `/v3/collectors/${c.body.id}/messages/${msg.body.id}`;
  for (const email of emails)
    expect((await server.client.post(`${m}/recipients`, { email }, t)).status).toBe(201);
  return { m, messageId: msg.body.id as string };
}

describe('invitation limits under concurrency', () => {
  it('10 concurrent sends of one recipient each queue exactly the daily limit of 5 emails', async () => {
    const a = await server.account({ plan: 'standard' });
    const messages = [];
    for (let i = 0; i < 10; i++) messages.push(await inviteMessage(a.token, [`d${i}@example.org`]));
    const results = await Promise.all(
      messages.map(({ m }) => server.client.post(`${m}/send`, {}, { token: a.token })),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 5, 403: 5 });
    for (const r of results.filter((x) => x.status === 403)) expect(r.body.error.id).toBe('1017');
    const emails = await server.deps.db.kysely
      .selectFrom('emails')
      .select('id')
      .where('owner_id', '=', a.user.id)
      .execute();
    expect(emails).toHaveLength(5);
  });

  it('20 concurrent recipients on one message store exactly the per-message limit of 6', async () => {
    const a = await server.account({ plan: 'standard' });
    const { m, messageId } = await inviteMessage(a.token, []);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.client.post(`${m}/recipients`, { email: `p${i}@example.org` }, { token: a.token }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 6, 400: 14 });
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.error.id).toBe('1056');
    const rows = await server.deps.db.kysely
      .selectFrom('message_recipients')
      .select('recipient_id')
      .where('message_id', '=', messageId)
      .execute();
    expect(rows).toHaveLength(6);
  });
});
