// The results filter and trend in a real browser, without JavaScript: the
// owner ticks an answer in "Filter by answer", the URL carries it, the analyze, responses and
// summary pages say how many responses match (and the analyze page compares by a question); every page is checked at 1280 and 390 px (axe,
// no sideways scroll, touch targets) with screenshots. The checks run in the page WITH script (axe
// is script and waits on timers, which never fire where script is off), on the same URL.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { seedOfficeMove } from './fixtures.js';

let server: TestServer;

/** The text of the element with this id, read from the page's HTML. */
async function said(page: Page, selector: string): Promise<string> {
  const html = await page.content();
  const m = new RegExp(`id="${selector.slice(1)}">([\\s\\S]*?)</p>`).exec(html);
  return (m?.[1] ?? '').replace(/<[^>]*>/g, '');
}
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('results filter', () => {
  it('filters by an answer through the form, on the analyze, responses and summary pages', async () => {
    const owner = await server.account();
    const { q, details } = await seedOfficeMove(server, owner, {
      questions: ['floor', 'age', 'comment'],
      responses: 10,
      status: (i) => (i % 4 === 3 ? 'partial' : 'completed'),
      date: (i) => `2026-03-${String(1 + (i % 5) * 2).padStart(2, '0')}T10:00:00+00:00`,
      comment: (i) => (i % 3 === 0 ? 'More coffee' : 'Quiet rooms'),
    });
    const { page, jsPage } = await signedInPages(browser, server.url, owner);
    const analyze = new URL(details.analyze_url).pathname;
    await page.goto(`${server.url}${analyze}`);
    expect(await said(page, '#total')).toContain('10 responses');
    await expect(page.locator('#trend svg.chart.trend').count()).resolves.toBe(1);
    await page.locator('details.by-answer > summary').click();
    await page.getByLabel('Ground floor').check();
    await page.getByLabel('At least').fill('30');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL(/a=/);
    expect(new URL(page.url()).searchParams.getAll('a')).toEqual([`${q.floor}:${q.ground}`]);
    // ground floor (even i) and age ≥ 30 (i ≥ 2): i = 2, 4, 6, 8
    expect(await said(page, '#total')).toContain('4 responses match these filters');
    const check = async (name: string) => {
      await jsPage.goto(page.url());
      await checkPage(jsPage, name);
    };
    await check('analyze-filtered');
    // Compare by a question keeps the filter.
    await page.getByLabel('Compare by', { exact: true }).selectOption({ label: 'Which floor?' });
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.waitForURL(/compare=/);
    expect(new URL(page.url()).searchParams.get(`min_${q.age}`)).toBe('30');
    await expect(page.locator('#compared table').count()).resolves.toBeGreaterThan(1);
    await check('analyze-compared');
    await page.goBack();
    await page.getByRole('link', { name: 'See the matching responses' }).click();
    expect(await said(page, '#response-count')).toContain('4 responses match');
    await check('responses-filtered');
    await page.goto(`${server.url}${new URL(details.summary_url).pathname}${new URL(page.url()).search}`);
    expect(await said(page, '#total')).toContain('4 responses match');
    await check('summary-filtered');
  }, 180_000);
});
