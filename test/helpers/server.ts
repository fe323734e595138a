// Starts the real server on a loopback port over a fresh database, for tests that speak HTTP.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { createCompiledSchemas } from '../../src/caches.js';
import { createDeps } from '../../src/compose.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/context.js';
import type { Api } from '../../src/http/types.js';
import { gracefulClose } from '../../src/ops/shutdown.js';
import type { Clock } from '../../src/platform/clock.js';
import { type AccountOptions, createAccount, type TestAccount } from './accounts.js';
import { ApiClient } from './client.js';
import { createMigratedTestDatabase } from './database.js';
import { startProxy } from './proxy.js';

/** The route schemas compiled by this worker's first app, for every app it starts after (most of
 * an app's start-up is compiling them; vitest runs a worker's files in one process). */
const compiledSchemas = createCompiledSchemas();

/** Set by `npm run test:scale`: every startServer is two instances behind a proxy. */
export const scaleOut = process.env.TEST_SCALE_OUT === '1';

/** Hosts the test config gives the EU and Canada datacenters (send them as the Host header). */
export const EU_HOST = 'eu.survey.test';
export const CA_HOST = 'ca.survey.test';

export interface TestServer {
  url: string;
  deps: Deps;
  app: Api;
  client: ApiClient;
  config: Config;
  /** Each app instance behind `url` (two under `npm run test:scale`), for what is kept per process. */
  instances: Array<{ url: string; deps: Deps }>;
  /** A new user with a draft app and a token (no rate caps unless asked). */
  account(options?: AccountOptions): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface ServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Use this database URL instead of a fresh one (the caller owns it). */
  databaseUrl?: string;
  /** Listen on this port (a test whose PUBLIC_URL must be the server's own, e.g. for single sign-on). */
  port?: number;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? null : await createMigratedTestDatabase();
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl ?? database!.url,
    PUBLIC_URL: 'http://localhost',
    PUBLIC_URL_EU: `http://${EU_HOST}`,
    PUBLIC_URL_CA: `http://${CA_HOST}`,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    // export files of a test server go to a temporary directory, not the checkout's ./data
    EXPORT_DIR: mkdtempSync(join(tmpdir(), 'survey-exports-')),
    UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'survey-uploads-')),
    // imports (page and API) may copy only from a closed local port: no test reaches SurveyMonkey
    IMPORT_PAGE_SOURCES: 'http://127.0.0.1:9',
    SCRYPT_LOG_N: process.env.SCRYPT_LOG_N ?? '10',
    // tests post respondent pages at machine speed: the time check is on only where a test asks
    RESPONDENT_MIN_PAGE_MS: '0',
    ...options.env,
  });
  // TEST_SCALE_OUT=1: two app instances, each with its own pool and caches (as two processes
  // would be), on one database behind a round-robin proxy; the tests talk to the proxy.
  const instances = scaleOut ? 2 : 1;
  const started: Array<{ deps: Deps; app: Api; url: string; close: () => Promise<void> }> = [];
  for (let i = 0; i < instances; i++) {
    const deps = await createDeps(config, { clock: options.clock, compiledSchemas });
    const app = await buildApp(deps);
    // closed as `serve` closes it (src/ops/shutdown.ts): app.close() alone (Node's server.close())
    // ends only the connections idle at that instant, so one whose answer was still being written
    // (a download's stream ends a read after the client has every byte) stayed open as an idle
    // keep-alive connection until Fastify's 72 s keep-alive timeout, past the hook timeout
    const closeApp = gracefulClose(app.server);
    await app.listen({ port: i === 0 && !scaleOut ? (options.port ?? 0) : 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    started.push({ deps, app, url, close: () => closeApp(() => app.close()) });
  }
  const proxy = scaleOut ? await startProxy(started.map((s) => s.url)) : null;
  const url = proxy?.url ?? started[0].url;
  const { deps, app } = started[0];
  return {
    url,
    deps,
    app,
    config,
    client: new ApiClient(url),
    instances: started.map(({ url, deps }) => ({ url, deps })),
    account: (opts) => createAccount(deps, opts),
    close: async () => {
      await proxy?.close();
      for (const s of started) {
        await s.close();
        await s.deps.db.close();
      }
      await database?.drop();
    },
  };
}
