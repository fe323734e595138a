// The worker as operators run it: `survey-service worker` alone, and inside `serve`, as real
// processes over one database, including a hard kill between an event and its delivery.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/context.js';
import { createAccount, type TestAccount } from '../helpers/accounts.js';
import { CLI_ARGS, ROOT, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emit } from './helpers/events.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';
import { verifySmSignature } from './helpers/verify.js';

let db: TestDatabase;
let deps: Deps;
let receiver: Receiver;
let env: Record<string, string>;
/** The API in this process over the same database, to make the surveys webhooks watch. */
let api: TestServer;

beforeAll(async () => {
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    SECRET_KEY: 'cli-test-secret-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    OUTBOX_POLL_MS: '50',
    OUTBOX_RETRY_BASE_SECONDS: '1',
    PUBLIC_URL: 'http://localhost',
    LOG_LEVEL: 'silent',
  };
  deps = await createDeps(loadConfig(env));
  receiver = await new Receiver().start();
  api = await startServer({ databaseUrl: db.url, env });
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
  await deps.db.close();
  await db.drop();
});

/** Runs a verb without blocking this process (the receiver lives here). */
function runAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Subscribes `a` to survey_updated of a new survey of theirs; returns the survey id. */
async function subscribeDirect(a: TestAccount, target: string): Promise<string> {
  const { surveyId } = await surveyWithCollector(api.client, a.token);
  // Straight through the domain, as the API would (the API is tested elsewhere).
  const { createWebhook } = await import('../../src/domain/webhooks/webhooks.js');
  const w = await createWebhook(
    deps,
    { userId: a.user.id, appId: a.app.id },
    {
      name: 'cli',
      event_type: 'survey_updated',
      object_type: 'survey',
      object_ids: [surveyId],
      subscription_url: target,
    },
  );
  expect(w.id).toMatch(/^\d+$/);
  return surveyId;
}

describe('survey-service worker', () => {
  it('--once delivers what is due, signed, and prints one JSON object', async () => {
    const a = await createAccount(deps);
    const surveyId = await subscribeDirect(a, `${receiver.url}/once`);
    const eventId = await emit(deps, 'survey_updated', a.user.id, 'survey', surveyId);
    const r = await runAsync(['worker', '--once', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.deliveries).toBeGreaterThanOrEqual(1);
    const got = receiver.posts().find((p) => p.json.event_id === eventId);
    expect(got).toBeDefined();
    expect(
      verifySmSignature(got!.raw, a.app.client_id, a.clientSecret, String(got!.headers['sm-signature'])),
    ).toBe(true);
  });
});

describe('survey-service serve runs the worker', () => {
  it('delivers while serving, and loses nothing across a hard kill and restart', async () => {
    const port = await freePort();
    const a = await createAccount(deps);
    let serve = startServeProcess({ ...env, PORT: String(port) });
    await serve.ready;
    try {
      const client = new ApiClient(`http://127.0.0.1:${port}`);
      const { surveyId } = await surveyWithCollector(client, a.token);
      const created = await client.post(
        '/v3/webhooks',
        {
          name: 'serve',
          event_type: 'survey_updated',
          object_type: 'survey',
          object_ids: [surveyId],
          subscription_url: `${receiver.url}/serve`,
        },
        { token: a.token },
      );
      expect(created.status).toBe(201);
      const first = await emit(deps, 'survey_updated', a.user.id, 'survey', surveyId);
      await waitFor('the first delivery', () => receiver.posts().find((p) => p.json.event_id === first));

      // The receiver goes down; an event fails its first attempt; the server is killed outright.
      const receiverPort = receiver.port;
      await receiver.stop();
      const second = await emit(deps, 'survey_updated', a.user.id, 'survey', surveyId);
      await waitFor('a failed attempt', async () => {
        const d = await deps.db.kysely
          .selectFrom('webhook_deliveries')
          .select('attempts')
          .where('event_id', '=', second)
          .executeTakeFirst();
        return d && d.attempts >= 1;
      });
      serve.child.kill('SIGKILL');
      await new Promise((r) => serve.child.once('exit', r));
      const third = await emit(deps, 'survey_updated', a.user.id, 'survey', surveyId); // while nothing runs

      await receiver.start(receiverPort);
      serve = startServeProcess({ ...env, PORT: String(port) });
      await serve.ready;
      await waitFor('both deliveries after the restart', () => {
        const ids = receiver.posts().map((p) => p.json.event_id);
        return ids.includes(second) && ids.includes(third);
      });
      // The receiver has the posts before the worker records them as delivered: wait for the record.
      await waitFor('three deliveries recorded', async () => {
        const log = await client.get(`/v3/webhooks/${created.body.id}/deliveries`, { token: a.token });
        return log.body.total === 3 && log.body.data.every((d: any) => d.status === 'delivered');
      });
    } finally {
      await serve.stop();
    }
  }, 60_000);
});

describe('survey-service serve with OUTBOX_IN_SERVE=false', () => {
  it('serves without delivering; a separate worker process delivers', async () => {
    const port = await freePort();
    const a = await createAccount(deps);
    const surveyId = await subscribeDirect(a, `${receiver.url}/off`);
    const serve = startServeProcess({ ...env, PORT: String(port), OUTBOX_IN_SERVE: 'false' });
    try {
      await serve.ready;
      const eventId = await emit(deps, 'survey_updated', a.user.id, 'survey', surveyId);
      await new Promise((r) => setTimeout(r, 1000)); // twenty poll intervals
      expect(receiver.posts().some((p) => p.json.event_id === eventId)).toBe(false);
      const r = await runAsync(['worker', '--once', '--json']);
      expect(r.status, r.stderr).toBe(0);
      expect(receiver.posts().filter((p) => p.json.event_id === eventId)).toHaveLength(1);
    } finally {
      await serve.stop();
    }
  }, 60_000);
});
