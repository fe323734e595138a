#!/usr/bin/env node
// npm run bench: loads the service and a bare node:http floor with wrk, server and load on separate
// cores (taskset), and reports each scenario's throughput and p99 beside the floor's, as a ratio.
// Usage: npm run bench [-- --duration 10 --connections 50 --only users_me --cpu-prof DIR] ; BENCH_DATABASE_URL
// selects PostgreSQL (default: a fresh SQLite file).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataScenarios } from './scale-data.js';
import { coldStart, launchDay, scaleOut, scaleOut4, scenarios } from './scenarios.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    // Writes the service process's V8 CPU profile (.cpuprofile) into DIR when it stops.
    'cpu-prof': { type: 'string' },
  },
});
const ROOT = new URL('..', import.meta.url).pathname;
// CPU lists for taskset; on a machine with more cores, BENCH_SERVER_CPUS=0-3 BENCH_LOAD_CPUS=4-5 let
// the scale_out scenario's processes run side by side.
const SERVER_CPU = process.env.BENCH_SERVER_CPUS ?? '0';
const LOAD_CPU = process.env.BENCH_LOAD_CPUS ?? '1';
// The service runs as the package's command does: bin/survey-service.js with the node flags of its
// first line (#!/usr/bin/env -S node …); BENCH_NODE_FLAGS adds more (e.g. --trace-gc, whose output
// goes to the server's log in the bench's log directory).
const SERVE = [
  ...readFileSync(new URL('../bin/survey-service.js', import.meta.url), 'utf8')
    .split('\n')[0]
    .split(' ')
    .filter((a) => a.startsWith('--')),
  ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  'bin/survey-service.js',
];
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Every process the bench starts writes its output to a file here, not to a pipe this process must
// drain: the bench blocks for seconds at a time (wrk, a synchronous SQLite seed), and a process
// outliving it on a pipe dies of EPIPE at its next log line (what ended a round-9 run, whose bench
// had been killed while seeding). The same processes are stopped if the bench is interrupted.
const LOG_DIR = mkdtempSync(join(tmpdir(), 'ss-bench-logs-'));
const running = new Set();
let started = 0;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });

function startPinned(args, env, cpu = SERVER_CPU) {
  const log = join(
    LOG_DIR,
    `${++started}-${args
      .find((a) => a.endsWith('.js'))
      ?.split('/')
      .at(-1)}.log`,
  );
  const out = openSync(log, 'w');
  const child = spawn('taskset', ['-c', cpu, process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', out, 'inherit'],
  });
  closeSync(out);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const ready = new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (!readFileSync(log, 'utf8').includes('listening')) return;
      clearInterval(poll);
      resolve();
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`server exited with ${code} (its output: ${log})`));
    });
  });
  return {
    child,
    ready,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** One HTTP request, for provisioning and for capturing the bytes the floor replays. */
export function http(base, method, path, { token, body, headers = {} } = {}) {
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
          const raw = Buffer.concat(chunks);
          const text = raw.toString();
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, headers: res.headers, raw, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function cli(args, env) {
  const r = spawnSync(process.execPath, ['dist/main.js', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`survey-service ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
function memoryMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/** wrk, and the server's CPU time per request over the run: robust to what else the machine does. */
function measure(pid, url, options) {
  const before = cpuMicros(pid);
  const r = wrk(url, options);
  return { ...r, cpuUs: (cpuMicros(pid) - before) / r.requests };
}

function wrk(url, { token, headers = {}, script, connections, duration, timeout = 2, env }) {
  // wrk drops (and does not time) a request slower than `timeout` seconds: a scenario whose requests
  // may take longer names its own, or it measures nothing.
  const a = [
    '-c',
    LOAD_CPU,
    'wrk',
    '-t1',
    `-c${connections}`,
    `-d${duration}s`,
    `--timeout`,
    `${timeout}s`,
    '--latency',
  ];
  if (token) a.push('-H', `Authorization: bearer ${token}`);
  for (const [name, value] of Object.entries(headers)) a.push('-H', `${name}: ${value}`);
  if (script) a.push('-s', script);
  a.push(url);
  const r = spawnSync('taskset', a, { encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const out = r.stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p) => {
    const m = new RegExp(`${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN;
  };
  const p99ms = pct(99);
  const p50ms = pct(50);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1] ?? '';
  return { rps, p50ms, p99ms, requests, non2xx, errors };
}

/** The warm-connection run's figures for a row (the first 100 requests of the timed run apart). */
function warmFigures(t) {
  return {
    warm_mean_ms: t.all.mean,
    warm_p99_ms: t.all.p99,
    warm_p99_over_mean: t.all.p99_over_mean,
    warm_first_100_p99_ms: t.first.p99,
    warm_rest_p99_ms: t.rest.p99,
    warm_non_2xx: t.non_2xx,
  };
}

/** bench/timeline.js on the load CPU: `warmup` seconds, then `duration` seconds measured on the
 * same keep-alive connections; its summary (all, first, rest, per_second, slowest). */
function timeline(url, { token, headers = {}, script, connections, duration, warmup = 2, first = 100 }) {
  const body =
    script?.endsWith('post-json.lua') || script?.endsWith('patch-json.lua')
      ? [
          '--method',
          script.endsWith('post-json.lua') ? 'POST' : 'PATCH',
          '--body-file',
          process.env[script.endsWith('post-json.lua') ? 'BENCH_BODY' : 'BENCH_PATCH_BODY'],
        ]
      : [];
  const r = spawnSync(
    'taskset',
    [
      '-c',
      LOAD_CPU,
      process.execPath,
      'bench/timeline.js',
      '--url',
      url,
      '--connections',
      String(connections),
      '--duration',
      String(duration),
      '--warmup',
      String(warmup),
      '--first',
      String(first),
      ...body,
      ...(script?.endsWith('walk-pages.lua') ? ['--pages', process.env.BENCH_PAGES] : []),
      ...(script?.endsWith('post-form-pool.lua') ? ['--forms', process.env.BENCH_FORMS] : []),
      ...(token ? ['--token', token] : []),
      ...Object.entries(headers ?? {}).flatMap(([k, v]) => ['--header', `${k}: ${v}`]),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`timeline failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The PostgreSQL backends serving `databaseUrl` now (the bench's own connections, not the server's
 * other databases or its background processes). */
async function backendPids(databaseUrl) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

/** CPU time (µs) used so far by each of `pids` still running (0 for one that has ended). */
function cpuOf(pids) {
  return new Map(
    pids.map((pid) => {
      try {
        return [pid, cpuMicros(pid)];
      } catch {
        return [pid, null];
      }
    }),
  );
}

/**
 * scale_out (1, 2) and scale_out_4 (1, 2, 4): the same request through the round-robin proxy
 * (test/helpers/proxy.ts) to n `serve --no-worker` processes on one PostgreSQL database. The proxy
 * runs on the load CPUs in every run, so the ratios are what more processes add. Each row also
 * gives the CPU per request of the serve processes (together), of the proxy and of PostgreSQL (the
 * backends of the bench's database, warmed up and kept open by the pools), and PostgreSQL's share of the three: where the database, not the processes,
 * becomes the limit. `prepare(base, token, http)` runs once against the first process (fixtures).
 */
async function runScaleOut(env, token, { connections, duration }, spec) {
  const serves = [];
  let path = spec.path;
  const measure = async () => {
    const port = await freePort();
    const proxy = startPinned(
      ['--import', 'tsx', 'bench/proxy.js'],
      { PORT: String(port), UPSTREAMS: serves.map((s) => s.base).join(',') },
      LOAD_CPU,
    );
    await proxy.ready;
    const url = `http://127.0.0.1:${port}${path}`;
    try {
      wrk(url, { token, connections, duration: 2 });
      const pids = [...serves.map((s) => s.child.pid), proxy.child.pid];
      const before = pids.map(cpuMicros);
      // PostgreSQL's CPU: the backends of this database (the pools keep theirs open under load).
      const backends = await backendPids(env.DATABASE_URL);
      const db0 = cpuOf(backends);
      const r = wrk(url, { token, connections, duration });
      const used = pids.map((pid, i) => cpuMicros(pid) - before[i]);
      const db1 = cpuOf(backends);
      let dbUs = 0;
      for (const [pid, t] of db1) if (t !== null && db0.get(pid) !== null) dbUs += t - db0.get(pid);
      const n = Math.max(1, r.requests);
      const serveUs = used.slice(0, -1).reduce((x, y) => x + y, 0);
      return {
        ...r,
        serveCpuUs: serveUs / n,
        proxyCpuUs: used[used.length - 1] / n,
        dbCpuUs: dbUs / n,
        dbShare: dbUs / (dbUs + serveUs + used[used.length - 1]),
      };
    } finally {
      await proxy.stop();
    }
  };
  const rows = [];
  try {
    for (const n of spec.processes) {
      while (serves.length < n) {
        const port = await freePort();
        const serve = startPinned([...SERVE, 'serve', '--no-worker'], { ...env, PORT: String(port) });
        serves.push({ ...serve, base: `http://127.0.0.1:${port}` });
        await serve.ready;
        if (serves.length === 1 && spec.prepare)
          path = (await spec.prepare(serves[0].base, token, http)) ?? path;
      }
      const r = await measure();
      rows.push({
        processes: n,
        rps: Math.round(r.rps),
        p99_ms: Number(r.p99ms.toFixed(2)),
        non_2xx: r.non2xx,
        serve_cpu_us: Math.round(r.serveCpuUs),
        proxy_cpu_us: Math.round(r.proxyCpuUs),
        db_cpu_us: Math.round(r.dbCpuUs),
        db_share: Number(r.dbShare.toFixed(3)),
      });
    }
  } finally {
    await Promise.all(serves.map((s) => s.stop()));
  }
  const last = rows[rows.length - 1];
  // Where the database becomes the limit, from the CPU each request costs on each side: one
  // PostgreSQL core keeps up with this many cores of serve processes (the lowest of the runs).
  const perDbCore = Math.min(...rows.map((r) => (r.db_cpu_us > 0 ? r.serve_cpu_us / r.db_cpu_us : Infinity)));
  return {
    serve_cores_per_db_core: Number(perDbCore.toFixed(1)),
    name: spec.name,
    description: spec.description,
    rows,
    ratio: Number((last.rps / rows[0].rps).toFixed(3)),
  };
}

/** cold_start: a new serve process over the same database, loaded from the moment it listens. */
async function runColdStart(env, path, { connections, duration }) {
  const port = await freePort();
  const serve = startPinned([...SERVE, 'serve', '--no-worker'], { ...env, PORT: String(port) });
  await serve.ready;
  try {
    const cpu0 = cpuMicros(serve.child.pid);
    const t = timeline(`http://127.0.0.1:${port}${path}`, { connections, duration, warmup: 0 });
    return {
      name: coldStart.name,
      description: coldStart.description,
      start_cpu_s: Number((cpu0 / 1e6).toFixed(2)),
      first_ms: t.first_ms,
      first_100: t.first,
      rest: t.rest,
      rest_p99_over_mean: Number((t.rest.p99 / t.rest.mean).toFixed(1)),
      non_2xx: t.non_2xx,
      per_second: t.per_second,
    };
  } finally {
    await serve.stop();
  }
}

async function main() {
  if (args.only?.split(',').includes(launchDay.name)) {
    // Its own processes and database (bench/launch-day.js); with others named, they run after it.
    if (!process.env.BENCH_DATABASE_URL?.startsWith('postgres'))
      process.stdout.write(`${launchDay.name}: skipped, it needs PostgreSQL (BENCH_DATABASE_URL)\n`);
    else {
      const r = spawnSync(process.execPath, ['bench/launch-day.js'], { cwd: ROOT, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`${launchDay.name} failed (${r.status})`);
    }
    args.only = args.only
      .split(',')
      .filter((n) => n !== launchDay.name)
      .join(',');
    if (!args.only) return;
  }
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  const dir = mkdtempSync(join(tmpdir(), 'ss-bench-'));
  const pgDatabase = await freshPgDatabase(process.env.BENCH_DATABASE_URL);
  try {
    await bench(duration, connections, dir, pgDatabase?.url ?? `sqlite:${join(dir, 'bench.db')}`);
  } finally {
    await pgDatabase?.drop();
  }
}

/** On PostgreSQL each run gets its own database on the server BENCH_DATABASE_URL names (a rerun
 * on the same database would find the bench's user taken), dropped afterwards. */
async function freshPgDatabase(serverUrl) {
  if (!serverUrl) return null;
  const { default: pg } = await import('pg');
  const name = `ss_bench_${process.pid}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** bench/floor.js answering `sample`'s exact bytes for every request, pinned like the service. */
async function startFloor(dir, name, sample) {
  const port = await freePort();
  const headers = Object.fromEntries(
    Object.entries(sample.headers).filter(
      ([k]) => !['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k),
    ),
  );
  const fixturesFile = join(dir, `floor-${name}.json`);
  writeFileSync(
    fixturesFile,
    JSON.stringify({ '*': { status: sample.status, headers, body: sample.raw.toString('base64') } }),
  );
  const floor = startPinned(['bench/floor.js'], { PORT: String(port), FLOOR_FIXTURES_FILE: fixturesFile });
  await floor.ready;
  return {
    stop: floor.stop,
    measure(path, { token, script, connections, duration, warmUp }) {
      const url = `http://127.0.0.1:${port}${path}`;
      // (a respondent form pool is read from where the service's runs are, and left there)
      const env = { BENCH_FORMS_READ_ONLY: '1' };
      if (warmUp) wrk(url, { token, script, connections, duration: 2, env });
      return measure(floor.child.pid, url, { token, script, connections, duration, env });
    },
  };
}

/** Two floor runs as one: their mean throughput, p99 and CPU per request. */
function bracket(a, b) {
  return { rps: (a.rps + b.rps) / 2, p99ms: (a.p99ms + b.p99ms) / 2, cpuUs: (a.cpuUs + b.cpuUs) / 2 };
}

async function bench(duration, connections, dir, databaseUrl) {
  const env = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'bench-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    // wrk is one client address: the shared results page's per-address throttle would answer 429
    RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS: '0',
  };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;

  cli(
    [
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
    ],
    env,
  );
  const { access_token: token } = cli(
    ['app', 'create', '--owner', 'bench', '--name', 'Bench', '--minute-limit', '0', '--day-limit', '0'],
    env,
  );

  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  const service = startPinned([...profile, ...SERVE, 'serve'], { ...env, PORT: String(port) });
  await service.ready;
  const ctx = { base, token, dir, databaseUrl, http, cli: (a) => cli(a, env) };
  const restRss = memoryMb(service.child.pid).rss;
  // The data-scale scenarios (bench/scale-data.js) seed a million rows: only when asked for.
  const selected = [...scenarios, ...dataScenarios].filter((s) =>
    args.only ? args.only.split(',').includes(s.name) : !s.optIn || process.env.BENCH_LARGE === '1',
  );
  const rows = [];
  const twins = [];
  let coldPath = null;
  try {
    for (const s of selected) {
      const started = performance.now();
      const prepared = await s.prepare(ctx);
      // Seeding a data scenario's rows can take minutes: say where the time went.
      process.stderr.write(`${s.name}: prepared in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      const reqToken = prepared.token ?? token;
      // Warm up, capture the exact bytes for the floor, then measure the service.
      const reqHeaders = prepared.headers;
      wrk(`${base}${prepared.path}`, {
        token: reqToken,
        headers: reqHeaders,
        script: prepared.script,
        connections: prepared.connections ?? connections,
        duration: 2,
        timeout: prepared.timeout,
      });
      const sample = await http(base, prepared.method ?? 'GET', prepared.path, {
        token: reqToken,
        headers: reqHeaders,
        body: prepared.body,
      });
      // The floor (bench/floor.js answering the sample's bytes) is measured just before and just
      // after the service, and the ratio's floor is the mean of the two: the machine's speed drifts
      // by a quarter within minutes on a shared host, and bracketing moves both sides alike.
      const floor = s.noFloor ? null : await startFloor(dir, s.name, sample);
      const floorRun = (warmUp) =>
        floor.measure(prepared.path, {
          token: reqToken,
          script: prepared.script,
          connections,
          duration,
          warmUp,
        });
      const floorBefore = floor && floorRun(true);
      const service_ = measure(service.child.pid, `${base}${prepared.path}`, {
        token: reqToken,
        headers: reqHeaders,
        script: prepared.script,
        // A slow page (a filtered analysis) is measured with fewer connections: its latency is the page's.
        connections: prepared.connections ?? connections,
        duration,
        timeout: prepared.timeout,
      });
      const floorAfter = floor && floorRun(false);
      await floor?.stop();
      const floor_ = floor && bracket(floorBefore, floorAfter);
      // The tail on warm connections: wrk opens its connections as it starts, and a busy process
      // accepts one new connection per event-loop turn, so a wrk run's first requests wait behind
      // the others (docs/performance.md, "The tail"). bench/timeline.js warms up and then measures
      // on the same connections; its p99 and mean are the table's.
      const warm = timeline(`${base}${prepared.path}`, {
        token: reqToken,
        headers: reqHeaders,
        script: prepared.script,
        connections: prepared.connections ?? connections,
        duration,
      });
      if (s.twin) {
        // The same request on a second server over the same database with the twin's settings
        // (the audit log off): the ratio of the two is what the setting costs.
        const twinPort = await freePort();
        const twin = startPinned([...SERVE, 'serve'], {
          ...env,
          ...s.twin.env,
          PORT: String(twinPort),
        });
        await twin.ready;
        const url = `http://127.0.0.1:${twinPort}${prepared.path}`;
        const opts = { token: reqToken, headers: reqHeaders, script: prepared.script, connections };
        wrk(url, { ...opts, duration: 2 });
        const twin_ = measure(twin.child.pid, url, { ...opts, duration });
        await twin.stop();
        twins.push({
          scenario: s.name,
          twin: s.twin.name,
          rps: Math.round(service_.rps),
          twin_rps: Math.round(twin_.rps),
          rps_ratio: Number((service_.rps / twin_.rps).toFixed(3)),
          cpu_us: Math.round(service_.cpuUs),
          twin_cpu_us: Math.round(twin_.cpuUs),
          cpu_ratio: Number((service_.cpuUs / twin_.cpuUs).toFixed(3)),
          non_2xx: service_.non2xx + twin_.non2xx,
        });
      }
      const unit = prepared.unit ?? 1; // items per request (e.g. responses per exported page)
      if (s.noFloor) {
        // Compared with its small twin (scaleOf), not with the floor.
        rows.push({
          scenario: s.name,
          description: s.description,
          service_rps: Math.round(service_.rps),
          items_per_s: Math.round(service_.rps * unit),
          service_p50_ms: Number(service_.p50ms.toFixed(2)),
          service_p99_ms: Number(service_.p99ms.toFixed(2)),
          ...warmFigures(warm),
          service_cpu_us: Math.round(service_.cpuUs),
          connections: prepared.connections ?? connections,
          non_2xx: service_.non2xx,
          errors: service_.errors,
          target: s.target,
          status: sample.status,
          scale_of: s.scaleOf,
        });
        continue;
      }
      rows.push({
        scenario: s.name,
        description: s.description,
        service_rps: Math.round(service_.rps),
        floor_rps: Math.round(floor_.rps),
        floor_rps_before_after: [Math.round(floorBefore.rps), Math.round(floorAfter.rps)],
        ratio: Number((service_.rps / floor_.rps).toFixed(3)),
        items_per_s: Math.round(service_.rps * unit),
        service_p99_ms: Number(service_.p99ms.toFixed(2)),
        ...warmFigures(warm),
        floor_p99_ms: Number(floor_.p99ms.toFixed(2)),
        service_cpu_us: Math.round(service_.cpuUs),
        floor_cpu_us: Math.round(floor_.cpuUs),
        non_2xx: service_.non2xx,
        target: s.target,
        status: sample.status,
      });
    }
    if (args.only ? args.only.split(',').includes(coldStart.name) : true)
      coldPath = (await coldStart.prepare(ctx)).path;
    const mem = memoryMb(service.child.pid);
    process.stdout.write(
      `\nservice resident memory: ${restRss} MB at rest, ${mem.rss} MB after the scenarios, ${mem.hwm} MB at its peak (node ${SERVE.filter((a) => a.startsWith('--')).join(' ')})\n`,
    );
  } finally {
    await service.stop();
  }
  const cold = coldPath
    ? await runColdStart(env, coldPath, { connections, duration: Math.min(duration, 5) })
    : null;
  const scale = [];
  for (const spec of [scaleOut, scaleOut4]) {
    if (args.only ? !args.only.split(',').includes(spec.name) : spec.optIn) continue;
    if (databaseUrl.startsWith('postgres'))
      scale.push(await runScaleOut(env, token, { connections, duration }, spec));
    else process.stdout.write(`${spec.name}: skipped, it needs PostgreSQL (BENCH_DATABASE_URL)\n`);
  }

  const floored = rows.filter((r) => r.floor_rps !== undefined);
  const scaled = rows.filter((r) => r.floor_rps === undefined);
  const byName = new Map(rows.map((r) => [r.scenario, r]));
  for (const r of scaled) {
    const small = byName.get(r.scale_of);
    if (small) {
      r.rps_vs_small = Number((r.service_rps / small.service_rps).toFixed(3));
      r.cpu_vs_small = Number((r.service_cpu_us / small.service_cpu_us).toFixed(3));
    }
    const first = byName.get(r.scenario.replace('deep_page', 'first_page'));
    if (first && first !== r) r.rps_vs_first_page = Number((r.service_rps / first.service_rps).toFixed(3));
  }
  const scaleTable = [
    '| scenario | req/s | items/s | p50 / p99 ms | warm mean / p99 ms (×) | CPU µs/req | req/s vs small twin | CPU vs small twin | vs page 1 | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...scaled.map(
      (r) =>
        `| ${r.scenario} | ${r.service_rps} | ${r.items_per_s} | ${r.service_p50_ms} / ${r.service_p99_ms} | ${r.warm_mean_ms} / ${r.warm_p99_ms} (${r.warm_p99_over_mean}) | ${r.service_cpu_us} | ${r.rps_vs_small ?? ''} | ${r.cpu_vs_small ?? ''} | ${r.rps_vs_first_page ?? ''} | ${r.target} |`,
    ),
  ].join('\n');
  const table = [
    '| scenario | service req/s | floor req/s | ratio | items/s | wrk p99 ms (service / floor) | warm mean / p99 ms (p99 ÷ mean) | CPU µs/req (service / floor) | target |',
    '|---|---|---|---|---|---|---|---|---|',
    ...floored.map(
      (r) =>
        `| ${r.scenario} | ${r.service_rps} | ${r.floor_rps} | ${r.ratio} | ${r.items_per_s} | ${r.service_p99_ms} / ${r.floor_p99_ms} | ${r.warm_mean_ms} / ${r.warm_p99_ms} (${r.warm_p99_over_mean}) | ${r.service_cpu_us} / ${r.floor_cpu_us} | ${r.target} |`,
    ),
  ].join('\n');
  process.stdout.write(
    `\nSurvey Service bench: ${databaseUrl.split(':')[0]}, ${connections} connections, ${duration}s per run, server on CPU ${SERVER_CPU}, wrk on CPU ${LOAD_CPU}\n\n${floored.length ? `${table}\n` : ''}${scaled.length ? `\nScale with data (each large scenario against its small twin):\n\n${scaleTable}\n` : ''}`,
  );
  for (const t of twins)
    process.stdout.write(
      `\n${t.scenario} against ${t.twin}: ${t.rps} / ${t.twin_rps} req/s = ${t.rps_ratio}; CPU ${t.cpu_us} / ${t.twin_cpu_us} µs/req = ${t.cpu_ratio}${t.non_2xx ? `; ${t.non_2xx} non-2xx` : ''}\n`,
    );
  for (const run of scale) {
    const lines = run.rows.map(
      (r) =>
        `| ${r.processes} | ${r.rps} | ${r.p99_ms} | ${r.non_2xx} | ${r.serve_cpu_us} | ${r.proxy_cpu_us} | ${r.db_cpu_us} | ${r.db_share} |`,
    );
    process.stdout.write(
      `\n${run.name}: ${run.description}; servers on CPU ${SERVER_CPU}, proxy and wrk on CPU ${LOAD_CPU}, PostgreSQL unpinned\n\n| serve processes | req/s | p99 ms | non-2xx | serve CPU µs/req | proxy CPU µs/req | PostgreSQL CPU µs/req | PostgreSQL share of CPU |\n|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n\n${run.rows.length} runs, last / first: ${run.ratio}; one PostgreSQL core keeps up with ${run.serve_cores_per_db_core} cores of serve processes (serve CPU / PostgreSQL CPU per request): past that many, the database is the limit\n`,
    );
  }
  if (cold)
    process.stdout.write(
      `\n${cold.name}: ${cold.description}; the process had used ${cold.start_cpu_s} s of CPU when it listened\n\n| requests | n | mean ms | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n| the very first | 1 | ${cold.first_ms} | | | |\n| the first 100 | ${cold.first_100.n} | ${cold.first_100.mean} | ${cold.first_100.p50} | ${cold.first_100.p99} | ${cold.first_100.max} |\n| the rest | ${cold.rest.n} | ${cold.rest.mean} | ${cold.rest.p50} | ${cold.rest.p99} | ${cold.rest.max} |\n${cold.non_2xx ? `warning: ${cold.non_2xx} non-2xx\n` : ''}`,
    );
  for (const r of rows) {
    if (r.non_2xx > 0 || r.status >= 400)
      process.stdout.write(
        `warning: ${r.scenario} answered ${r.non_2xx} non-2xx responses (sample status ${r.status})\n`,
      );
    if (r.errors) process.stdout.write(`warning: ${r.scenario}: wrk socket errors: ${r.errors}\n`);
    if (r.warm_non_2xx)
      process.stdout.write(`warning: ${r.scenario}: ${r.warm_non_2xx} non-2xx on the warm connections\n`);
  }
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench/results/latest.json'),
    `${JSON.stringify({ date: new Date().toISOString(), database: databaseUrl.split(':')[0], connections, duration, rows, twins, cold_start: cold, scale_out: scale }, null, 2)}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  for (const child of running) child.kill('SIGTERM');
  process.exit(1);
});
