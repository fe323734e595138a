// Operating the service: health and readiness probes, Prometheus metrics on their own port, and
// one JSON log line per request, all from a real `serve` process as operators run it.
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import parsePrometheus from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openDatabase } from '../../src/db/database.js';
import {
  ROOT,
  runCli,
  runCliAsync,
  runCliJson,
  startServeProcess,
  startWorkerProcess,
} from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { Receiver } from '../reach/helpers/receiver.js';

const VERSION = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string }).version;
/** Preloaded into serve and worker: SIGUSR2 makes the process emit a warning. */
const WARN_ON_SIGUSR2 = `--import=${fileURLToPath(new URL('./warning-probe.mjs', import.meta.url))}`;

let db: TestDatabase;
let serve: ReturnType<typeof startServeProcess>;
let url: string;
let metricsUrl: string;
let env: Record<string, string>;
let stdout = '';

beforeAll(async () => {
  db = await createTestDatabase();
  const [port, metricsPort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${port}`;
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  env = {
    DATABASE_URL: db.url,
    SECRET_KEY: 'ops-test-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    PUBLIC_URL: url,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    OUTBOX_IN_SERVE: 'false',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  runCliJson(['migrate'], env);
  serve = startServeProcess({ ...env, LOG_LEVEL: 'info', NODE_OPTIONS: WARN_ON_SIGUSR2 });
  serve.child.stdout.on('data', (c) => {
    stdout += c;
  });
  await serve.ready;
});
afterAll(async () => {
  await serve?.stop();
  await db?.drop();
});

let text = '';
async function scrape() {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  text = await res.text();
  const families = parsePrometheus(text);
  return (name: string) => families.find((f) => f.name === name)?.metrics ?? [];
}

const idle = { pending: 0, oldest_due_seconds: 0 };

describe('health', () => {
  it('GET /healthz answers with the version; GET /readyz reports each check and the outbox', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', version: VERSION });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true } },
      outbox: { deliveries: idle, events: idle, emails: idle, exports: idle },
    });
  });

  it('GET /readyz answers 503 for a pending migration; a stuck outbox shows there without failing it', async () => {
    const direct = openDatabase(db.url);
    try {
      const row = await sql<{ name: string; timestamp: string }>`
        SELECT name, timestamp FROM kysely_migration WHERE name = '0010_hot_lookups'`.execute(direct.kysely);
      await sql`DELETE FROM kysely_migration WHERE name = '0010_hot_lookups'`.execute(direct.kysely);
      const pending = await fetch(`${url}/readyz`);
      expect(pending.status).toBe(503);
      expect(((await pending.json()) as any).checks.migrations).toEqual({
        ok: false,
        pending: ['0010_hot_lookups'],
      });
      const { name, timestamp } = row.rows[0];
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${name}, ${timestamp})`.execute(
        direct.kysely,
      );

      // An email due since long ago that no worker sends (OUTBOX_IN_SERVE=false here).
      await direct.kysely
        .insertInto('emails')
        .values({
          id: '990000001',
          owner_id: null,
          to_address: 'x@example.com',
          from_address: 'y@example.com',
          subject: 's',
          text_body: 't',
          html_body: null,
          headers: '{}',
          purpose: null,
          ref_id: null,
          status: 'pending',
          attempts: 0,
          next_attempt_at: '2000-01-01T00:00:00.000Z',
          retry_until: '2000-01-02T00:00:00.000Z',
          claimed_until: null,
          claim_token: null,
          last_error: null,
          transport_id: null,
          created_at: '2000-01-01T00:00:00.000Z',
          sent_at: null,
        })
        .execute();
      // The API still serves: readiness stays 200, the body and the metrics show the backlog.
      const stuck = await fetch(`${url}/readyz`);
      expect(stuck.status).toBe(200);
      const body = (await stuck.json()) as any;
      expect(body.status).toBe('ready');
      expect(body.checks).toEqual({ database: { ok: true }, migrations: { ok: true } });
      expect(body.outbox.emails.pending).toBe(1);
      expect(body.outbox.emails.oldest_due_seconds).toBeGreaterThan(800_000_000);
      expect(body.outbox.deliveries).toEqual(idle);
      const metric = await scrape();
      const emails = (name: string) => metric(name).find((m) => m.labels?.kind === 'emails')?.value;
      expect(emails('survey_outbox_pending')).toBe('1');
      expect(Number(emails('survey_outbox_oldest_due_seconds'))).toBeGreaterThan(800_000_000);
      await direct.kysely.deleteFrom('emails').execute();
      expect(((await (await fetch(`${url}/readyz`)).json()) as any).outbox.emails).toEqual(idle);
    } finally {
      await direct.close();
    }
  });
});

/** GET `url` with this Host header (fetch cannot set one); the status. */
function statusWithHost(url: string, host: string) {
  return new Promise<number>((resolve, reject) =>
    get(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject),
  );
}

describe('metrics and request logs', () => {
  it('the metrics listener answers loopback Host names only, like the local-only pages', async () => {
    const port = new URL(metricsUrl).port;
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `10.0.0.1:${port}`,
    ])
      expect(await statusWithHost(metricsUrl, host), host).toBe(404);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost'])
      expect(await statusWithHost(metricsUrl, host), host).toBe(200);
  });

  it('counts requests by route and status, rate-limit rejections, responses, pool and outbox', async () => {
    const user = runCliJson(
      [
        'user',
        'create',
        '--username',
        'ops',
        '--email',
        'ops@example.com',
        '--password',
        'pw pw pw pw',
        '--plan',
        'premier',
      ],
      env,
    );
    expect(user.username).toBe('ops');
    const app = runCliJson(['app', 'create', '--owner', 'ops', '--name', 'Ops', '--minute-limit', '3'], env);
    const client = new ApiClient(url);
    const t = { token: app.access_token as string };
    // The minute limit counts per epoch minute: the counted requests below start early in one, so
    // a minute's turn cannot fall between them and let one more through.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_100 - intoMinute));
    const survey = await client.post(
      '/v3/surveys',
      {
        title: 'Ops',
        pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] }] }],
      },
      t,
    );
    expect(survey.status).toBe(201);
    const collector = await client.post(`/v3/surveys/${survey.body.id}/collectors`, { type: 'weblink' }, t);
    expect(collector.status).toBe(201);
    const response = await client.post(`/v3/collectors/${collector.body.id}/responses`, {}, t);
    expect(response.status).toBe(201);
    // The minute limit of 3 (150% tolerated at first) is soon used up: the next request is refused.
    let served = 0;
    while ((await client.get('/v3/users/me', t)).status === 200) served++;
    expect(served).toBe(1);
    expect((await client.get('/v3/users/me', { token: 'nope' })).status).toBe(401);
    // Probes are neither logged nor counted.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const metric = await scrape();
    const requests = metric('survey_http_requests_total');
    const count = (route: string, status: string, method = 'GET') =>
      Number(
        requests.find(
          (m) => m.labels?.route === route && m.labels?.status === status && m.labels?.method === method,
        )?.value ?? 0,
      );
    expect(count('/v3/surveys', '201', 'POST')).toBe(1);
    expect(count('/v3/users/me', '429')).toBe(1);
    expect(count('/v3/users/me', '401')).toBe(1);
    // The parser folds labelled histograms together; their series are checked in the text.
    expect(metric('survey_http_request_duration_seconds')[0].buckets?.['+Inf']).toBeDefined();
    expect(text).toContain(
      'survey_http_request_duration_seconds_count{method="POST",route="/v3/surveys",status="201"} 1\n',
    );
    expect(text).toContain(
      'survey_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v3/surveys",status="201"} 1\n',
    );
    expect(Number(metric('survey_rate_limit_rejections_total')[0].value)).toBe(1);
    expect(Number(metric('survey_responses_received_total')[0].value)).toBe(1);
    const pool = metric('survey_db_pool_connections');
    expect(pool.map((m) => m.labels?.state).sort()).toEqual(['idle', 'in_use', 'waiting']);
    expect(Number(metric('survey_db_query_duration_seconds')[0].count)).toBeGreaterThan(0);
    expect(requests.some((m) => ['/healthz', '/readyz'].includes(m.labels?.route ?? ''))).toBe(false);
    expect(metric('survey_outbox_pending').map((m) => m.labels?.kind)).toEqual([
      'deliveries',
      'events',
      'emails',
      'exports',
    ]);
    expect(metric('survey_service_info')).toEqual([{ labels: { version: VERSION }, value: '1' }]);
    // prom-client's process metrics: memory, event-loop lag, GC.
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(metric(name).length, name).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    // Counters of the worker exist from the start (a separate worker process serves its own).
    expect(metric('survey_webhook_deliveries_total')).toBeDefined();
    expect((await fetch(`${url}/metrics`)).status).toBe(404); // never on the public port

    // One JSON line per request at info: request id, route pattern, status and duration; no URL.
    const lines = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const post = lines.find(
      (l) => l.msg === 'request' && l.route === '/v3/collectors/:collector_id/responses',
    );
    expect(post).toMatchObject({ level: 'info', service: 'survey-service', method: 'POST', status: 201 });
    expect(post.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof post.ms).toBe('number');
    expect(stdout).not.toContain(String(collector.body.id));
    expect(lines.some((l) => l.route === '/healthz' || l.route === '/readyz')).toBe(false);
  });
});

describe('the outbox backlog', () => {
  it('with no worker running, webhooks waiting show per kind on the metrics and /readyz, which stays 200', async () => {
    const receiver = await new Receiver().start();
    try {
      runCliJson(
        [
          'user',
          'create',
          '--username',
          'hooks',
          '--email',
          'hooks@example.com',
          '--password',
          'pw pw pw pw',
        ],
        env,
      );
      const t = {
        token: runCliJson(['app', 'create', '--owner', 'hooks', '--name', 'Hooks'], env).access_token,
      };
      const client = new ApiClient(url);
      const survey = await client.post('/v3/surveys', { title: 'Hooked' }, t);
      expect(survey.status).toBe(201);
      const hook = await client.post(
        '/v3/webhooks',
        {
          name: 'h',
          event_type: 'collector_created',
          object_type: 'survey',
          object_ids: [survey.body.id],
          subscription_url: receiver.url,
        },
        t,
      );
      expect(hook.status).toBe(201);
      expect(
        (await client.post(`/v3/surveys/${survey.body.id}/collectors`, { type: 'weblink' }, t)).status,
      ).toBe(201);
      // No worker runs (OUTBOX_IN_SERVE=false): the event waits to be fanned out, no delivery exists.
      await new Promise((r) => setTimeout(r, 1100));
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      const { outbox } = (await ready.json()) as any;
      expect(outbox.events.pending).toBeGreaterThanOrEqual(1);
      expect(outbox.events.oldest_due_seconds).toBeGreaterThanOrEqual(1);
      expect(outbox.deliveries).toEqual(idle);
      let metric = await scrape();
      const events = (name: string) => Number(metric(name).find((m) => m.labels?.kind === 'events')?.value);
      expect(events('survey_outbox_pending')).toBeGreaterThanOrEqual(1);
      expect(events('survey_outbox_oldest_due_seconds')).toBeGreaterThanOrEqual(1);

      // A worker pass fans the events out and delivers: nothing waits any more.
      const once = await runCliAsync(['worker', '--once', '--json'], env);
      expect(once.status, once.stderr).toBe(0);
      expect(receiver.posts().map((p) => p.json.event_type)).toEqual(['collector_created']);
      metric = await scrape();
      expect(metric('survey_outbox_pending').map((m) => m.value)).toEqual(['0', '0', '0', '0']);
      expect(((await (await fetch(`${url}/readyz`)).json()) as any).outbox.events).toEqual(idle);
    } finally {
      await receiver.stop();
    }
  }, 180_000); // three CLI processes and a worker pass
});

describe('deploy/alerts.yml', () => {
  it('parses as Prometheus rule groups whose expressions name metrics the service exports', async () => {
    const file = parseYaml(readFileSync(`${ROOT}/deploy/alerts.yml`, 'utf8')) as {
      groups: Array<{ name: string; rules: Array<Record<string, unknown>> }>;
    };
    const rules = file.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toContain('SurveyServiceOutboxStuck');
    await scrape();
    for (const rule of rules) {
      expect(Object.keys(rule).sort(), String(rule.alert)).toEqual(
        ['alert', 'annotations', 'expr', 'for', 'labels'].sort(),
      );
      for (const name of String(rule.expr).match(/\bsurvey_[a-z_]+/g) ?? [])
        expect(text, `${rule.alert}: ${name}`).toContain(`# TYPE ${name} `);
    }
    // The stuck-outbox rule covers every kind, webhooks included.
    const stuck = rules.find((r) => r.alert === 'SurveyServiceOutboxStuck');
    expect(stuck?.expr).toBe('max by (kind) (survey_outbox_oldest_due_seconds) > 900');
  });
});

describe('the version', () => {
  it('--version and -V print the version and exit 0 without reading the configuration', () => {
    for (const flag of ['--version', '-V']) {
      const r = runCli([flag], { PORT: 'not-a-port', DATABASE_URL: '' });
      expect(r, flag).toMatchObject({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });
});

/** Every line a process wrote is one JSON object; the parsed lines. */
function jsonLines(output: string) {
  return output
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

async function until(what: string, check: () => boolean) {
  for (let i = 0; !check(); i++) {
    if (i > 200) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the log stream', () => {
  const warned = (out: string) => out.includes('"msg":"process warning"');

  it('serve writes only JSON lines: its start line and process warnings too', async () => {
    serve.child.kill('SIGUSR2');
    await until('the warning line', () => warned(stdout));
    const lines = jsonLines(stdout);
    expect(lines.find((l) => l.msg === 'listening')).toMatchObject({ level: 'info', url });
    expect(lines.find((l) => l.msg === 'process warning')).toMatchObject({
      level: 'warn',
      warning: { name: 'Warning', code: 'PROBE_WARNING', message: 'probe warning' },
    });
    expect(serve.stderr()).toBe('');
  });

  it('worker writes only JSON lines, its start line at any LOG_LEVEL', async () => {
    const { METRICS_PORT: _serves, ...workerEnv } = env;
    for (const level of ['info', 'silent']) {
      const worker = startWorkerProcess({ ...workerEnv, LOG_LEVEL: level, NODE_OPTIONS: WARN_ON_SIGUSR2 });
      let out = '';
      worker.child.stdout.on('data', (c) => {
        out += c;
      });
      try {
        await worker.ready;
        if (level === 'info') {
          worker.child.kill('SIGUSR2');
          await until('the warning line', () => warned(out));
        }
      } finally {
        await worker.stop();
      }
      const lines = jsonLines(out);
      expect(lines[0], level).toMatchObject({ level: 'info', msg: 'worker running' });
      if (level === 'silent') expect(lines, level).toHaveLength(1);
      else expect(lines.some((l) => l.msg === 'process warning')).toBe(true);
      expect(worker.stderr(), level).toBe('');
    }
  }, 180_000); // two worker processes
});
