// The signed-in sessions section of /account/security in a real browser: the list of the account's
// browsers with the current one marked, signing out another browser (whose next request is signed
// out) and then all the others. Page checks at 1280 and 390 px on the list.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signIn, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function newPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

async function submit(page: Page, button: ReturnType<Page['getByRole']>) {
  await Promise.all([page.waitForNavigation(), button.click()]);
}

describe('signed-in sessions', () => {
  it('lists the browsers, signs out one of them at once, then all the others', async () => {
    const account = await server.account();
    const page = await newPage();
    await signInPage(page, server.url, account, '/');
    // The other browsers sign in over HTTP (the HTTP tests show what an ended session gets).
    const phone = await signIn(server, account, { 'user-agent': SAFARI_IPHONE });
    await signIn(server, account, { 'user-agent': FIREFOX_WINDOWS });

    await page.goto(`${server.url}/account`);
    await submit(
      page,
      page.getByRole('navigation', { name: 'Account pages' }).getByRole('link', { name: 'Security' }),
    );
    expect(new URL(page.url()).pathname).toBe('/account/security');
    const rows = page.getByRole('table', { name: 'Signed-in sessions' }).getByRole('row');
    await expect(rows.count()).resolves.toBe(4); // the head and three sessions
    const current = rows.filter({ hasText: 'This browser' });
    await expect(current.getByRole('strong').textContent()).resolves.toBe('Chrome on Linux');
    await expect(rows.filter({ hasText: 'Safari on iOS' }).count()).resolves.toBe(1);
    await checkPage(page, 'account-security-sessions');

    // Sign out the phone: its next page is the sign-in page.
    await submit(page, rows.filter({ hasText: 'Safari on iOS' }).getByRole('button', { name: /^Sign out/ }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('The session is signed out.');
    await expect(rows.filter({ hasText: 'Safari on iOS' }).count()).resolves.toBe(0);
    expect((await phone.get('/account/security')).status).toBe(303);

    await submit(page, page.getByRole('button', { name: 'Sign out all other sessions' }));
    await expect(page.getByRole('status').textContent()).resolves.toBe('1 other session is signed out.');
    await expect(rows.count()).resolves.toBe(2);
    await expect(page.getByText('No other browser is signed in.').count()).resolves.toBe(1);
  });
});
