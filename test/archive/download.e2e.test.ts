// "Download everything" on /account: the button downloads the account's archive in Chromium (a zip
// whose manifest counts the account's surveys and responses); checked at 1280 and 390 px with axe.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { releaseBrowser, seedSurvey, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { entries } from './helpers.js';

let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

it('downloads the whole account as a zip from the account page', async () => {
  const owner = await server.account();
  const s = await seedSurvey(server, owner, { kind: 'simple', collector: 'weblink' });
  const answer = await server.client.post(
    `/v3/collectors/${s.collector.id}/responses`,
    { pages: [{ id: s.pages[0], questions: [] }] },
    { token: owner.token },
  );
  expect(answer.status, answer.text).toBe(201);
  await signInPage(page, server.url, owner, '/account');
  await page.goto(`${server.url}/account`);
  await checkPage(page, 'account-archive');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download everything' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^survey-service-${owner.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
  );
  const path = join(mkdtempSync(join(tmpdir(), 'archive-download-')), 'account.zip');
  await download.saveAs(path);
  const files = await entries(path);
  const manifest = JSON.parse(files.find((f) => f.name === 'manifest.json')!.data.toString());
  expect(manifest.counts).toMatchObject({ surveys: 1, responses: 1 });
  expect(files.map((f) => f.name)).toContain('surveys/1/survey.json');
  expect(readFileSync(path).subarray(0, 2).toString()).toBe('PK');
}, 60_000);
