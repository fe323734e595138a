// The operator's accounts page and the account page's plan in a browser, at 1280 and 390 px (axe,
// touch targets, no sideways scroll; screenshots in test-results/screenshots/): an operator finds
// an account and changes its plan with the page's own form.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let op: TestAccount;
let target: TestAccount;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  op = await server.account({ plan: 'enterprise', username: `operator_${process.pid}` });
  await setOperator(server.deps, op.user.id, true);
  target = await server.account({ plan: 'basic', username: `moving_team_${process.pid}` });
  for (let i = 0; i < 3; i++) await server.account();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

it('lists, searches and changes an account; the account page says what the plan allows', async () => {
  await signInPage(page, server.url, op, '/operator/accounts');
  await page.goto(`${server.url}/operator/accounts`);
  await checkPage(page, 'operator-accounts');
  await page.getByLabel('Username or email contains').fill('moving_team');
  await page.getByRole('button', { name: 'Search' }).click();
  const card = page.locator(`#account-${target.user.id}`);
  expect(await card.getByRole('heading').textContent()).toContain(target.user.username);
  await card.getByLabel('Plan').selectOption('premier');
  await card.getByRole('button', { name: `Save ${target.user.username}` }).click();
  await page.waitForURL(/done=/);
  expect(await page.getByRole('status').textContent()).toBe('Saved: plan premier.');
  expect(page.url()).toContain('q=moving_team');
  await checkPage(page, 'operator-accounts-saved');
  await page.goto(`${server.url}/account`);
  expect(await page.locator('#plan-limits').textContent()).toContain('Every response can be read');
  await checkPage(page, 'account-plan');
});
