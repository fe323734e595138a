// Filters by answer over HTTP: the analyze, summary and responses pages and the
// download read one filter from the URL (choices, a number range, "contains", completeness, dates,
// collector); the pages say how many responses match; unknown questions or choices are ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type OfficeMove, seedOfficeMove } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;
let analyze: string;
let summary: string;
let ids: string[];
let q: OfficeMove['q'];

const matchCount = (text: string) => /id="total"><strong>(\d+)<\/strong>/.exec(text)?.[1];
const listCount = (text: string) => /id="response-count"><strong>(\d+)<\/strong>/.exec(text)?.[1];

/** Twelve responses: floor alternates ground/top, age 20, 25 … 75, every third comment asks for
 * coffee, every fourth response is partial. */
beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  ({ q, ids, analyze, summary } = await seedOfficeMove(server, owner, {
    questions: ['floor', 'age', 'comment'],
    responses: 12,
    status: (i) => (i % 4 === 3 ? 'partial' : 'completed'),
    comment: (i) => (i % 3 === 0 ? 'More coffee, please' : 'Quiet rooms'),
  }));
});
afterAll(() => server.close());

describe('filter by answer', () => {
  it('counts the responses matching choices, a number range, "contains" and completeness, on every page', async () => {
    const web = await signIn(server, owner);
    const cases: Array<[string, number]> = [
      ['', 12],
      [`a=${q.floor}:${q.ground}`, 6],
      [`a=${q.floor}:${q.ground}&a=${q.floor}:${q.top}`, 12],
      [`a=${q.floor}:${q.ground}&min_${q.age}=40`, 4],
      [`a=${q.floor}:${q.ground}&min_${q.age}=40&has_${q.comment}=COFFEE`, 1],
      [`max_${q.age}=30`, 3],
      ['status=partial', 3],
      ['status=partial&status=completed', 12],
      [`status=partial&a=${q.floor}:${q.ground}`, 0],
      [`has_${q.comment}=${encodeURIComponent('%')}`, 0],
      [`has_${q.comment}=${encodeURIComponent("e, p'")}`, 0],
      [`has_${q.comment}=${encodeURIComponent('e, p')}`, 4],
    ];
    for (const [query, n] of cases) {
      const page = await web.get(`${analyze}?${query}`);
      expect(page.status, query).toBe(200);
      expect(matchCount(page.text), `analyze ?${query}`).toBe(String(n));
      if (query)
        expect(page.text, query).toContain(n === 1 ? 'matches these filters' : 'match these filters');
      const list = await web.get(`${analyze}/responses?${query}`);
      expect(listCount(list.text), `responses ?${query}`).toBe(String(n));
      const sum = await web.get(`${summary}?${query}`);
      expect(/id="f-total"><span class="n">(\d+)</.exec(sum.text)?.[1], `summary ?${query}`).toBe(String(n));
    }
  });

  it('keeps the filter in the form and in links, so the page is a bookmark', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?a=${q.floor}:${q.ground}&min_${q.age}=40&status=completed`);
    expect(page.text).toContain(`value="${q.floor}:${q.ground}" checked`);
    expect(page.text).toContain(`name="min_${q.age}" value="40"`);
    expect(page.text).toMatch(/value="completed" checked/);
    expect(page.text).toContain('Filter by answer (2)');
    // the matching responses, with the same filter
    expect(page.text).toContain(
      `${analyze}/responses?status=completed&amp;a=${q.floor}%3A${q.ground}&amp;min_${q.age}=40`,
    );
    // the rollup counts only the matching responses: ground floor 4 (ages 40, 50, 60, 70), top 0
    expect(page.text).toContain('<title>Ground floor: 4 (100%)</title>');
    expect(page.text).toContain('<title>Top floor: 0 (0%)</title>');
  });

  it('ignores questions and choices the survey does not have', async () => {
    const web = await signIn(server, owner);
    for (const query of [
      'a=1:2',
      `a=${q.floor}:999`,
      `a=${q.floor}`,
      `min_${q.comment}=3`,
      `has_${q.floor}=x`,
    ]) {
      const page = await web.get(`${analyze}?${query}`);
      expect(page.status, query).toBe(200);
      expect(matchCount(page.text), query).toBe('12');
    }
  });

  it('downloads only the matching responses', async () => {
    const web = await signIn(server, owner);
    const csv = await web.get(`${analyze}/export?format=csv&a=${q.floor}:${q.ground}&min_${q.age}=40`);
    expect(csv.status).toBe(200);
    const inFile = ids.filter((id) => csv.text.includes(id));
    expect(inFile).toEqual([ids[4], ids[6], ids[8], ids[10]]);
    const partial = await web.get(`${analyze}/export?format=csv&status=partial`);
    expect(ids.filter((id) => partial.text.includes(id))).toEqual([ids[3], ids[7], ids[11]]);
  });

  it('offers the download with the page filter and a completeness choice', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?a=${q.floor}:${q.top}&status=partial`);
    const form = /<form[^>]*aria-label="Download responses">[\s\S]*?<\/form>/.exec(page.text)?.[0] ?? '';
    expect(form).toContain(`<input type="hidden" name="a" value="${q.floor}:${q.top}">`);
    expect(form).toMatch(/name="status" value="partial" checked/);
    expect(form).not.toMatch(/type="hidden" name="status"/);
  });
});
