// The summary's figures, the analyze page's trend and the responses page's total read counts kept
// per day, collector and status (migration 0043) instead of the responses. Each figure is compared
// with what a scan of the responses themselves (the API's bulk list) says, under the filters the
// pages offer, before and after responses change status or day, are deleted (one, and a collector's
// cascade), and the survey is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, signIn, singleChoice, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let surveyId: string;
let token: string;
let collectors: string[];
let responseIds: string[];

interface Row {
  status: string;
  day: string;
  collector: string;
  time: number;
}

const DAYS = ['2026-01-10', '2026-01-11', '2026-01-12'];
const STATUSES = ['completed', 'completed', 'partial', 'disqualified'];

/** Every response as the API lists it. */
async function scan(): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await server.client.get(`/v3/surveys/${surveyId}/responses/bulk?per_page=100&page=${page}`, {
      token: owner.token,
    });
    expect(res.status, res.text).toBe(200);
    for (const r of res.body.data)
      out.push({
        status: r.response_status,
        // date_created is written with its offset (+00:00): the UTC day is its first ten characters.
        day: String(r.date_created).slice(0, 10),
        collector: r.collector_id,
        time: r.total_time,
      });
    if (!res.body.links.next) return out;
  }
}

interface Filter {
  query: string;
  keep: (r: Row) => boolean;
}

function filters(): Filter[] {
  const [a, b] = collectors;
  return [
    { query: '', keep: () => true },
    { query: 'status=partial', keep: (r) => r.status === 'partial' },
    { query: 'status=completed&status=disqualified', keep: (r) => r.status !== 'partial' },
    { query: `collector=${b}`, keep: (r) => r.collector === b },
    { query: 'start=2026-01-11', keep: (r) => r.day >= '2026-01-11' },
    { query: 'end=2026-01-11', keep: (r) => r.day <= '2026-01-11' },
    {
      query: `start=2026-01-11&end=2026-01-11&collector=${a}&status=completed`,
      keep: (r) => r.day === '2026-01-11' && r.collector === a && r.status === 'completed',
    },
  ];
}

const figure = (text: string, id: string) =>
  new RegExp(`id="${id}"><span class="n">([^<]*)</span>`).exec(text)?.[1];

function duration(seconds: number): string {
  return seconds >= 60
    ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
    : `${Math.round(seconds)} s`;
}

/** The figures each page shows under every filter, against the scan's. */
async function expectPagesAgree(): Promise<void> {
  const rows = await scan();
  for (const f of filters()) {
    const match = rows.filter(f.keep);
    const q = f.query ? `?${f.query}` : '';
    const count = (s: string) => match.filter((r) => r.status === s).length;

    const summary = await web.get(`/summary/${token}${q}`);
    expect(summary.status).toBe(200);
    expect(figure(summary.text, 'f-total'), f.query).toBe(String(match.length));
    expect(figure(summary.text, 'f-completed'), f.query).toBe(String(count('completed')));
    expect(figure(summary.text, 'f-partial'), f.query).toBe(String(count('partial')));
    expect(figure(summary.text, 'f-disqualified'), f.query).toBe(String(count('disqualified')));
    const done = match.filter((r) => r.status === 'completed');
    const time = done.length ? duration(done.reduce((s, r) => s + r.time, 0) / done.length) : '—';
    expect(figure(summary.text, 'f-time'), f.query).toBe(time);

    const analyze = await web.get(`/analyze/${token}${q}`);
    expect(analyze.status).toBe(200);
    const trend = [
      ...analyze.text.matchAll(
        /<tr><th scope="row">(\d{4}-\d{2}-\d{2})<\/th><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td>/g,
      ),
    ].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    const days = [...new Set(match.map((r) => r.day))].sort();
    const expected = [];
    if (days.length)
      for (let d = days[0]; d <= days.at(-1)!; d = nextDay(d)) {
        const on = match.filter((r) => r.day === d);
        expected.push([d, on.length, on.filter((r) => r.status === 'completed').length]);
      }
    expect(trend, f.query).toEqual(expected);

    const list = await web.get(`/analyze/${token}/responses${q}`);
    expect(list.status).toBe(200);
    expect(/id="response-count"><strong>(\d+)<\/strong>/.exec(list.text)?.[1], f.query).toBe(
      String(match.length),
    );
  }
}

const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startServer();
  owner = await server.account({ plan: 'premier' });
  const tk = { token: owner.token };
  const created = await seedSurvey(server, owner, {
    title: 'Kept counts',
    questions: { floor: singleChoice('Which floor?', ['Ground', 'Top']) },
  });
  surveyId = created.id;
  const details = created.details;
  token = new URL(details.analyze_url).pathname.split('/').at(-1)!;
  const q = created.question('floor');
  collectors = [];
  for (const name of ['A', 'B'])
    collectors.push(
      (await server.client.post(`/v3/surveys/${surveyId}/collectors`, { type: 'weblink', name }, tk)).body.id,
    );
  responseIds = [];
  for (let i = 0; i < 24; i++) {
    // The day's last half second too: "end" takes the whole day.
    const at = i % 6 === 5 ? 'T23:59:59.500Z' : `T${String(8 + (i % 6)).padStart(2, '0')}:00:00Z`;
    const r = await server.client.post(
      `/v3/collectors/${collectors[i % 2]}/responses`,
      {
        response_status: STATUSES[i % 4],
        date_created: `${DAYS[i % 3]}${at}`,
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
    responseIds.push(r.body.id);
  }
  web = await signIn(server, owner);
});
afterAll(() => server.close());

describe('figures from kept counts per day', () => {
  it('agree with the responses under every filter of the pages', async () => {
    await expectPagesAgree();
  });

  it('follow a change of status or day, a deletion and a collector deleted with its responses', async () => {
    const tk = { token: owner.token };
    const path = (id: string) => `/v3/surveys/${surveyId}/responses/${id}`;
    expect((await server.client.patch(path(responseIds[0]), { response_status: 'partial' }, tk)).status).toBe(
      200,
    );
    expect(
      (await server.client.patch(path(responseIds[2]), { response_status: 'completed' }, tk)).status,
    ).toBe(200);
    const moved = await server.client.patch(
      path(responseIds[4]),
      { date_created: '2026-01-14T10:00:00Z' },
      tk,
    );
    expect(moved.status, moved.text).toBe(200);
    expect((await server.client.delete(path(responseIds[6]), tk)).status).toBe(200);
    await expectPagesAgree();
    expect((await server.client.delete(`/v3/collectors/${collectors[1]}`, tk)).status).toBe(200);
    // The pages drop a filter naming a collector the survey no longer has: filter by the other.
    collectors = [collectors[0], collectors[0]];
    await expectPagesAgree();
  });

  it('lets the survey be deleted with its responses and counts', async () => {
    const del = await server.client.delete(`/v3/surveys/${surveyId}`, { token: owner.token });
    expect(del.status, del.text).toBe(200);
    const left = await server.deps.db.kysely
      .selectFrom('response_days')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('survey_id', '=', surveyId)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});
