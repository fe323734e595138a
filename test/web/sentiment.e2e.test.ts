// The sentiment of open-ended answers in a real browser: the analyze page shows each open-ended
// question's shares, the owner ticks a sentiment in "Filter by answer" (no script), and the
// responses page, reached from a share's link, lists only those responses and keeps the filter in
// its own form. Each page is checked at 1280 and 390 px (axe, no sideways scroll, touch targets).
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { seedOfficeMove } from './fixtures.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const COMMENTS = [
  'Lovely bright desks, thank you!',
  'The lifts are broken and slow.',
  'I sit by the window.',
];

describe('sentiment of open-ended answers', () => {
  it('shows the shares and filters the analyze and responses pages by sentiment', async () => {
    const owner = await server.account();
    const { q, details } = await seedOfficeMove(server, owner, {
      questions: ['floor', 'comment'],
      responses: 6,
      comment: (i) => COMMENTS[i % 3],
    });
    const { page, jsPage } = await signedInPages(browser, server.url, owner);
    const analyze = new URL(details.analyze_url).pathname;
    await page.goto(`${server.url}${analyze}`);
    const panel = page.locator(`#sentiment-${q.comment}`);
    await expect(panel.getByRole('link', { name: /Negative 33% \(2\)/ }).count()).resolves.toBe(1);
    await jsPage.goto(page.url());
    await checkPage(jsPage, 'analyze-sentiment');
    // the answer filter, without script
    await page.locator('details.by-answer > summary').click();
    await page.locator(`#af${q.comment}`).getByLabel('Negative').check();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL(/sentiment_/);
    expect(new URL(page.url()).searchParams.getAll(`sentiment_${q.comment}`)).toEqual(['negative']);
    await expect(page.locator('#total').textContent()).resolves.toContain('2 responses match these filters');
    // a share's link: the responses with that sentiment
    await page.goto(`${server.url}${analyze}`);
    await page.locator(`#s-${q.comment}-positive`).click();
    await page.waitForURL(/responses\?/);
    await expect(page.locator('#response-count').textContent()).resolves.toContain('2 responses match');
    await expect(page.locator(`#af${q.comment}`).getByLabel('Positive').isChecked()).resolves.toBe(true);
    await jsPage.goto(page.url());
    await checkPage(jsPage, 'responses-sentiment');
  }, 120_000);
});
