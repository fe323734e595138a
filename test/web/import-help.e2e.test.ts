// Moving in: the import page explains how to get a SurveyMonkey token (a draft app and the scopes
// the importer needs, listed from the endpoints it reads), keeps the token in the form across a dry
// run (in that one answer only, never stored), and says how many days the copy takes, at the chosen
// budget and at a draft app's 500 requests a day. Checked at 1280 and 390 px with axe.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let source: TestServer;
let dest: TestServer;
let browser: Browser;
let page: Page;
let srcToken: string;

beforeAll(async () => {
  source = await startServer();
  srcToken = (await source.account()).token;
  const s = await source.client.post(
    '/v3/surveys',
    {
      title: 'Moving',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] }] }],
    },
    { token: srcToken },
  );
  expect(s.status).toBe(201);
  dest = await startServer({ env: { IMPORT_PAGE_SOURCES: source.url } });
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await dest?.close();
  await source?.close();
});

it('explains the token and its scopes, keeps it across a dry run and says the days to finish', async () => {
  const owner = await dest.account();
  await signInPage(page, dest.url, owner, '/import');
  await page.goto(`${dest.url}/import`);
  await page.getByText('How to get a SurveyMonkey access token').click();
  const help = (await page.locator('#token-help').textContent()) ?? '';
  for (const scope of [
    'users_read',
    'surveys_read',
    'collectors_read',
    'responses_read',
    'responses_read_detail',
    'contacts_read',
  ])
    expect(help).toContain(`(${scope})`);
  expect(help).toContain('500 requests a day and 120 a minute');
  expect(help).toContain('/surveys/{id}/responses/bulk');
  await checkPage(page, 'import-help');

  await page.getByLabel('Source API address').fill(source.url);
  await page.getByLabel('Access token of the account to copy').fill(srcToken);
  await page.getByLabel('Requests a day').fill('2');
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: 'Dry run: count only' }).click(),
  ]);
  const days = (await page.locator('#plan-days').textContent()) ?? '';
  const [, requests, atBudget] =
    days.match(/About (\d+) requests? to the source: (\d+) days? at 2 a day/) ?? [];
  expect(Number(atBudget)).toBe(Math.ceil(Number(requests) / 2));
  expect(days).toContain(
    `(${Math.ceil(Number(requests) / 500)} day at the 500 a day of a SurveyMonkey draft app)`,
  );
  expect(await page.getByLabel('Access token of the account to copy').inputValue()).toBe(srcToken);
  await checkPage(page, 'import-dry-run-kept-token');
  // a fresh page does not have it
  await page.goto(`${dest.url}/import`);
  expect(await page.getByLabel('Access token of the account to copy').inputValue()).toBe('');
  expect(await dest.deps.db.kysely.selectFrom('import_jobs').selectAll().execute()).toEqual([]);
}, 120_000);
