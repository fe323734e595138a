#!/usr/bin/env node
// Does one account's heavy results page stall the process? Seeds a survey of 3,000 responses with
// long written answers, then, for a while each, runs two request loops on its analyze page (as one
// signed-in account) while a third client asks /healthz every 50 ms, and reports /healthz's
// latency and the server's event-loop delay over the run (prom-client's nodejs_eventloop_lag_*
// gauges on METRICS_PORT, which monitorEventLoopDelay samples every 10 ms; scraped once before the
// run to reset them). Phases:
//   same     both loops ask the same page (a results cache may answer after the first)
//   varied   every request a new filter (a new start day: the same responses, a new cache key), so
//            every request computes the page
//   export   both loops download the summary export (CSV) with a varied filter
// Usage: node bench/stall.js [--responses 3000] [--seconds 15] [--phases same,varied,export]
// The service runs from the sources (node --import tsx src/main.ts): no build needed. STALL_DATABASE_URL
// selects an empty PostgreSQL database (default: a fresh SQLite file).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signIn } from './collect-data.js';

const { values: args } = parseArgs({
  options: {
    responses: { type: 'string', default: '3000' },
    seconds: { type: 'string', default: '15' },
    phases: { type: 'string', default: 'same,varied,export' },
  },
});
const ROOT = new URL('..', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'ss-stall-'));
const databaseUrl = process.env.STALL_DATABASE_URL ?? `sqlite:${join(DIR, 'stall.db')}`;
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  SECRET_KEY: 'stall-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  LOG_LEVEL: 'warn',
};
const NODE = [process.execPath, '--max-semi-space-size=64', '--import', 'tsx', 'src/main.ts'];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** One HTTP request (bench/run.js's, which runs the bench when imported). */
function http(base, method, path, { token, body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = request(
      new URL(path, base),
      {
        method,
        headers: {
          ...(token ? { authorization: `bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function cli(a) {
  const r = spawnSync(NODE[0], [...NODE.slice(1), ...a, '--json'], { cwd: ROOT, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${a.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// Deterministic long texts: ~120–250 words each from a vocabulary of 3,000 made-up words and some
// real ones, so the word lists have real work to do.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tor', 'shi', 'va', 'den', 'qu', 'ix', 'pel', 'sor', 'an', 'bel'];
const VOCAB = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i; w.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length))
    w += SYLLABLES[n % SYLLABLES.length];
  return w;
}).concat('delivery price quality support staff friendly slow quick the and was but very'.split(' '));
const text = () => {
  const n = 120 + Math.floor(rand() * 130);
  const words = [];
  for (let i = 0; i < n; i++) words.push(VOCAB[Math.floor(rand() ** 2 * VOCAB.length)]);
  return `${words.join(' ')}.`;
};

async function seedSurvey(ctx, count) {
  const tk = { token: ctx.token };
  const essay = (heading) => ({ family: 'open_ended', subtype: 'essay', headings: [{ heading }] });
  const created = await http(ctx.base, 'POST', '/v3/surveys', {
    ...tk,
    body: {
      title: 'Stall',
      pages: [
        {
          questions: [
            essay('What went well?'),
            essay('What went badly?'),
            essay('Anything else?'),
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Team?' }],
              answers: { choices: [{ text: 'North' }, { text: 'South' }], other: { text: 'Other' } },
            },
          ],
        },
      ],
    },
  });
  if (created.status !== 201) throw new Error(created.text);
  const details = (await http(ctx.base, 'GET', `/v3/surveys/${created.json.id}/details`, tk)).json;
  const collector = (
    await http(ctx.base, 'POST', `/v3/surveys/${details.id}/collectors`, { ...tk, body: { type: 'weblink' } })
  ).json;
  const page = details.pages[0];
  const [a, b, c, team] = page.questions;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const pick =
        n % 5 === 4
          ? [{ other_id: team.answers.other.id, text: text().slice(0, 200) }]
          : [{ choice_id: team.answers.choices[n % 2].id }];
      const res = await http(ctx.base, 'POST', `/v3/collectors/${collector.id}/responses`, {
        ...tk,
        body: {
          response_status: 'completed',
          pages: [
            {
              id: page.id,
              questions: [
                { id: a.id, answers: [{ text: text() }] },
                { id: b.id, answers: [{ text: text() }] },
                { id: c.id, answers: [{ text: text() }] },
                { id: team.id, answers: pick },
              ],
            },
          ],
        },
      });
      if (res.status !== 201) throw new Error(`response ${n}: ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { analyze: new URL(details.analyze_url).pathname, team: team.id };
}

async function metrics(port) {
  const res = await http(`http://127.0.0.1:${port}`, 'GET', '/metrics');
  const value = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(res.text)?.[1] ?? Number.NaN);
  return {
    maxMs: value('nodejs_eventloop_lag_max_seconds') * 1000,
    p99Ms: value('nodejs_eventloop_lag_p99_seconds') * 1000,
    heavy: /survey_heavy_requests_total\{[^}]*outcome="(\w+)"[^}]*\} (\d+)/g,
    text: res.text,
  };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n) => Math.round(n * 10) / 10;

async function phase(name, ctx, metricsPort, pathOf, seconds) {
  await metrics(metricsPort); // resets the event-loop histogram
  const until = performance.now() + seconds * 1000;
  const statuses = {};
  const durations = [];
  let i = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await http(ctx.base, 'GET', pathOf(i++), { headers: { cookie: ctx.cookie } });
      durations.push(performance.now() - t);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  const health = [];
  const probe = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await http(ctx.base, 'GET', '/healthz');
      if (res.status !== 200) throw new Error(`healthz ${res.status}`);
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await Promise.all([loop(), loop(), probe()]);
  const m = await metrics(metricsPort);
  health.sort((a, b) => a - b);
  durations.sort((a, b) => a - b);
  return {
    phase: name,
    requests: statuses,
    request_median_ms: round(pct(durations, 50)),
    healthz_samples: health.length,
    healthz_median_ms: round(pct(health, 50)),
    healthz_p99_ms: round(pct(health, 99)),
    healthz_max_ms: round(health.at(-1)),
    eventloop_max_ms: round(m.maxMs),
    eventloop_p99_ms: round(m.p99Ms),
  };
}

async function main() {
  cli([
    'user',
    'create',
    '--username',
    'bench',
    '--email',
    'bench@example.com',
    '--password',
    'bench-password',
    '--plan',
    'enterprise',
  ]);
  const { access_token: token } = cli([
    'app',
    'create',
    '--owner',
    'bench',
    '--name',
    'Stall',
    '--minute-limit',
    '0',
    '--day-limit',
    '0',
  ]);
  const [port, metricsPort] = [await freePort(), await freePort()];
  const log = join(DIR, 'serve.log');
  const out = openSync(log, 'w');
  const child = spawn(NODE[0], [...NODE.slice(1), 'serve', '--no-worker'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const stop = () => child.exitCode === null && child.kill('SIGTERM');
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    for (let i = 0; !readFileSync(log, 'utf8').includes('listening'); i++) {
      if (child.exitCode !== null || i > 2400)
        throw new Error(`serve did not start: ${readFileSync(log, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const ctx = { base: `http://127.0.0.1:${port}`, token, http };
    const count = Number(args.responses);
    const t0 = performance.now();
    const made = await seedSurvey(ctx, count);
    process.stderr.write(`seeded ${count} responses in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    ctx.cookie = await signIn(ctx);
    const t1 = performance.now();
    const first = await http(ctx.base, 'GET', made.analyze, { headers: { cookie: ctx.cookie } });
    if (first.status !== 200) throw new Error(`analyze ${first.status}`);
    const firstMs = performance.now() - t1;
    const day = (i) => `2000-01-${String(1 + (i % 28)).padStart(2, '0')}`;
    const varied = (i) =>
      `start=${day(i)}&end=2099-${String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0')}-01`;
    const paths = {
      same: () => made.analyze,
      varied: (i) => `${made.analyze}?${varied(i)}`,
      export: (i) => `${made.analyze}/export?format=summary&${varied(i)}`,
    };
    const rows = [];
    for (const name of args.phases.split(',')) {
      rows.push(await phase(name, ctx, metricsPort, paths[name], Number(args.seconds)));
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    }
    const heavy = (await metrics(metricsPort)).text.split('\n').filter((l) => l.startsWith('survey_heavy_'));
    console.log(
      JSON.stringify(
        {
          database: databaseUrl.split(':')[0],
          responses: count,
          first_analyze_ms: round(firstMs),
          phases: rows,
          heavy,
        },
        null,
        2,
      ),
    );
  } finally {
    stop();
  }
}

await main();
