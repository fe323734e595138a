// The sentiment of open-ended answers over HTTP: scored when a response is written (API and
// update), kept, shown as shares on the analyze page, filtered by on the analyze and responses
// pages (`sentiment_<q>`), written as a Sentiment column in the export, "not analysed" for a survey
// in a language the scorer does not read, and completed by the worker's derived-rows pass for rows
// written without it (an older release's, or those before the migration).
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDerivedRows } from '../../src/domain/responses/derived.js';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type OfficeMove, seedOfficeMove } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;
let seeded: OfficeMove;

/** Nine comments: three positive, three negative, three neutral (i % 3: 0, 1, 2). */
const COMMENTS = [
  'Great new office, I love the light.',
  'The move was chaotic and the desks are terrible.',
  'I sit on the second floor.',
];
const comment = (i: number) => COMMENTS[i % 3];

const readCsv = (text: string): string[][] => parse(text, { bom: true, record_delimiter: '\r\n' });
const matchCount = (text: string) => /id="total"><strong>(\d+)<\/strong>/.exec(text)?.[1];
const listCount = (text: string) => /id="response-count"><strong>(\d+)<\/strong>/.exec(text)?.[1];

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  seeded = await seedOfficeMove(server, owner, { questions: ['floor', 'comment'], responses: 9, comment });
});
afterAll(() => server.close());

describe('sentiment of open-ended answers', () => {
  it('shows the shares per open-ended question and filters the analyze and responses pages by them', async () => {
    const web = await signIn(server, owner);
    const { analyze, q, ids } = seeded;
    const page = await web.get(analyze);
    expect(page.status).toBe(200);
    const panel = new RegExp(`id="sentiment-${q.comment}"[\\s\\S]*?</section>`).exec(page.text)?.[0] ?? '';
    expect(panel).toMatch(/data-sentiment="positive">Positive <span class="count">33% \(3\)/);
    expect(panel).toMatch(/data-sentiment="negative">Negative <span class="count">33% \(3\)/);
    expect(panel).toMatch(/data-sentiment="neutral">Neutral <span class="count">33% \(3\)/);
    expect(panel).toMatch(/data-sentiment="not_analysed">Not analysed <span class="count">0% \(0\)/);
    // a choice question without "Other" has no sentiment
    expect(page.text).not.toContain(`id="sentiment-${q.floor}"`);
    // the filter form offers the labels
    expect(page.text).toContain(`name="sentiment_${q.comment}" value="negative"`);
    const cases: Array<[string, number]> = [
      [`sentiment_${q.comment}=negative`, 3],
      [`sentiment_${q.comment}=negative&sentiment_${q.comment}=positive`, 6],
      [`sentiment_${q.comment}=negative&a=${q.floor}:${q.ground}`, 1],
      [`sentiment_${q.comment}=not_analysed`, 0],
      // unknown labels and questions are dropped
      [`sentiment_${q.comment}=angry`, 9],
      [`sentiment_${q.floor}=negative`, 9],
    ];
    for (const [query, n] of cases) {
      const a = await web.get(`${analyze}?${query}`);
      expect(matchCount(a.text), `analyze ?${query}`).toBe(String(n));
      const list = await web.get(`${analyze}/responses?${query}`);
      expect(listCount(list.text), `responses ?${query}`).toBe(String(n));
    }
    const negative = await web.get(`${analyze}/responses?sentiment_${q.comment}=negative`);
    expect(ids.filter((id) => negative.text.includes(id))).toEqual([ids[1], ids[4], ids[7]]);
    expect(negative.text).toContain(`name="sentiment_${q.comment}" value="negative" checked`);
    // a share is a link to the responses with that sentiment, on top of the page's filter
    const filtered = await web.get(`${analyze}?a=${q.floor}:${q.ground}`);
    expect(filtered.text).toContain(
      `${analyze}/responses?a=${q.floor}%3A${q.ground}&amp;sentiment_${q.comment}=positive`,
    );
  });

  it('writes a Sentiment column after the question in CSV, numeric CSV and SPSS', async () => {
    const web = await signIn(server, owner);
    const { analyze, ids } = seeded;
    const csv = await web.get(`${analyze}/export?format=csv`);
    expect(csv.status).toBe(200);
    const lines = readCsv(csv.text);
    const head2 = lines[1];
    const at = head2.indexOf('Sentiment');
    expect(at).toBeGreaterThan(head2.indexOf('Open-Ended Response'));
    const byId = new Map(lines.slice(2).map((l) => [l[0], l]));
    expect(byId.get(ids[0])?.[at]).toBe('Positive');
    expect(byId.get(ids[1])?.[at]).toBe('Negative');
    expect(byId.get(ids[2])?.[at]).toBe('Neutral');
    const numeric = await web.get(`${analyze}/export?format=csv&values=numeric`);
    const nums = readCsv(numeric.text);
    const row = (id: string) => nums.find((l) => l[0] === id)?.[at];
    expect([row(ids[0]), row(ids[1]), row(ids[2])]).toEqual(['1', '-1', '0']);
    const spss = await web.get(`${analyze}/export?format=spss`);
    expect(spss.status).toBe(200);
    expect(spss.text).toMatch(/q2_2 'Anything else\?: Sentiment'/);
    expect(spss.text).toMatch(/q2_2 1 'Positive' 0 'Neutral' -1 'Negative'/);
  });

  it('rescores an updated answer, and marks a survey in another language "not analysed"', async () => {
    const tk = { token: owner.token };
    const { analyze, q, ids, details } = seeded;
    const patched = await server.client.patch(
      `/v3/surveys/${seeded.surveyId}/responses/${ids[2]}`,
      {
        pages: [
          {
            id: details.pages[0].id,
            questions: [{ id: q.comment, answers: [{ text: 'Awful, noisy and cold.' }] }],
          },
        ],
      },
      tk,
    );
    expect(patched.status, patched.text).toBe(200);
    const web = await signIn(server, owner);
    expect(listCount((await web.get(`${analyze}/responses?sentiment_${q.comment}=negative`)).text)).toBe('4');
    // a French survey: its answers are kept as not analysed
    const fr = await seedOfficeMove(server, owner, { questions: ['comment'], responses: 2, comment });
    const changed = await server.client.patch(`/v3/surveys/${fr.surveyId}`, { language: 'fr' }, tk);
    expect(changed.status, changed.text).toBe(200);
    const more = await server.client.post(
      `/v3/collectors/${(await server.client.get(`/v3/surveys/${fr.surveyId}/collectors`, tk)).body.data[0].id}/responses`,
      {
        pages: [
          {
            id: fr.details.pages[0].id,
            questions: [{ id: fr.q.comment, answers: [{ text: 'Très bien, merci' }] }],
          },
        ],
      },
      tk,
    );
    expect(more.status, more.text).toBe(201);
    const page = await web.get(fr.analyze);
    const panel = new RegExp(`id="sentiment-${fr.q.comment}"[\\s\\S]*?</section>`).exec(page.text)?.[0] ?? '';
    expect(panel).toMatch(/data-sentiment="not_analysed">Not analysed <span class="count">33% \(1\)/);
  });

  it('scores the responses kept without a sentiment in the derived-rows pass', async () => {
    const { analyze, q } = seeded;
    const k = server.deps.db.kysely;
    // as a process of the previous release (or the rows from before the migration) leaves them
    await sql`UPDATE response_keys SET sentiments = NULL WHERE survey_id = ${seeded.surveyId}`.execute(k);
    server.deps.caches.analyzeResults.clear();
    const web = await signIn(server, owner);
    expect(listCount((await web.get(`${analyze}/responses?sentiment_${q.comment}=positive`)).text)).toBe('0');
    const written = await completeDerivedRows(server.deps);
    expect(written.response_keys).toBe(9);
    expect(listCount((await web.get(`${analyze}/responses?sentiment_${q.comment}=positive`)).text)).toBe('3');
    expect((await completeDerivedRows(server.deps)).response_keys).toBe(0);
  });
});
