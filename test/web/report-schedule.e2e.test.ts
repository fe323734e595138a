// The scheduled summary page in a real browser without script: the owner follows the link from the
// analyze page, picks a monthly summary on the 1st at 08:00 in a time zone, saves, and sees when the
// next one goes; the page passes the checks at 1280 and 390 px.
import { describe, expect, it } from 'vitest';
import { seedSurvey } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { type OwnerInBrowser, ownerInBrowser } from './fixtures.js';

let t: OwnerInBrowser;
ownerInBrowser((f) => {
  t = f;
});

describe('scheduled summary page', () => {
  it('sets a monthly summary through the form', async () => {
    const s = await seedSurvey(t.server, t.owner, { kind: 'simple' });
    const { page, jsPage } = t;
    await page.goto(`${t.server.url}${new URL(s.details.analyze_url).pathname}`);
    await page.getByRole('link', { name: 'Scheduled summary' }).click();
    await page.getByLabel('Every month').check();
    await page.getByLabel('Day of the month (monthly)').selectOption('1');
    await page.getByLabel('Time', { exact: true }).selectOption('8');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Save summary' }).click();
    await page.waitForURL(/done=1/);
    await expect(page.locator('#next-summary').textContent()).resolves.toMatch(
      /Next summary: \d{4}-\d{2}-01 08:00 \(Europe\/Berlin\)/,
    );
    await jsPage.goto(page.url());
    await checkPage(jsPage, 'report-schedule');
  }, 120_000);
});
