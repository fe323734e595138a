// The analyze page's report links in a real browser at 1280 and 390 px (axe clean): the median time
// to complete is shown, and the PDF link downloads the report of the page as it stands.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { downloaded, serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { seedOfficeMove } from '../web/fixtures.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('analyze page report links', () => {
  it('shows the median time and downloads the filtered PDF report', async () => {
    const owner = await server.account();
    const seeded = await seedOfficeMove(server, owner, { questions: ['floor', 'drink'], responses: 4 });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    try {
      await signInPage(page, server.url, owner, `${seeded.analyze}?a=${seeded.q.drink}:${seeded.q.tea}`);
      await expect.poll(() => page.locator('#median-time').textContent()).toMatch(/Median time to complete/);
      await checkPage(page, 'analyze-report-links');
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('#report-pdf')]);
      expect(file.suggestedFilename()).toBe('Office_move_report.pdf');
      const pdf = await downloaded(file);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const [deck] = await Promise.all([page.waitForEvent('download'), page.click('#report-pptx')]);
      expect(deck.suggestedFilename()).toBe('Office_move_report.pptx');
    } finally {
      await context.close();
    }
  });
});
