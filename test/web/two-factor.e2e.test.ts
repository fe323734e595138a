// Two-factor sign-in in Chromium: an authenticator app enrolled on /account/security from the
// address the page shows, then a passkey registered and used to sign in through Chromium's
// virtual authenticator (CDP WebAuthn). The pages are on http://localhost (PUBLIC_URL's host, the
// passkeys' relying party). The security page and the second-factor prompt pass the page checks.
import { URI } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, type TestAccount } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let base: string;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer();
  base = server.url.replace('127.0.0.1', 'localhost');
  account = await server.account();
  browser = await sharedBrowser();
  page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function submit(button: string) {
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
}

async function signInWithPassword() {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(account.user.username);
  await page.getByLabel('Password').fill(account.password);
  await submit('Sign in');
}

describe('two-factor sign-in in the browser', () => {
  it('enrols an authenticator app from the address on the security page', async () => {
    await signInWithPassword();
    await page.goto(`${base}/account`);
    await Promise.all([
      page.waitForURL(/\/account\/security$/),
      page.getByRole('link', { name: 'Security' }).click(),
    ]);
    await submit('Set up an authenticator app');
    const uri = await page.locator('#totp-uri').textContent();
    const totp = URI.parse(uri!);
    await expect(page.getByRole('img', { name: /QR code/ }).isVisible()).resolves.toBe(true);
    await checkPage(page, 'two-factor-security-setup');
    await page.getByLabel('Code from the app').fill(totp.generate());
    await submit('Turn on');
    expect(await page.locator('.recovery-codes li').count()).toBe(10);
    await expect(page.locator('#two-factor-state').textContent()).resolves.toBe('on');
    await checkPage(page, 'two-factor-recovery-codes');
  });

  it('registers a passkey and signs in with it', async () => {
    await page.goto(`${base}/account/security`);
    await expect(page.getByText('Adding a passkey needs JavaScript.').isVisible()).resolves.toBe(false);
    await page.getByLabel('Name of the passkey').fill('Test laptop');
    await submit('Add a passkey');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Your passkey is added.');
    await expect(page.locator('.passkeys').textContent()).resolves.toContain('Test laptop');

    await submit('Sign out');
    await signInWithPassword();
    expect(new URL(page.url()).pathname).toBe('/login/two-factor');
    await checkPage(page, 'two-factor-prompt');
    await submit('Use a passkey');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`${base}/account/security`);
    await expect(page.locator('.passkeys').textContent()).resolves.toMatch(/last used/);
  });
});
