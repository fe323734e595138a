// The trend on the analyze page over HTTP: responses per day since the first,
// empty days included, with the share completed; per week once the survey has run for months; the
// page's filter applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

async function surveyAnswered(dates: Array<[string, string]>): Promise<string> {
  const tk = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Trend',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] }] }],
    },
    tk,
  );
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const collector = (
    await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
  ).body.id;
  for (const [day, status] of dates) {
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        response_status: status,
        date_created: `${day}T10:00:00+00:00`,
        pages: [
          {
            id: details.pages[0].id,
            questions: [{ id: details.pages[0].questions[0].id, answers: [{ text: 'x' }] }],
          },
        ],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
  }
  return new URL(details.analyze_url).pathname;
}

const rowsOf = (text: string) =>
  [
    ...text.matchAll(
      /<tr><th scope="row">([\d-]+)<\/th><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g,
    ),
  ].map((m) => [m[1], Number(m[2]), Number(m[3]), m[4]]);

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

describe('trend', () => {
  it('draws responses per day with the completion rate, empty days included, and follows the filter', async () => {
    const analyze = await surveyAnswered([
      ['2026-01-10', 'completed'],
      ['2026-01-10', 'completed'],
      ['2026-01-10', 'partial'],
      ['2026-01-12', 'completed'],
    ]);
    const web = await signIn(server, owner);
    const page = await web.get(analyze);
    expect(page.text).toContain('<h3>Responses over time</h3>');
    expect(page.text).toContain('<svg class="chart trend"');
    expect(page.text).toContain('<title>2026-01-10: 3 responses, 67% completed</title>');
    expect(rowsOf(page.text)).toEqual([
      ['2026-01-10', 3, 2, '67%'],
      ['2026-01-11', 0, 0, '—'],
      ['2026-01-12', 1, 1, '100%'],
    ]);
    expect(rowsOf((await web.get(`${analyze}?status=partial`)).text)).toEqual([['2026-01-10', 1, 0, '0%']]);
  });

  it('goes per week (from Monday) when the survey has run for months', async () => {
    const analyze = await surveyAnswered([
      ['2026-01-07', 'completed'],
      ['2026-05-20', 'partial'],
    ]);
    const web = await signIn(server, owner);
    const rows = rowsOf((await web.get(analyze)).text);
    expect(rows[0]).toEqual(['2026-01-05', 1, 1, '100%']);
    expect(rows.at(-1)).toEqual(['2026-05-18', 1, 0, '0%']);
    expect(rows).toHaveLength(20);
  });
});
