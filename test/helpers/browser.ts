// A real browser for page tests: Playwright driving Debian's Chromium (its headless shell where
// installed, else /usr/bin/chromium: browser-setup.ts). One
// Chromium serves the whole run (started by browser-setup.ts, vitest's globalSetup); each worker
// connects to it once, and each test file works in browser contexts of its own, which it closes
// when it ends (`releaseBrowser`), so files share no cookies, storage or pages.
import { type Browser, chromium, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { type ServerOptions, startServer, type TestServer } from './server.js';

let connected: Promise<Browser> | undefined;

/**
 * The run's one Chromium, connected once per worker (the connection outlives a file when vitest
 * runs files without isolation). Open pages in contexts of the file's own (`browser.newContext()`,
 * `browser.newPage()`) and close them with `releaseBrowser`, never `browser.close()`.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!connected) {
    const connecting = connect();
    connected = connecting;
    const forget = () => {
      if (connected === connecting) connected = undefined;
    };
    connecting.then((b) => b.on('disconnected', forget), forget);
  }
  return connected;
}

async function connect(): Promise<Browser> {
  const launcher = inject('browserLauncher');
  if (!launcher)
    throw new Error(
      'no shared browser: vitest.config.ts must list test/helpers/browser-setup.ts in globalSetup',
    );
  const res = await fetch(launcher);
  const answer = await res.text();
  if (!res.ok) throw new Error(`the shared browser did not start: ${answer}`);
  return chromium.connect(answer);
}

/** Closes every context (and so every page) this file opened in the shared browser. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((c) => c.close()));
}

/** A download's bytes (its `path()` is on the shared browser's side, out of a test's reach). */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Who signs in: a test account (`server.account()`), or any username and password. */
export interface SignInAccount {
  user: { username: string };
  password: string;
}

/** Signs `page` in through the real sign-in form, then lands on `next` (or the account page). */
export async function signInPage(
  page: Page,
  baseUrl: string,
  account: SignInAccount,
  next?: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await submitSignIn(page, account);
}

/** Fills in the sign-in form already open in `page` and waits for the page it leads to. */
export async function submitSignIn(page: Page, account: SignInAccount): Promise<void> {
  await page.getByLabel('Username').fill(account.user.username);
  await page.getByLabel('Password').fill(account.password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/**
 * A page-test file's test server and the shared browser: the server started before the file's
 * tests and closed after them (with the contexts the file opened), both handed to `use` once up.
 */
export function serverAndBrowser(
  use: (server: TestServer, browser: Browser) => void,
  options?: ServerOptions,
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await sharedBrowser();
    use(server, browser);
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.close();
  });
}

/** Two pages signed in as `account`: one without script (the plain forms) and one with it (the
 * page checks, whose axe runs as script, and drag and drop). */
export async function signedInPages(
  browser: Browser,
  baseUrl: string,
  account: SignInAccount,
): Promise<{ page: Page; jsPage: Page }> {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const jsPage = await (await browser.newContext()).newPage();
  for (const p of [page, jsPage]) {
    p.setDefaultTimeout(10_000);
    await signInPage(p, baseUrl, account, '/');
  }
  return { page, jsPage };
}
