// The screening in Chromium: a person answering at a person's pace, with and without JavaScript,
// is never flagged (the server's clock moves as a person would take); the review page (checked
// at 1280 and 390 px) releases a flagged response and deletes one, with script and without; the
// collector's bot and duplicate settings on the collect page, without script.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { openEnded, seedSurvey, serverAndBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
const clock = new TestClock('2026-06-01T12:00:00Z');

serverAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { clock, env: { RESPONDENT_MIN_PAGE_MS: '1500' } },
);

async function survey(token: string) {
  return seedSurvey(
    server,
    { token },
    {
      title: 'Town survey',
      pages: [{ questions: { a: openEnded('Your name?') } }, { questions: { b: openEnded('Your town?') } }],
      collector: { type: 'weblink' },
    },
  );
}

/** Answers both pages as a person: reads, types, and the clock moves 4 s before each click. */
async function answerAsPerson(page: Page, url: string, check = false) {
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  // the page checks run axe as script
  if (check) await checkPage(page, 'respondent-page-screened');
  await page.getByLabel('Your name?').fill('Ada');
  clock.advance(4000);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Your town?').fill('Paris');
  clock.advance(4000);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(
    page
      .getByText(/Thank you/)
      .first()
      .textContent(),
  ).resolves.toBeTruthy();
}

describe('screening in the browser', () => {
  it('never flags a person, with or without JavaScript; the review page releases and deletes', async () => {
    const owner = await server.account();
    const s = await survey(owner.token);
    const url = s.collector.url as string;
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await browser.newContext({ javaScriptEnabled });
      await answerAsPerson(await ctx.newPage(), url, javaScriptEnabled);
      await ctx.close();
    }
    const list = async (flagged = false) =>
      (
        await server.client.get(`/v3/surveys/${s.id}/responses${flagged ? '?include_flagged=true' : ''}`, {
          token: owner.token,
        })
      ).body;
    expect((await list(true)).data.map((r: { flagged: boolean }) => r.flagged)).toEqual([false, false]);

    // two bots: the form posted at once after it is shown
    for (let i = 0; i < 2; i++) {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      const bot = await ctx.newPage();
      bot.setDefaultTimeout(10_000);
      await bot.goto(url);
      await bot.getByLabel('Your name?').fill('Bot');
      await bot.getByRole('button', { name: 'Next' }).click();
      await bot.getByLabel('Your town?').fill('Nowhere');
      await bot.getByRole('button', { name: 'Done' }).click();
      await expect(
        bot
          .getByText(/Thank you/)
          .first()
          .textContent(),
      ).resolves.toBeTruthy();
      await ctx.close();
    }
    expect((await list()).total).toBe(2);
    expect((await list(true)).total).toBe(4);

    const { page, jsPage } = await signedInPages(browser, server.url, owner);
    const analyze = `${server.url}${new URL(s.survey.analyze_url as string).pathname}`;
    await jsPage.goto(analyze);
    await jsPage.getByRole('link', { name: 'Flagged responses' }).click();
    await expect(jsPage.getByRole('heading', { name: 'Flagged responses' }).isVisible()).resolves.toBe(true);
    await checkPage(jsPage, 'flagged-responses');
    // with script: release the first
    await jsPage.getByRole('button', { name: 'Release' }).first().click();
    await expect(jsPage.getByRole('status').textContent()).resolves.toContain('now counts');
    expect((await list()).total).toBe(3);
    // without script: delete asks on a page of its own, then deletes
    await page.goto(`${analyze}/flagged`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete response' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('deleted');
    await expect(page.getByText('No flagged responses.').isVisible()).resolves.toBe(true);
    await jsPage.reload();
    await checkPage(jsPage, 'flagged-responses-empty');
    expect((await list(true)).total).toBe(3);
  });

  it('keeps the bot and duplicate settings of a collector from the collect page, without script', async () => {
    const owner = await server.account();
    const s = await survey(owner.token);
    const { page, jsPage } = await signedInPages(browser, server.url, owner);
    const collect = `${server.url}${new URL(s.survey.collect_url as string).pathname}${new URL(s.survey.collect_url as string).search}`;
    await page.goto(collect);
    await page.getByText(/Bots and duplicates of/).click();
    await page.getByLabel('Least time on a page, in seconds').fill('3');
    await page.getByLabel('Responses per internet address').fill('5');
    await page.getByLabel('Duplicates').selectOption('browser');
    await page.getByRole('button', { name: 'Save bot and duplicate settings' }).click();
    await expect(page.getByText('The bot and duplicate settings were saved.').isVisible()).resolves.toBe(
      true,
    );
    const c = await server.client.get(`/v3/collectors/${s.collector.id}`, { token: owner.token });
    expect(c.body.screening).toEqual({
      min_page_seconds: 3,
      max_per_address: 5,
      duplicates: 'browser',
      window_hours: 24,
    });
    await jsPage.goto(collect);
    await jsPage.getByText(/Bots and duplicates of/).click();
    await checkPage(jsPage, 'collect-screening');
  });
});
