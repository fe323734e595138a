// The survey owner's workspace in a real browser: a new owner's empty list, then a few surveys
// searched, sorted, filed in a folder, copied and deleted (through the dialog with script and the
// confirmation page without), and one survey's responses filtered, opened and deleted.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let owner: TestAccount;
let lunch: { id: string; analyze_url: string };

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  owner = await server.account({ plan: 'premier' });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

const titles = (p: Page) => p.locator('table.survey-list a.survey-title').allTextContents();

/** "Team lunch": one page with a choice and a comment, a weblink collector and three responses. */
async function teamLunch(): Promise<void> {
  const t = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Team lunch',
      pages: [
        {
          title: 'Food',
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Where shall we eat?' }],
              answers: { choices: [{ text: 'Pizzeria' }, { text: 'Noodle bar' }] },
            },
            { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Anything else?' }] },
          ],
        },
      ],
    },
    t,
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, t)).body;
  const [choice, essay] = details.pages[0].questions;
  const collector = await server.client.post(
    `/v3/surveys/${created.body.id}/collectors`,
    { type: 'weblink', name: 'Office link' },
    t,
  );
  expect(collector.status).toBe(201);
  for (const [status, pick, comment] of [
    ['completed', 0, 'Vegetarian options please'],
    ['partial', 1, 'Only on Fridays'],
    ['completed', 1, 'Near the office'],
  ] as const) {
    const r = await server.client.post(
      `/v3/collectors/${collector.body.id}/responses`,
      {
        response_status: status,
        pages: [
          {
            id: details.pages[0].id,
            questions: [
              { id: choice.id, answers: [{ choice_id: choice.answers.choices[pick].id }] },
              { id: essay.id, answers: [{ text: comment }] },
            ],
          },
        ],
      },
      t,
    );
    expect(r.status, r.text).toBe(201);
  }
  lunch = { id: created.body.id, analyze_url: new URL(details.analyze_url).pathname };
}

describe('the survey list', () => {
  /** Words of the list's controls and headers split over two lines (a range over each word has two tops). */
  const BROKEN_WORDS = `(() => {
    const out = [];
    for (const el of document.querySelectorAll('table.survey-list :is(button, .button, summary, th, a)')) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('.visually-hidden')) continue;
        for (const m of node.data.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 1);
          const tops = new Set(rects.map((r) => Math.round(r.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  })()`;

  it('greets a new owner with "Create your first survey"', async () => {
    await signInPage(page, server.url, owner, '/');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('heading', { name: 'Create your first survey' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Create your first survey' }).count()).resolves.toBe(1);
    // Folders come once there is something to file.
    await expect(page.getByRole('heading', { name: 'Folders' }).count()).resolves.toBe(0);
    await checkPage(page, 'surveys-list-empty');
  });

  it('searches, sorts, files a survey in a folder, copies one and deletes one with the dialog', async () => {
    await teamLunch();
    for (const title of ['Customer feedback', 'Annual review'])
      expect((await server.client.post('/v3/surveys', { title }, { token: owner.token })).status).toBe(201);
    await page.goto(`${server.url}/`);
    expect(await titles(page)).toEqual(['Annual review', 'Customer feedback', 'Team lunch']);
    const lunchRow = page.locator('tr', { hasText: 'Team lunch' });
    await expect(lunchRow.locator('td[data-label="Responses"]').textContent()).resolves.toBe('3');
    await expect(lunchRow.locator('td[data-label="Collectors"]').textContent()).resolves.toBe('1 open');
    await expect(
      page.locator('tr', { hasText: 'Annual review' }).locator('td[data-label="Collectors"]').textContent(),
    ).resolves.toBe('No collector yet');

    await page.getByLabel('Search titles').fill('LUNCH');
    await Promise.all([page.waitForURL(/q=LUNCH/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await titles(page)).toEqual(['Team lunch']);

    await page.getByLabel('Search titles').fill('');
    await page.getByLabel('Sort by').selectOption({ label: 'Title A–Z' });
    await Promise.all([page.waitForURL(/sort=title/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await titles(page)).toEqual(['Annual review', 'Customer feedback', 'Team lunch']);
    await page.getByLabel('Sort by').selectOption({ label: 'Most responses' });
    await Promise.all([
      page.waitForURL(/sort=responses/),
      page.getByRole('button', { name: 'Show' }).click(),
    ]);
    expect((await titles(page))[0]).toBe('Team lunch');

    await page.getByLabel('New folder').fill('Archive');
    await Promise.all([
      page.waitForURL(/done=folder-created/),
      page.getByRole('button', { name: 'Create folder' }).click(),
    ]);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('folder was created');
    const review = page.locator('tr', { hasText: 'Annual review' });
    await review.locator('summary').click();
    await review.getByLabel('Folder for Annual review').selectOption({ label: 'Archive' });
    await Promise.all([page.waitForURL(/done=moved/), review.getByRole('button', { name: 'Move' }).click()]);
    await page.getByRole('link', { name: /Archive/ }).click();
    await page.waitForURL(/folder=/);
    expect(await titles(page)).toEqual(['Annual review']);
    await expect(page.getByLabel('Rename “Archive”').count()).resolves.toBe(1);

    await page.goto(`${server.url}/`);
    await Promise.all([
      page.waitForURL(/done=copied/),
      page.getByRole('button', { name: 'Copy Team lunch' }).click(),
    ]);
    expect((await titles(page))[0]).toBe('Copy of Team lunch');
    await checkPage(page, 'surveys-list');
    // At 1280 px no word of a button, link or heading of the list breaks across lines ("Response s").
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.evaluate(BROKEN_WORDS)).toEqual([]);

    await page.getByRole('button', { name: 'Delete Copy of Team lunch' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('Copy of Team lunch');
    await expect(dialog.textContent()).resolves.toContain('0 responses');
    await expect(dialog.textContent()).resolves.toContain('1 page and 2 questions');
    await Promise.all([
      page.waitForURL(/done=deleted/),
      dialog.getByRole('button', { name: 'Delete survey' }).click(),
    ]);
    expect(await titles(page)).not.toContain('Copy of Team lunch');
    expect(await titles(page)).toContain('Team lunch');
  });

  it('without script, deleting asks on a confirmation page that names what is lost', async () => {
    // The page checks need script in the page (axe): the same confirmation page, reached by a form
    // whose dialog is taken away, as a browser without script sends it.
    await page.goto(`${server.url}/`);
    await page.evaluate(
      "document.querySelectorAll('form[data-confirm]').forEach((f) => delete f.dataset.confirm)",
    );
    await Promise.all([
      page.waitForURL(/\/surveys\/delete$/),
      page.getByRole('button', { name: 'Delete Team lunch' }).click(),
    ]);
    const text = await page.locator('main').textContent();
    for (const lost of ['Team lunch', '1 page and 2 questions', '3 responses', '1 collector'])
      expect(text).toContain(lost);
    await checkPage(page, 'surveys-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect(await titles(page)).toContain('Team lunch');

    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const plain = await context.newPage();
      plain.setDefaultTimeout(10_000);
      await signInPage(plain, server.url, owner, '/');
      await Promise.all([
        plain.waitForURL(/\/surveys\/delete$/),
        plain.getByRole('button', { name: 'Delete Customer feedback' }).click(),
      ]);
      await expect(plain.locator('main').textContent()).resolves.toContain('Customer feedback');
      await Promise.all([
        plain.waitForURL(/done=deleted/),
        plain.getByRole('button', { name: 'Delete survey' }).click(),
      ]);
      expect((await titles(plain)).sort()).toEqual(['Annual review', 'Team lunch']);
    } finally {
      await context.close();
    }
  });
});

describe('the responses page', () => {
  it('filters, opens and deletes a response', async () => {
    await page.goto(`${server.url}/`);
    await page.locator('tr', { hasText: 'Team lunch' }).getByRole('link', { name: 'Responses' }).click();
    await page.waitForURL(/\/responses$/);
    const rows = page.locator('table.response-list tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    // Newest first.
    await expect(rows.locator('th').allTextContents()).resolves.toEqual([
      'Response #3',
      'Response #2',
      'Response #1',
    ]);
    await checkPage(page, 'responses-list');

    await page.getByRole('checkbox', { name: 'Partial' }).check();
    await Promise.all([
      page.waitForURL(/status=partial/),
      page.getByRole('button', { name: 'Filter' }).click(),
    ]);
    await expect(rows.locator('th').allTextContents()).resolves.toEqual(['Response #2']);

    await page.getByRole('link', { name: 'Response #2' }).click();
    await page.waitForURL(/\/responses\/\d+$/);
    const main = page.locator('main');
    await expect(main.getByRole('heading', { name: 'Where shall we eat?' }).count()).resolves.toBe(1);
    await expect(main.textContent()).resolves.toContain('Noodle bar');
    await expect(main.textContent()).resolves.toContain('Only on Fridays');
    await expect(main.textContent()).resolves.toContain('Office link');
    await checkPage(page, 'response-one');

    await page.getByRole('button', { name: 'Delete this response' }).click();
    await Promise.all([
      page.waitForURL(/done=deleted/),
      page.getByRole('dialog').getByRole('button', { name: 'Delete response' }).click(),
    ]);
    await expect(rows.locator('th').allTextContents()).resolves.toEqual(['Response #3', 'Response #1']);
    const after = (await server.client.get(`/v3/surveys/${lunch.id}`, { token: owner.token })).body;
    expect(after.response_count).toBe(2);
  });
});
