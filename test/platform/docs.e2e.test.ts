import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { serverAndBrowser } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

it('renders the interactive API reference from /v3/openapi.json', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/docs`);
  await page.getByText('/v3/users/me').first().waitFor({ timeout: 15_000 });
  expect(await page.title()).toMatch(/Swagger|API/i);
  await page.close();
});

it('renders the error catalogue with an anchor per code', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/docs/errors#1040`);
  expect(await page.locator('h1').textContent()).toBe('Error codes');
  const row = page.locator('tr[id="1040"]');
  expect(await row.textContent()).toContain('Rate Limit Reached');
  expect(await page.locator('tbody tr').count()).toBe(34);
  await page.close();
});
