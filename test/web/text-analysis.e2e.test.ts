// Open-ended text on the analyze page in a real browser, without JavaScript: the
// owner follows a word of the word list to the responses using it, and searches the answers with
// the panel's search box; the analyze page is checked at 1280 and 390 px (axe, no sideways scroll,
// touch targets) with screenshots, in the page with script on the same URL.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const COMMENTS = [
  'Quiet rooms and good coffee',
  'More coffee, please',
  'The coffee machine is broken',
  'Quiet rooms for calls',
  'Better chairs',
];

describe('open-ended text', () => {
  it('lists the words, links a word to its responses, and searches the answers', async () => {
    const owner = await server.account();
    const tk = { token: owner.token };
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Office feedback',
        pages: [
          {
            questions: [
              { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'What would you change?' }] },
            ],
          },
        ],
      },
      tk,
    );
    expect(created.status, created.text).toBe(201);
    const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
    const [comment] = details.pages[0].questions;
    const collector = (
      await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
    ).body.id;
    for (const text of COMMENTS) {
      const r = await server.client.post(
        `/v3/collectors/${collector}/responses`,
        {
          response_status: 'completed',
          pages: [{ id: details.pages[0].id, questions: [{ id: comment.id, answers: [{ text }] }] }],
        },
        tk,
      );
      expect(r.status, r.text).toBe(201);
    }
    const { page, jsPage } = await signedInPages(browser, server.url, owner);
    const analyze = `${server.url}${new URL(details.analyze_url).pathname}`;
    await page.goto(analyze);
    const words = page.locator(`#words-${comment.id} ol.word-list a`);
    // coffee (3), then quiet and rooms (2 each), then once each, alphabetically
    expect((await words.allTextContents()).slice(0, 3).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'coffee 3 times, in 3 responses',
      'quiet 2 times, in 2 responses',
      'rooms 2 times, in 2 responses',
    ]);
    await jsPage.goto(analyze);
    await checkPage(jsPage, 'analyze-words');
    await page.locator(`#words-${comment.id} a[data-word="quiet"]`).click();
    await page.waitForURL(/responses/);
    expect(new URL(page.url()).searchParams.get(`has_${comment.id}`)).toBe('quiet');
    await expect(page.getByRole('row').filter({ hasText: 'Response #' }).count()).resolves.toBe(2);
    await page.goto(analyze);
    await page.getByLabel('Find responses whose answer contains').fill('chair');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/responses/);
    await expect(page.getByRole('row').filter({ hasText: 'Response #' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Response #5' }).count()).resolves.toBe(1);
  }, 180_000);
});
