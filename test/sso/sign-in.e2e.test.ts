// The sign-in page with its single sign-on button in Chromium, and a whole OpenID Connect round
// trip through it: the button, the provider (oidc-provider on a loopback port, its login
// interaction signing the test person in), our callback, and the page the sign-in asked for.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, startServer, type TestServer } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { CLIENT, freePort, type OidcProvider, startOidcProvider } from './providers.js';

let server: TestServer;
let provider: OidcProvider;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${port}/auth/oidc/callback`);
  server = await startServer({
    port,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_NAME: 'Sign in with Example ID',
    },
  });
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await provider?.close();
});

describe('single sign-on in the browser', () => {
  it('signs in through the button and the provider, landing on the page asked for', async () => {
    provider.people.set('kim', {
      email: 'kim@example.com',
      email_verified: true,
      given_name: 'Kim',
      family_name: 'Lee',
    });
    provider.user = 'kim';
    await page.goto(`${server.url}/login?next=%2Faccount`);
    await checkPage(page, 'sso-sign-in');
    await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
    await page.waitForURL(`${server.url}/account`);
    await expect(page.getByRole('heading', { level: 1 }).first().textContent()).resolves.toBeTruthy();
    expect(await page.content()).toContain('kim@example.com');
  });

  it('shows a clear error page for a callback that answers no sign-in', async () => {
    await page.goto(`${server.url}/auth/oidc/callback?state=not-ours&code=x`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /unknown, was already used or took too long/,
    );
    await checkPage(page, 'sso-error');
  });
});
