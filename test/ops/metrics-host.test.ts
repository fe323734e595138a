// The metrics listener as a Prometheus in the same compose network scrapes it: the worker listens on
// every address (METRICS_HOST=0.0.0.0) and answers the Host names METRICS_ALLOWED_HOSTS lists (the
// compose service name), while every other name is still refused (DNS rebinding).
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson, startWorkerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

function statusWithHost(url: string, host: string) {
  return new Promise<number>((resolve, reject) =>
    get(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject),
  );
}

let db: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    SECRET_KEY: 'metrics-host-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  };
  runCliJson(['migrate'], env);
});
afterAll(async () => {
  await db?.drop();
});

async function withWorker(
  extra: Record<string, string>,
  check: (metricsUrl: string, port: number) => Promise<void>,
) {
  const port = await freePort();
  const worker = startWorkerProcess({ ...env, METRICS_PORT: String(port), ...extra });
  try {
    await worker.ready;
    await check(`http://127.0.0.1:${port}/metrics`, port);
  } finally {
    await worker.stop();
  }
  expect(worker.stderr()).toBe('');
}

describe('METRICS_ALLOWED_HOSTS', () => {
  it('a worker on every address answers its compose service name and still refuses other names', async () => {
    await withWorker(
      { METRICS_HOST: '0.0.0.0', METRICS_ALLOWED_HOSTS: 'worker,Worker-2' },
      async (url, port) => {
        for (const host of [`worker:${port}`, 'worker:9464', 'WORKER:9464', 'worker', 'worker-2:9464'])
          expect(await statusWithHost(url, host), host).toBe(200);
        // the IP a scraper dialled, and loopback names, as before
        for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
          expect(await statusWithHost(url, host), host).toBe(200);
        for (const host of [
          'evil.example:9464',
          'worker.evil.example:9464',
          'evilworker:9464',
          'worker-3:9464',
          `worker.:${port}`,
        ])
          expect(await statusWithHost(url, host), host).toBe(404);
        // only GET /metrics, whatever the name
        expect(await statusWithHost(url.replace('/metrics', '/'), 'worker:9464')).toBe(404);
      },
    );
  }, 120_000);

  it('unset, a service name is refused as any other name', async () => {
    await withWorker({ METRICS_HOST: '0.0.0.0' }, async (url, port) => {
      expect(await statusWithHost(url, 'worker:9464')).toBe(404);
      expect(await statusWithHost(url, `127.0.0.1:${port}`)).toBe(200);
    });
  }, 120_000);

  it('a value that is not a list of host names stops start-up with the variable named', () => {
    const r = runCli(['config'], { ...env, METRICS_ALLOWED_HOSTS: 'worker; evil.example' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('METRICS_ALLOWED_HOSTS="worker; evil.example" is not allowed');
  });
});
