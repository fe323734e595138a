// Operating the service: health and readiness probes, Prometheus metrics on their own port, and
// one JSON log line per request, all from a real `serve` process as operators run it.
import { get } from 'node:http';
import { sql } from 'kysely';
import parsePrometheus from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

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
  };
  runCliJson(['migrate'], env);
  serve = startServeProcess({ ...env, LOG_LEVEL: 'info' });
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

describe('health', () => {
  it('GET /healthz answers while the process runs; GET /readyz reports each check', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, outbox: { ok: true } },
    });
  });

  it('GET /readyz answers 503 naming a pending migration or a stuck outbox', async () => {
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
      const stuck = await fetch(`${url}/readyz`);
      expect(stuck.status).toBe(503);
      const body = (await stuck.json()) as any;
      expect(body.status).toBe('not_ready');
      expect(body.checks.migrations).toEqual({ ok: true });
      expect(body.checks.outbox).toMatchObject({ ok: false, limit_seconds: 900 });
      expect(body.checks.outbox.oldest_due_seconds).toBeGreaterThan(800_000_000);
      const metric = await scrape();
      expect(metric('survey_outbox_pending').find((m) => m.labels?.kind === 'emails')?.value).toBe('1');
      await direct.kysely.deleteFrom('emails').execute();
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
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
    expect(metric('survey_outbox_pending').map((m) => [m.labels?.kind, m.value])).toEqual([
      ['deliveries', '0'],
      ['emails', '0'],
    ]);
    expect(metric('survey_outbox_oldest_due_seconds')[0].value).toBe('0');
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
    expect(lines.some((l) => l.route === '/healthz')).toBe(false);
  });
});
