// The shell every page shares: the one stylesheet and script under /assets (and nothing else of
// node_modules), the workspace header of signed-in pages, and the page checks of test/helpers/pages.ts
// (axe, no sideways scroll at 390 px, touch targets) on the pages of the shell itself.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  owner = await server.account();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

describe('assets', () => {
  it('serves the stylesheet, the script and the two vendor libraries, and nothing else', async () => {
    for (const [path, type] of [
      ['/assets/app.css', 'text/css'],
      ['/assets/app.js', 'application/javascript'],
      ['/assets/vendor/htmx/htmx.min.js', 'application/javascript'],
      ['/assets/vendor/sortable/Sortable.min.js', 'application/javascript'],
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
    }
    for (const path of [
      '/assets/vendor/htmx/htmx.js',
      '/assets/vendor/sortable/package.json',
      '/assets/vendor/sortable/../../package.json',
      '/assets/../package.json',
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
    }
  });
});

describe('the workspace header', () => {
  it('offers Surveys, Contacts, Team, Account and Integrations, Developer to app owners, Operator to operators, and Sign out', async () => {
    await signInPage(page, server.url, owner, '/account');
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual([
      'Surveys',
      'Contacts',
      'Team',
      'Account',
      'Integrations',
      'Developer',
    ]);
    await expect(nav.getByRole('link', { name: 'Account' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
    await checkPage(page, 'shell-account');

    await setOperator(server.deps, owner.user.id, true);
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Operator' }).count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/logout$/);
    await expect(page.getByRole('navigation', { name: 'Workspace' }).count()).resolves.toBe(0);
  });

  it('is the public header when signed out, and the sign-in page passes the page checks', async () => {
    await page.goto(`${server.url}/login`);
    await expect(
      page.getByRole('navigation', { name: 'Site' }).getByRole('link').allTextContents(),
    ).resolves.toEqual(['Sign in', 'API docs']);
    await checkPage(page, 'shell-sign-in');
  });
});
