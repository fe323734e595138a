// Significance in compare over HTTP: each compare table of the analyze page gives its chi-square
// test and marks each cell with the letters of the groups it is significantly higher than, at the
// confidence the page's query asks for (95% by default), and says when counts are too small.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { seedCanteen } from './significance-seed.js';

let server: TestServer;
let owner: TestAccount;
let seeded: Awaited<ReturnType<typeof seedCanteen>>;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account({ plan: 'premier' });
  seeded = await seedCanteen(server, owner);
});
afterAll(async () => {
  await server?.close();
});

const letters = (text: string, id: string) =>
  new RegExp(`id="${id}"[^>]*>(?:<[^>]*>[^<]*</span>)?([A-Z]*)</span>`).exec(text)?.[1];

describe('significance in compare', () => {
  it('marks the higher groups with their letters at the chosen confidence', async () => {
    const { q, analyze } = seeded;
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?compare=${q.floor}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Ground floor <span class="col-letter">(A)</span>');
    // Tea: 80% of the ground floor against 20% of the top; coffee the other way round.
    expect(letters(page.text, `sig-${q.drink}-${q.tea}-${q.ground}`)).toBe('B');
    expect(letters(page.text, `sig-${q.drink}-${q.coffee}-${q.top}`)).toBe('A');
    expect(page.text).not.toContain(`id="sig-${q.drink}-${q.tea}-${q.top}"`);
    // χ² of [[24, 6], [6, 24]] = 21.6, 1 df
    expect(page.text).toMatch(
      /χ² = 21\.6, 1 degrees of freedom, p = [0-9.e-]+: the answers differ between the groups at 95% confidence/,
    );
    // The snack (20 of 30 against 12 of 30, p ≈ 0.038): marked at 95%, not at 99%.
    expect(letters(page.text, `sig-${q.snack}-${q.yes}-${q.ground}`)).toBe('B');
    const strict = await web.get(`${analyze}?compare=${q.floor}&confidence=99`);
    expect(strict.text).not.toContain(`id="sig-${q.snack}-${q.yes}-${q.ground}"`);
    expect(letters(strict.text, `sig-${q.drink}-${q.tea}-${q.ground}`)).toBe('B');
    expect(strict.text).toContain('<option value="99" selected>99% confidence</option>');
    // The filter form carries the confidence along with the compare.
    expect(strict.text).toContain('<input type="hidden" name="confidence" value="99">');
    const loose = await web.get(`${analyze}?compare=${q.floor}&confidence=90`);
    expect(letters(loose.text, `sig-${q.snack}-${q.yes}-${q.ground}`)).toBe('B');
    // An unknown level is the default.
    expect((await web.get(`${analyze}?compare=${q.floor}&confidence=42`)).text).toContain(
      '<option value="95" selected>',
    );
  });

  it('says when the counts are too small for the tests', async () => {
    const { q, analyze } = seeded;
    const web = await signIn(server, owner);
    // Coffee drinkers only: 6 on the ground floor (no snack), 24 on the top (6 with one).
    const page = await web.get(`${analyze}?compare=${q.floor}&a=${q.drink}:${q.coffee}`);
    expect(page.text).toContain('Too few answers for this test to hold');
    expect(page.text).toMatch(/pairs? of cells (was|were) not compared: too few answers/);
    expect(page.text).not.toContain(`id="sig-${q.snack}-`);
  });
});
