// Shared results in a real browser, at 1280 and 390 px with axe (screenshots in
// test-results/screenshots/): the owner follows "Share results by link" from a filtered analyze
// page, turns the page on with a password, the filter fixed and a last day (in the owner's time
// zone), copies the link; a visitor with no session gives the password and reads the charts, in the
// survey's theme, and sees a new response on reloading.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setTimeZone } from '../../src/domain/accounts/preferences.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let owner: TestAccount;
let page: Page;
let visitor: BrowserContext;
let collector: string;
let details: {
  id: string;
  analyze_url: string;
  pages: Array<{ id: string; questions: Array<{ id: string; answers: any }> }>;
};

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account({ plan: 'premier' });
  await setTimeZone(server.deps, owner.user.id, 'Pacific/Kiritimati');
  const tk = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Team lunch',
      pages: [
        {
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Which day suits you?' }],
              answers: { choices: [{ text: 'Monday' }, { text: 'Wednesday' }, { text: 'Friday' }] },
            },
            {
              family: 'matrix',
              subtype: 'rating',
              headings: [{ heading: 'How was the last lunch?' }],
              answers: {
                rows: [{ text: 'Food' }, { text: 'Place' }],
                choices: [
                  { text: 'Poor', weight: 1 },
                  { text: 'Fair', weight: 2 },
                  { text: 'Good', weight: 3 },
                ],
              },
            },
            { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Anything else?' }] },
          ],
        },
      ],
    },
    tk,
  );
  expect(created.status, created.text).toBe(201);
  details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const [day, rating, text] = details.pages[0].questions;
  collector = (await server.client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink' }, tk)).body
    .id;
  for (let i = 0; i < 6; i++) {
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        response_status: i === 5 ? 'partial' : 'completed',
        pages: [
          {
            id: details.pages[0].id,
            questions: [
              { id: day.id, answers: [{ choice_id: day.answers.choices[i % 3].id }] },
              {
                id: rating.id,
                answers: rating.answers.rows.map((row: { id: string }, j: number) => ({
                  row_id: row.id,
                  choice_id: rating.answers.choices[(i + j) % 3].id,
                })),
              },
              { id: text.id, answers: [{ text: `private note ${i}` }] },
            ],
          },
        ],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
  }
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  await signInPage(page, server.url, owner);
  visitor = await browser.newContext();
});
afterAll(async () => {
  await visitor?.close();
  await releaseBrowser(browser);
  await server?.close();
});

it('the owner shares filtered results with a password; a visitor unlocks and reads them', async () => {
  const analyze = new URL(details.analyze_url).pathname;
  // The survey wears a ready theme, which the public page shows too.
  await page.goto(`${server.url}/create/theme?sm=${analyze.split('/').pop()}`);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Apply Forest' }).click()]);
  await page.goto(`${server.url}${analyze}?status=completed`);
  await page.getByRole('link', { name: 'Share results by link' }).click();
  await page.waitForURL(/\/analyze\/share\?sm=/);
  expect(await page.locator('#share-state').textContent()).toContain('Off.');
  // Written answers are off by default; the analyze page's filter is offered.
  expect(await page.getByLabel(/Anything else\?/).isChecked()).toBe(false);
  expect(await page.getByLabel(/Which day suits you\?/).isChecked()).toBe(true);
  expect(await page.getByLabel(/Fix the current filter: Completeness: Completed/).isChecked()).toBe(true);
  await checkPage(page, 'shared-results-owner-off');

  await page.getByLabel('On: share the results by link').check();
  await page.getByLabel('Password (optional)').fill('lunch time');
  expect(await page.getByText('in your time zone, Pacific/Kiritimati').count()).toBe(1);
  await page.getByLabel('Last day the link works (optional)').fill('2030-06-30');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/done=on/);
  expect(await page.getByRole('status').first().textContent()).toContain('The results page is on');
  expect(await page.locator('#share-state').textContent()).toContain(
    'through 2030-06-30 (Pacific/Kiritimati time: until 2030-07-01 00:00)',
  );
  const link = await page.getByLabel('Link to the results page').inputValue();
  expect(link).toMatch(/\/results\/[A-Za-z0-9_-]{43}$/);
  await checkPage(page, 'shared-results-owner-on');

  const public_ = await visitor.newPage();
  public_.setDefaultTimeout(10_000);
  await public_.goto(link);
  expect(await public_.getByRole('heading', { level: 1 }).textContent()).toBe('Team lunch: results');
  expect(await public_.locator('link[rel="stylesheet"][href^="/r/themes/"]').count()).toBe(1);
  await checkPage(public_, 'shared-results-password');
  await public_.getByLabel('Password').fill('lunch time');
  await public_.getByRole('button', { name: 'See the results' }).click();
  await public_.locator('#total').waitFor();
  // The fixed filter: the five completed responses of six.
  expect(await public_.locator('#total').textContent()).toBe('5 responses');
  expect(await public_.getByText('Completeness: Completed').count()).toBe(1);
  expect(await public_.locator('svg.chart').count()).toBeGreaterThanOrEqual(2);
  expect(await public_.content()).not.toContain('private note');
  // Nothing leads into the owner's workspace.
  expect(await public_.locator('a').count()).toBe(1); // the skip link
  await checkPage(public_, 'shared-results-public');
  // A new completed response shows on the next view.
  const [day] = details.pages[0].questions;
  const added = await server.client.post(
    `/v3/collectors/${collector}/responses`,
    {
      response_status: 'completed',
      pages: [
        {
          id: details.pages[0].id,
          questions: [{ id: day.id, answers: [{ choice_id: day.answers.choices[0].id }] }],
        },
      ],
    },
    { token: owner.token },
  );
  expect(added.status, added.text).toBe(201);
  await public_.reload();
  expect(await public_.locator('#total').textContent()).toBe('6 responses');
});
