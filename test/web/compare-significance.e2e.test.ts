// Significance in compare in a real browser: the owner compares by a question, sees each group's
// letter and the letters of the groups a cell is significantly higher than, switches the level to
// 99% with the form (kept in the URL), and the page passes the checks at 1280 and 390 px.
import { describe, expect, it } from 'vitest';
import { checkPage } from '../helpers/pages.js';
import type { OwnerInBrowser } from './fixtures.js';
import { ownerInBrowser } from './fixtures.js';
import { seedCanteen } from './significance-seed.js';

let t: OwnerInBrowser;
ownerInBrowser((f) => {
  t = f;
});

describe('significance in compare (browser)', () => {
  it('shows the letters and changes the level through the form', async () => {
    const { q, analyze } = await seedCanteen(t.server, t.owner);
    const { page, jsPage } = t;
    await page.goto(`${t.server.url}${analyze}`);
    await page.getByLabel('Compare by', { exact: true }).selectOption({ label: 'Which floor?' });
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.waitForURL(/compare=/);
    expect(await page.locator(`#sig-${q.drink}-${q.tea}-${q.ground}`).innerText()).toContain('B');
    expect(await page.locator(`#sig-${q.snack}-${q.yes}-${q.ground}`).count()).toBe(1);
    await jsPage.goto(page.url());
    await checkPage(jsPage, 'compare-significance');
    await page.getByLabel('Significance').selectOption('99');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.waitForURL(/confidence=99/);
    expect(await page.locator(`#sig-${q.snack}-${q.yes}-${q.ground}`).count()).toBe(0);
    expect(await page.locator(`#sig-${q.drink}-${q.tea}-${q.ground}`).count()).toBe(1);
    await expect(page.locator('#compared').innerText()).resolves.toContain('at 99% confidence');
  }, 120_000);
});
