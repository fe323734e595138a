// The import page's file upload in a real browser: a refused file (truncated, then over the
// server's IMPORT_FILE_MAX_MB) says why and starts nothing; a dry run of a LimeSurvey archive lists
// what would not come over; an import runs to the end on the same run page as SurveyMonkey's,
// with its report; the survey is there with every response.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, signInPage, type TestAccount } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DIR = resolve('test/import/files/limesurvey');
let server: TestServer;
let browser: Browser;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer({ env: { IMPORT_FILE_MAX_MB: '1' } });
  owner = await server.account();
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function upload(file: string, button: string) {
  await page.getByLabel('Exported by').selectOption('limesurvey');
  await page.getByLabel('Survey file').setInputFiles(file);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button }).click()]);
}

const jobs = async () =>
  Number(
    (
      await server.deps.db.kysely
        .selectFrom('import_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the import page: a survey file from another tool', () => {
  it('refuses a broken file and one over the limit, saying why; a dry run lists what stays behind', async () => {
    await signInPage(page, server.url, owner, '/import');
    await checkPage(page, 'import-files-start');

    await upload(join(DIR, 'bad/truncated.lss'), 'Import the survey');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not well-formed XML.*truncated/);
    const big = join(tmpdir(), `import-page-big-${process.pid}.lss`);
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 10, 0x20));
    await upload(big, 'Import the survey');
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'larger than 1 MB, the most this server takes',
    );
    await checkPage(page, 'import-files-refused');
    expect(await jobs()).toBe(0);

    await upload(join(DIR, 'survey-6x.lsa'), 'Dry run: list only');
    const plan = (await page.locator('#file-plan-heading + p').textContent()) ?? '';
    expect(plan).toContain(
      '“Moving in from LimeSurvey” from LimeSurvey: 3 pages, 32 questions and 12 responses',
    );
    const left = (await page.locator('.import-files .import-skipped').textContent()) ?? '';
    expect(left).toContain('Moving in from LimeSurvey / Q28');
    expect(left).toContain('the participants (tokens) table is not carried over');
    await checkPage(page, 'import-files-dry-run');
    expect(await jobs()).toBe(0);
  });

  it('imports the archive on the run page, to the end, with its report', async () => {
    await upload(join(DIR, 'survey-6x.lsa'), 'Import the survey');
    await page.waitForURL(/\/import\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Import from a LimeSurvey file',
    );
    for (let i = 0; i < 50 && !(await page.getByText('The import is complete.').count()); i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    expect(await page.locator('.import-progress').textContent()).toContain('Responses copied: 12 of 12');
    expect(await page.locator('.import-progress').textContent()).not.toContain('Requests today');
    const report = (await page.locator('.import-skipped').textContent()) ?? '';
    expect(report).toContain('Moving in from LimeSurvey / Q14');
    expect(report).toContain('a comment on a chosen option');
    await checkPage(page, 'import-files-done');

    const list = await server.client.get('/v3/surveys?include=response_count', { token: owner.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({ title: 'Moving in from LimeSurvey', response_count: 12 }),
    ]);
    await page.goto(`${server.url}/import`);
    expect(await page.locator('.import-list').textContent()).toContain('a LimeSurvey file');
  });
});
