// The import page in a real browser, against a second server as the source (one survey with a few
// responses, a folder, contacts, and an email collector whose messages are not copied): reached
// from the empty survey list, a refused source, a dry run, a start that pauses at a small budget,
// a restart with a larger one that runs to the end on its own (the page refreshes itself, no
// script), the final report naming what was not copied, the token kept out of the database, and
// another account kept out of the import.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let source: TestServer;
let dest: TestServer;
let browser: Browser;
let page: Page;
let srcToken: string;
let jobUrl: string;

async function ok(res: Promise<{ status: number; text: string; body: any }>) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
  return r.body;
}

beforeAll(async () => {
  source = await startServer();
  const a = await source.account();
  srcToken = a.token;
  const o = { token: srcToken };
  const c = source.client;
  const folder = await ok(c.post('/v3/survey_folders', { title: 'Research' }, o));
  const survey = await ok(
    c.post(
      '/v3/surveys',
      {
        title: 'Team lunch',
        folder_id: folder.id,
        pages: [
          {
            title: 'Food',
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Pizza or pasta?' }],
                answers: { choices: [{ text: 'Pizza' }, { text: 'Pasta' }] },
              },
            ],
          },
        ],
      },
      o,
    ),
  );
  const details = await ok(c.get(`/v3/surveys/${survey.id}/details`, o));
  const question = details.pages[0].questions[0];
  const link = await ok(c.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink', name: 'Link' }, o));
  await ok(c.post(`/v3/surveys/${survey.id}/collectors`, { type: 'email', name: 'Invitations' }, o));
  for (let n = 0; n < 5; n++)
    await ok(
      c.post(
        `/v3/collectors/${link.id}/responses`,
        {
          custom_value: `r${n}`,
          pages: [
            {
              id: details.pages[0].id,
              questions: [{ id: question.id, answers: [{ choice_id: question.answers.choices[n % 2].id }] }],
            },
          ],
        },
        o,
      ),
    );
  for (let n = 0; n < 3; n++)
    await ok(c.post('/v3/contacts', { email: `guest${n}@example.com`, first_name: `G${n}` }, o));

  dest = await startServer({ env: { IMPORT_PAGE_SOURCES: `https://api.surveymonkey.com,${source.url}` } });
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await dest?.close();
  await source?.close();
});

async function submit(button: string) {
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button }).click()]);
}

describe('the import page', () => {
  it('starts from the empty survey list; refuses a source not allowed; a dry run counts', async () => {
    const owner = await dest.account();
    await signInPage(page, dest.url, owner, '/');
    await page.getByRole('link', { name: 'Import your surveys, responses and contacts' }).click();
    await page.waitForURL(/\/import$/);
    await checkPage(page, 'import-start');

    await page.getByLabel('Source API address').fill('http://127.0.0.1:9/');
    await page.getByLabel('Access token of the account to copy').fill(srcToken);
    await submit('Start the import');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('imports from');
    expect(await page.getByLabel('Access token of the account to copy').inputValue()).toBe('');

    await page.getByLabel('Source API address').fill(source.url);
    await page.getByLabel('Access token of the account to copy').fill('not-a-token');
    await submit('Start the import');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('refused the token');

    await page.getByLabel('Access token of the account to copy').fill(srcToken);
    await page.getByLabel('Requests a day').fill('3');
    await submit('Dry run: count only');
    const plan = (await page.locator('.import-plan').textContent()) ?? '';
    expect(plan).toContain('1 survey with 5 responses');
    expect(plan).toContain('3 contacts');
    expect(plan).toMatch(/About \d+ requests to the source: \d+ days at 3 a day/);
    await checkPage(page, 'import-dry-run');
    // Nothing was started.
    expect(await page.locator('.import-list').count()).toBe(0);
  });

  it('pauses at the budget, goes on with a larger one by itself, and reports what was left out', async () => {
    await page.getByLabel('Source API address').fill(source.url);
    await page.getByLabel('Access token of the account to copy').fill(srcToken);
    await page.getByLabel('Requests a day').fill('4');
    await submit('Start the import');
    await page.waitForURL(/\/import\/\d+$/);
    jobUrl = page.url();
    await page.getByText('Paused: the day’s budget is spent').waitFor();
    expect(await page.locator('.import-progress').textContent()).toMatch(/Requests today\s*4 of 4/);
    await checkPage(page, 'import-paused');

    // Started again with a larger budget: the waiting run gives way to a new one.
    await page.goto(`${dest.url}/import`);
    await page.getByLabel('Source API address').fill(source.url);
    await page.getByLabel('Access token of the account to copy').fill(srcToken);
    await page.getByLabel('Requests a day').fill('1000');
    await submit('Start the import');
    expect(page.url()).toBe(jobUrl);
    // The page reloads itself (Refresh header) until the import is done.
    await page.getByText('The import is complete').waitFor({ timeout: 60_000 });
    const progress = (await page.locator('.import-progress').textContent()) ?? '';
    expect(progress).toContain('Responses copied: 5 of 5');
    expect(await page.locator('progress').getAttribute('value')).toBe('5');
    const skipped = (await page.locator('.import-skipped').textContent()) ?? '';
    expect(skipped).toContain('Team lunch / Invitations');
    expect(skipped).toContain('messages and recipients are not copied');
    await checkPage(page, 'import-done');

    // The copy is there.
    await page.goto(`${dest.url}/`);
    await page.getByRole('link', { name: 'Team lunch' }).first().waitFor();
  }, 120_000);

  it('never stores the token', async () => {
    const k = dest.deps.db.kysely;
    const rows = [
      ...(await k.selectFrom('import_jobs').selectAll().execute()),
      ...(await k.selectFrom('import_ids').selectAll().execute()),
    ];
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(srcToken);
  });

  it('a finished import is run again from its page with the token given again', async () => {
    await page.goto(jobUrl);
    await page.getByLabel('Access token of the account to copy').fill(srcToken);
    await submit('Run the import again');
    await page.getByText('The import is complete').waitFor({ timeout: 60_000 });
    expect(await page.locator('.import-progress').textContent()).toContain('Responses copied: 5 of 5');
  }, 120_000);

  it('another account sees neither the import nor its page', async () => {
    const other = await browser.newPage();
    try {
      await signInPage(other, dest.url, await dest.account(), '/import');
      expect(await other.locator('.import-list').count()).toBe(0);
      const res = await other.goto(jobUrl);
      expect(res?.status()).toBe(404);
    } finally {
      await other.close();
    }
  });
});
