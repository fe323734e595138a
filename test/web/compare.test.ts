// Compare by a question over HTTP: the analyze page's `compare=<question>` splits
// every other question's results by the chosen question's answers, with counts and percentages per
// group, under the page's filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type OfficeMove, seedOfficeMove } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;
let analyze: string;
let q: OfficeMove['q'];

/** Eight responses: floor alternates ground/top; drink is tea for i < 3, coffee otherwise; age 20 + 5i. */
beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  ({ q, analyze } = await seedOfficeMove(server, owner, {
    questions: ['floor', 'drink', 'age'],
    responses: 8,
  }));
});
afterAll(async () => {
  await server?.close();
});

/** The text of the cell `id` of the compare tables. */
const cell = (text: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(text)?.[1]?.trim();

describe('compare by a question', () => {
  it('splits every other question by the chosen one, with counts and percentages per group', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?compare=${q.floor}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="compared"');
    // Ground floor: i = 0, 2, 4, 6 → tea for 0 and 2 (2 of 4, 50%); top floor: 1, 3, 5, 7 → tea for 1 (1 of 4, 25%).
    expect(cell(page.text, `x-${q.drink}-${q.tea}-${q.ground}`)).toBe('2 (50%)');
    expect(cell(page.text, `x-${q.drink}-${q.tea}-${q.top}`)).toBe('1 (25%)');
    expect(cell(page.text, `x-n-${q.ground}`)).toBe('4');
    // A number question: its mean per group (ground 20, 30, 40, 50 → 35; top 25 … 55 → 40).
    expect(cell(page.text, `x-${q.age}-mean-${q.ground}`)).toBe('35');
    expect(cell(page.text, `x-${q.age}-mean-${q.top}`)).toBe('40');
    // The compared question is not split by itself, and the form offers it as chosen.
    expect(page.text).not.toContain(`id="x-${q.floor}-`);
    expect(page.text).toMatch(new RegExp(`<option value="${q.floor}" selected>`));
  });

  it('keeps the page filter: only the matching responses are split', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?compare=${q.floor}&min_${q.age}=30`);
    // age ≥ 30: i ≥ 2 → ground 2, 4, 6 (tea for 2: 1 of 3, 33.3%), top 3, 5, 7 (no tea)
    expect(cell(page.text, `x-${q.drink}-${q.tea}-${q.ground}`)).toBe('1 (33.3%)');
    expect(cell(page.text, `x-${q.drink}-${q.tea}-${q.top}`)).toBe('0 (0%)');
    // The compare form carries the filter, the filter form carries the compare.
    expect(page.text).toMatch(new RegExp(`<input type="hidden" name="min_${q.age}" value="30">`));
    expect(page.text).toMatch(new RegExp(`<input type="hidden" name="compare" value="${q.floor}">`));
  });

  it('ignores a question that cannot split the results', async () => {
    const web = await signIn(server, owner);
    for (const bad of [q.age, '999999', 'x']) {
      const page = await web.get(`${analyze}?compare=${bad}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('id="compared"');
    }
  });
});
