// A real browser for page tests: Playwright driving Debian's Chromium (/usr/bin/chromium).
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type ServerOptions, startServer, type TestServer } from './server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function browserAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<Browser> {
  if (!browserAvailable())
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium)`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Signs `page` in through the real sign-in form, then lands on `next` (or the account page). */
export async function signIn(
  page: Page,
  baseUrl: string,
  account: { user: { username: string }; password: string },
  next?: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Username').fill(account.user.username);
  await page.getByLabel('Password').fill(account.password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/**
 * A page-test file's test server and its one shared browser: started before the file's tests,
 * closed after them, handed to `use` once both are up.
 */
export function serverAndBrowser(
  use: (server: TestServer, browser: Browser) => void,
  options?: ServerOptions,
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
    use(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** Two pages signed in as `account`: one without script (the plain forms) and one with it (the
 * page checks, whose axe runs as script, and drag and drop). */
export async function signedInPages(
  browser: Browser,
  baseUrl: string,
  account: { user: { username: string }; password: string },
): Promise<{ page: Page; jsPage: Page }> {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const jsPage = await (await browser.newContext()).newPage();
  for (const p of [page, jsPage]) {
    p.setDefaultTimeout(10_000);
    await signIn(p, baseUrl, account, '/');
  }
  return { page, jsPage };
}
