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

async function surveyLink(sorting: object): Promise<string> {
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
  return `${server.url}${new URL(c.body.url).pathname}`;
}

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
