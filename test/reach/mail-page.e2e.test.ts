// The local mail outbox page in a real browser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueEmail } from '../../src/db/outbox-queue.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { releaseBrowser, sharedBrowser } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ss-mail-page-'));
  server = await startServer({ env: { MAIL_DIR: dir } });
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lists sent mail and opens one, with the HTML body in a sandboxed frame', async () => {
  const deps = server.deps;
  const id = await deps.ids.one();
  await deps.db.kysely.transaction().execute((trx) =>
    queueEmail(deps, trx, {
      id,
      ownerId: null,
      to: 'fay@example.org',
      subject: 'Your survey invitation',
      text: 'Open http://localhost/r/xyz to answer.',
      html: '<p id="inner">Open the <a href="http://localhost/r/xyz">survey</a></p><script>parent.document.title = "pwned"</script>',
    }),
  );
  const worker = new OutboxWorker(deps);
  await worker.drain();
  await worker.stop();

  const page = await browser.newPage();
  await page.goto(`${server.url}/outbox/mail`);
  expect(await page.locator('h1').textContent()).toBe('Mail outbox');
  const link = page.getByRole('link', { name: 'Your survey invitation' });
  expect(await page.locator('tbody tr').first().textContent()).toContain('fay@example.org');
  await link.focus();
  // A visible focus outline on keyboard focus.
  const outline = await link.evaluate('(el) => getComputedStyle(el).outlineStyle');
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/outbox/mail/${id}`);
  expect(await page.locator('h1').textContent()).toBe('Your survey invitation');
  expect(await page.locator('pre').textContent()).toContain('http://localhost/r/xyz');
  const frame = page.frameLocator('iframe[title="HTML body of the email"]');
  expect(await frame.locator('#inner').textContent()).toBe('Open the survey');
  // The sandbox keeps the email's script from running.
  expect(await page.title()).not.toBe('pwned');
  expect(await page.getByRole('link', { name: 'Download the .eml file' }).getAttribute('href')).toBe(
    `/outbox/mail/${id}/raw`,
  );
  await page.close();
});
