#!/usr/bin/env node
// launch_day: a company survey emailed to everyone at 9:00. On PostgreSQL, two `serve --no-worker`
// processes and one `worker` behind the bench's round-robin proxy (bench/proxy.js); a webhook on
// every completed response (to a real HTTP receiver in this process) and an email alert for each.
// Simulated respondents, each with its own address (X-Forwarded-For, TRUST_PROXY=true) and
// cookies, open the 3-page survey, think 2–5 s on each page (more than RESPONDENT_MIN_PAGE_MS, so
// none is kept aside as too fast), post it, and when done start over as a new respondent. Their
// number grows stage by stage until a stage's page p99 passes 500 ms (or --stages run out).
// Per stage: completed responses/s, pages/s, page latency, errors, the outbox's lag (the oldest
// undelivered webhook/email's age, from /readyz), the CPU per completed response and the share of
// each side (serve processes, worker, PostgreSQL backends, proxy, this simulator) from /proc, and
// each process's resident memory.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/launch-day.js \
//     [--users 100] [--growth 1.6] [--stages 8] [--stage-seconds 15] [--think 2000-5000]
// LAUNCH_NODE_FLAGS adds node flags to the serve and worker processes (e.g.
// --max-semi-space-size=16 to compare with the shipped 64); GC time is measured in each of them
// (bench/gc-meter.mjs). Needs `npm run build` (the processes run bin/survey-service.js).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '100' },
    growth: { type: 'string', default: '1.6' },
    stages: { type: 'string', default: '8' },
    'stage-seconds': { type: 'string', default: '15' },
    think: { type: 'string', default: '2000-5000' },
    'p99-limit': { type: 'string', default: '500' },
    warmup: { type: 'string', default: '20' },
  },
});
const ROOT = new URL('..', import.meta.url).pathname;
const SERVER_URL = process.env.BENCH_DATABASE_URL;
if (!SERVER_URL?.startsWith('postgres')) {
  console.error('launch_day needs PostgreSQL: BENCH_DATABASE_URL=postgres://…');
  process.exit(2);
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
const [thinkMin, thinkMax] = args.think.split('-').map(Number);
const DIR = mkdtempSync(join(tmpdir(), 'ss-launch-'));
const GC_DIR = join(DIR, 'gc');
// The node flags of the command's first line, as the package's command runs.
const FLAGS = [
  ...readFileSync(join(ROOT, 'bin/survey-service.js'), 'utf8')
    .split('\n')[0]
    .split(' ')
    .filter((a) => a.startsWith('--')),
  ...(process.env.LAUNCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
];

const freePort = () =>
  new Promise((resolve) => {
    const s = netServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// ---- processes ----------------------------------------------------------------------------
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    for (const c of children) c.kill('SIGTERM');
    process.exit(130);
  });

function start(name, argv, env, readyText = 'listening') {
  const log = join(DIR, `${name}.log`);
  const out = openSync(log, 'w');
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ready = new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (readyText && !readFileSync(log, 'utf8').includes(readyText)) return;
      clearInterval(poll);
      resolve();
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`${name} exited with ${code}: ${readFileSync(log, 'utf8').slice(-2000)}`));
    });
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { name, child, ready, stop, log };
}

function procStat(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function cli(argv, env) {
  const r = spawnSync(process.execPath, ['dist/main.js', ...argv, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`survey-service ${argv.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function pgAdmin(url, sql) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

// ---- HTTP -------------------------------------------------------------------------------
const agent = new Agent({ keepAlive: true, maxSockets: 512 });
function http(base, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = request(
      new URL(path, base),
      { method, agent, headers: { ...(payload ? { 'content-length': payload.length } : {}), ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}
const api = async (base, token, method, path, body) => {
  const res = await http(base, method, path, {
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { ...res, json: res.text ? JSON.parse(res.text) : undefined };
};

// ---- the respondents -------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(thinkMin + Math.random() * (thinkMax - thinkMin));
let addressN = 0;
const nextAddress = () => {
  const n = ++addressN;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** What the current stage records. */
let stage = null;
const newStage = () => ({ latencies: [], errors: 0, errorSamples: [], completed: 0, pages: 0 });

class Respondent {
  cookies = new Map();
  page = '';
  address = nextAddress();
  constructor(base, path) {
    this.base = base;
    this.path = path;
  }
  get cookie() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async send(method, path, body) {
    const t = performance.now();
    const s = stage;
    let res;
    try {
      res = await http(this.base, method, path, {
        headers: {
          cookie: this.cookie,
          'x-forwarded-for': this.address,
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body,
      });
    } catch (err) {
      s.errors++;
      if (s.errorSamples.length < 5) s.errorSamples.push(`${method} ${path}: ${err.message}`);
      throw err;
    }
    s.latencies.push(performance.now() - t);
    for (const c of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    // A page posted answers 303 to the next page, the last one 200 with the thank-you page.
    const ok = res.status === 200 || (method === 'POST' && res.status === 303);
    if (!ok) {
      s.errors++;
      if (s.errorSamples.length < 5)
        s.errorSamples.push(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      throw new Error(`status ${res.status}`);
    }
    return res;
  }
  field(name) {
    return new RegExp(`name="${name}" value="([^"]*)"`).exec(this.page)?.[1] ?? '';
  }
  /** Opens the survey, answers its three pages, and reaches the thank-you page. */
  async answer(n) {
    this.page = (await this.send('GET', this.path)).text;
    for (let p = 0; p < 3; p++) {
      await think();
      const form = new URLSearchParams({
        csrf: this.field('csrf'),
        p: this.field('p'),
        started: this.field('started'),
        shown: this.field('shown'),
        leave_this_blank: '',
        nav: 'next',
      });
      for (const [, tag, id] of this.page.matchAll(/<(input|textarea)[^>]*name="q_(\d+)"/g))
        form.set(
          `q_${id}`,
          tag === 'textarea' ? `A longer thought, number ${n}, on page ${p + 1}.` : `Answer ${n}`,
        );
      const res = await this.send('POST', this.path, form.toString());
      this.page = res.status === 303 ? (await this.send('GET', res.headers.location)).text : res.text;
      stage.pages++;
    }
    if (!/Thank you/i.test(this.page)) throw new Error('no thank-you page');
    stage.completed++;
  }
}

// ---- main --------------------------------------------------------------------------------
const name = `ss_launch_${process.pid}`;
await pgAdmin(SERVER_URL, `CREATE DATABASE ${name}`);
const dbUrl = new URL(SERVER_URL);
dbUrl.pathname = `/${name}`;
const env = {
  DATABASE_URL: dbUrl.toString(),
  SECRET_KEY: 'launch-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  TRUST_PROXY: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  MAIL_DIR: join(DIR, 'mail'),
  OUTBOX_IN_SERVE: 'false',
  NODE_OPTIONS: `--import ${join(ROOT, 'bench/gc-meter.mjs')}`,
  GC_METER_DIR: GC_DIR,
};
const procs = [];
let receiver;
let receivedHooks = 0;
try {
  cli(['migrate'], env);
  cli(
    [
      'user',
      'create',
      '--username',
      'owner',
      '--email',
      'owner@example.com',
      '--password',
      'owner-password',
      '--plan',
      'enterprise',
    ],
    env,
  );
  const { access_token: token } = cli(
    ['app', 'create', '--owner', 'owner', '--name', 'Launch', '--minute-limit', '0', '--day-limit', '0'],
    env,
  );

  const serves = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const s = start(`serve-${i + 1}`, [...FLAGS, 'bin/survey-service.js', 'serve', '--no-worker'], {
      ...env,
      PORT: String(port),
    });
    s.base = `http://127.0.0.1:${port}`;
    serves.push(s);
  }
  const worker = start('worker', [...FLAGS, 'bin/survey-service.js', 'worker'], env, null);
  const proxyPort = await freePort();
  const proxy = start('proxy', ['--import', 'tsx', 'bench/proxy.js'], {
    PORT: String(proxyPort),
    UPSTREAMS: serves.map((s) => s.base).join(','),
    NODE_OPTIONS: '',
  });
  procs.push(...serves, worker, proxy);
  await Promise.all([...serves, proxy].map((p) => p.ready));
  const base = `http://127.0.0.1:${proxyPort}`;

  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') receivedHooks++;
      res.end('ok');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

  // The survey: three pages, two questions each; a weblink collector; a webhook; alerts.
  const oe = (heading, subtype = 'single') => ({ family: 'open_ended', subtype, headings: [{ heading }] });
  const survey = await api(base, token, 'POST', '/v3/surveys', {
    title: 'How was your year?',
    pages: [
      { title: 'You', questions: [oe('Your team?'), oe('Your office?')] },
      { title: 'Work', questions: [oe('What went well?', 'essay'), oe('What did not?', 'essay')] },
      { title: 'Next', questions: [oe('One wish for next year?'), oe('Anything else?', 'essay')] },
    ],
  });
  if (survey.status !== 201) throw new Error(`survey: ${survey.text}`);
  const collector = await api(base, token, 'POST', `/v3/surveys/${survey.json.id}/collectors`, {
    type: 'weblink',
  });
  if (collector.status !== 201) throw new Error(`collector: ${collector.text}`);
  const hook = await api(base, token, 'POST', '/v3/webhooks', {
    name: 'launch',
    event_type: 'response_completed',
    object_type: 'survey',
    object_ids: [survey.json.id],
    subscription_url: hookUrl,
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.text}`);
  await alertEachResponse(base, new URL(survey.json.edit_url).searchParams.get('sm'));
  const path = new URL(collector.json.url).pathname;

  // PostgreSQL's CPU: every backend of this database (the pools open theirs under load, so the
  // list is read again each stage and a backend's time counts from when it is first seen).
  const backends = async () =>
    (
      await pgAdmin(
        dbUrl.toString(),
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).map((r) => r.pid);
  const rest = Object.fromEntries(procs.map((p) => [p.name, rssMb(p.child.pid)]));
  process.stderr.write(`at rest (RSS MB): ${JSON.stringify(rest)}\n`);

  let users = 0;
  let running = true;
  let target = Number(args.users);
  const loops = [];
  const vu = async () => {
    let n = 0;
    while (running) {
      try {
        await new Respondent(base, path).answer(n++);
      } catch {
        await sleep(1000);
      }
    }
  };
  // Warm-up (not reported): the first --users respondents for --warmup seconds, so the processes'
  // first requests (compilation, caches, connections; bench/run.js's cold_start) stay out of the stages.
  stage = newStage();
  for (let k = 0; k < target; k++) {
    loops.push(sleep((k / target) * 3000).then(vu));
    users++;
  }
  await sleep(Number(args.warmup) * 1000);
  const stages = [];
  const limit = Number(args['p99-limit']);
  const seenBackends = new Map();
  for (let i = 0; i < Number(args.stages); i++) {
    // Newcomers arrive over the first seconds of the stage, not all in the same millisecond.
    const add = Math.round(target) - users;
    for (let k = 0; k < add; k++) {
      loops.push(sleep((k / add) * 3000).then(vu));
      users++;
    }
    stage = newStage();
    const pids = Object.fromEntries(procs.map((p) => [p.name, p.child.pid]));
    const cpu0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, procStat(pid)]));
    const self0 = process.cpuUsage();
    for (const pid of await backends()) if (!seenBackends.has(pid)) seenBackends.set(pid, procStat(pid) ?? 0);
    const db0 = new Map(seenBackends);
    const rssMax = {};
    const gc0 = gcTotals(procs);
    const hooks0 = receivedHooks;
    const mails0 = countFiles(join(DIR, 'mail'));
    const lag = { deliveries: 0, events: 0, emails: 0 };
    const t0 = performance.now();
    const until = t0 + Number(args['stage-seconds']) * 1000;
    while (performance.now() < until) {
      await sleep(1000);
      for (const [k, pid] of Object.entries(pids)) rssMax[k] = Math.max(rssMax[k] ?? 0, rssMb(pid) ?? 0);
      try {
        const ready = JSON.parse((await http(serves[0].base, 'GET', '/readyz')).text);
        for (const kind of Object.keys(lag))
          lag[kind] = Math.max(lag[kind], ready.outbox?.[kind]?.oldest_due_seconds ?? 0);
      } catch {}
      for (const pid of await backends().catch(() => []))
        if (!seenBackends.has(pid)) seenBackends.set(pid, procStat(pid) ?? 0);
    }
    const seconds = (performance.now() - t0) / 1000;
    const s = stage;
    const cpu = Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [k, (procStat(pid) - cpu0[k]) / 1e6]),
    );
    let db = 0;
    for (const [pid, before] of seenBackends) {
      const now = procStat(pid);
      if (now !== null) db += (now - (db0.get(pid) ?? before)) / 1e6;
      else seenBackends.delete(pid);
    }
    const selfUsage = process.cpuUsage(self0);
    const sim = (selfUsage.user + selfUsage.system) / 1e6;
    const lat = s.latencies.sort((a, b) => a - b);
    const pct = (p) => Math.round(lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? 0);
    const serveCpu = (cpu['serve-1'] ?? 0) + (cpu['serve-2'] ?? 0);
    const total = serveCpu + cpu.worker + db + cpu.proxy + sim;
    const row = {
      users,
      completed_per_s: Number((s.completed / seconds).toFixed(1)),
      pages_per_s: Number((s.pages / seconds).toFixed(1)),
      requests_per_s: Number((lat.length / seconds).toFixed(1)),
      p50_ms: pct(50),
      p99_ms: pct(99),
      errors: s.errors,
      outbox_lag_s: lag,
      // Per request (a response is 7: the first page, then a post and the next page for each of
      // 3); the worker's per webhook or email delivered in the stage.
      cpu_ms_per_request: lat.length
        ? {
            serve: Number(((serveCpu * 1000) / lat.length).toFixed(2)),
            postgres: Number(((db * 1000) / lat.length).toFixed(2)),
            proxy: Number(((cpu.proxy * 1000) / lat.length).toFixed(2)),
            simulator: Number(((sim * 1000) / lat.length).toFixed(2)),
          }
        : null,
      worker_cpu_ms_per_item: Number(
        (
          (cpu.worker * 1000) /
          Math.max(1, receivedHooks - hooks0 + countFiles(join(DIR, 'mail')) - mails0)
        ).toFixed(2),
      ),
      delivered: { webhooks: receivedHooks - hooks0, emails: countFiles(join(DIR, 'mail')) - mails0 },
      cpu_share: {
        serve: Number((serveCpu / total).toFixed(2)),
        worker: Number((cpu.worker / total).toFixed(2)),
        postgres: Number((db / total).toFixed(2)),
        proxy: Number((cpu.proxy / total).toFixed(2)),
        simulator: Number((sim / total).toFixed(2)),
      },
      cores_busy: Number((total / seconds).toFixed(2)),
      rss_mb: rssMax,
      gc_ms: Object.fromEntries(Object.entries(gcTotals(procs)).map(([k, v]) => [k, v - (gc0[k] ?? 0)])),
      error_samples: s.errorSamples,
    };
    stages.push(row);
    process.stderr.write(`${JSON.stringify(row)}\n`);
    if (row.p99_ms > limit || row.errors > 0) break;
    target *= Number(args.growth);
  }
  running = false;
  const sent = stages.reduce((a, r) => a + r.completed_per_s, 0);
  // Let the respondents in flight finish (a page at most) and the worker catch up.
  await Promise.race([Promise.all(loops), sleep(15_000)]);
  const drainStart = performance.now();
  let backlog = null;
  for (let i = 0; i < 60; i++) {
    backlog = JSON.parse((await http(serves[0].base, 'GET', '/readyz')).text).outbox;
    if (!backlog || Object.values(backlog).every((k) => k.pending === 0)) break;
    await sleep(1000);
  }
  const responses = await api(base, token, 'GET', `/v3/surveys/${survey.json.id}/responses?per_page=1`);
  const last = stages.findLast((r) => r.p99_ms <= limit && r.errors === 0) ?? null;
  const over = stages.find((r) => r.p99_ms > limit) ?? null;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const report = {
    date: new Date().toISOString(),
    load_average: load,
    node_flags: FLAGS.join(' '),
    think_ms: args.think,
    at_rest_rss_mb: rest,
    stages,
    within_limit: last,
    over_limit: over,
    responses_total: responses.json?.total,
    webhooks_received: receivedHooks,
    alert_emails: countFiles(join(DIR, 'mail')),
    drained_in_s: Number(((performance.now() - drainStart) / 1000).toFixed(1)),
    backlog_after: backlog,
    completed_sum_rate: sent,
  };
  const cell = (r) =>
    `| ${r.users} | ${r.completed_per_s} | ${r.requests_per_s} | ${r.p50_ms} / ${r.p99_ms} | ${r.errors} | ${r.outbox_lag_s.deliveries} / ${r.outbox_lag_s.emails} | ${r.cpu_ms_per_request ? Object.values(r.cpu_ms_per_request).join(' / ') : ''} | ${r.worker_cpu_ms_per_item} | ${Object.values(r.cpu_share).join(' / ')} | ${r.rss_mb['serve-1']} / ${r.rss_mb['serve-2']} / ${r.rss_mb.worker} |`;
  process.stdout.write(
    `\nlaunch_day (load average ${load}; think ${args.think} ms a page; node ${FLAGS.join(' ')})\n\n| respondents | completed/s | requests/s | page p50 / p99 ms | errors | outbox lag s (webhooks / emails) | CPU ms per request (serve / PostgreSQL / proxy / simulator) | worker CPU ms per delivery | CPU share (serve / worker / PostgreSQL / proxy / simulator) | RSS MB (serve 1 / serve 2 / worker) |\n|---|---|---|---|---|---|---|---|---|---|\n${stages.map(cell).join('\n')}\n\nat rest RSS MB: ${JSON.stringify(rest)}; ${report.responses_total} responses stored, ${receivedHooks} webhooks received, ${report.alert_emails} alert emails written; the outbox drained ${report.drained_in_s} s after the load stopped\n`,
  );
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/launch-day.json'), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  for (const p of procs) await p.stop();
  receiver?.close();
  agent.destroy();
  await pgAdmin(SERVER_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

function countFiles(dir) {
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.eml')).length;
  } catch {
    return 0;
  }
}

/** GC time so far per process (bench/gc-meter.mjs writes one file per process id). */
function gcTotals(list) {
  const out = {};
  for (const p of list) {
    try {
      out[p.name] = JSON.parse(readFileSync(join(GC_DIR, `gc-${p.child.pid}.json`), 'utf8')).ms;
    } catch {}
  }
  return out;
}

/** Sets the survey's response alerts to "each completed response" through its page, signed in. */
async function alertEachResponse(base, sm) {
  const jar = new Map();
  const keep = (res) => {
    for (const c of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = c.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrfOf = (text) => /name="_csrf" value="([^"]+)"/.exec(text)[1];
  const form = await http(base, 'GET', '/login');
  keep(form);
  const signed = await http(base, 'POST', '/login', {
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrfOf(form.text),
      username: 'owner',
      password: 'owner-password',
    }).toString(),
  });
  keep(signed);
  if (signed.status !== 303) throw new Error(`sign-in: ${signed.status}`);
  const url = `/collect/alerts?sm=${encodeURIComponent(sm)}`;
  const page = await http(base, 'GET', url, { headers: { cookie: cookie() } });
  keep(page);
  const saved = await http(base, 'POST', url, {
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrfOf(page.text), mode: 'each' }).toString(),
  });
  if (saved.status >= 400) throw new Error(`alerts: ${saved.status} ${saved.text.slice(0, 300)}`);
}
