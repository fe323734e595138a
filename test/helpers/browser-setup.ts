// Vitest's globalSetup: one Chromium for the whole run, shared by the page tests of every worker.
// It starts only when the first page test asks for it (a run without page tests, such as the unit
// tier, never starts it): the setup listens on a loopback port whose address it `provide`s as
// `browserLauncher`; a GET there launches Chromium as a Playwright browser server once and answers
// its WebSocket endpoint, which `sharedBrowser()` (browser.ts) connects to. The teardown closes it.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserServer, chromium, type LaunchOptions } from 'playwright-core';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** GET it for the shared Chromium's WebSocket endpoint (test/helpers/browser-setup.ts). */
    browserLauncher: string;
  }
}

/** Debian's headless shell (package chromium-headless-shell: the same Blink without the browser's
 * own UI, as Playwright runs headless) where installed: a round trip to a page took 3 ms there and
 * 10 to 40 ms in the full browser, which made the page tests three times slower; else the browser. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export function browserAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** How every page test's Chromium starts: headless, no sandbox, nothing talking to the network. */
export function launchOptions(): LaunchOptions {
  if (!browserAvailable())
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium-headless-shell package (apt-get install chromium-headless-shell)`,
    );
  return {
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
  };
}

/** Chromium features off on top of Playwright's own list. RenderDocument (a new frame host for
 * every navigation) cost 30 of the 77 ms of Chromium's CPU a page load took in the headless shell. */
const DISABLED_FEATURES = ['RenderDocument'];

async function launchBrowserServer(): Promise<BrowserServer> {
  const options = { ...launchOptions(), host: '127.0.0.1' };
  // Playwright passes its own --disable-features, and Chromium keeps the last of a repeated switch:
  // a first launch shows Playwright's list, which the second extends with ours.
  const first = await chromium.launchServer(options);
  const theirs = first.process().spawnargs.find((a) => a.startsWith('--disable-features='));
  await first.close();
  const features = [theirs?.slice('--disable-features='.length), ...DISABLED_FEATURES].filter(Boolean);
  return chromium.launchServer({
    ...options,
    ignoreDefaultArgs: theirs ? [theirs] : undefined,
    args: [...(options.args ?? []), `--disable-features=${features.join(',')}`],
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let running: Promise<BrowserServer> | undefined;
  const launch = (): Promise<BrowserServer> => {
    if (!running) {
      const started = launchBrowserServer();
      running = started;
      // A browser that dies (or fails to start) is started again on the next request.
      started.then(
        (s) =>
          s.on('close', () => {
            if (running === started) running = undefined;
          }),
        () => {
          if (running === started) running = undefined;
        },
      );
    }
    return running;
  };
  const launcher = createServer((_req, res) => {
    launch().then(
      (s) => res.end(s.wsEndpoint()),
      (err: unknown) => {
        res.statusCode = 500;
        res.end(err instanceof Error ? err.message : String(err));
      },
    );
  });
  await new Promise<void>((resolve) => launcher.listen(0, '127.0.0.1', resolve));
  project.provide('browserLauncher', `http://127.0.0.1:${(launcher.address() as AddressInfo).port}/`);
  return async () => {
    launcher.close();
    const s = await running?.catch(() => undefined);
    await s?.close();
  };
}
