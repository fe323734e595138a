// What N responses cost on disk and in memory: starts `survey-service serve` (the worker in it, as
// shipped) on a new database, posts responses through the API (--posted of them; the rest to N are
// copied inside the database, as the bench's data-scale seeding does) to the bench's survey (every
// question family, bench/collect-data.js), then prints the database's growth (SQLite: the file and
// its WAL after a checkpoint; PostgreSQL: pg_database_size) and the serve process's resident memory
// (before, its peak while collecting, and after reading the results: rollups, a bulk page, an export).
//   node scripts/footprint-responses.mjs [--responses 100000] [--posted 2000] [--database-url postgres://…/db]
// PostgreSQL: give an empty database (createdb footprint); SQLite: a new temporary file is used.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { answersFor, benchPages } from '../bench/collect-data.js';

const { values: args } = parseArgs({
  options: {
    responses: { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    // Responses posted through the API; the rest up to --responses are copies of them made inside
    // the database (as the bench's data-scale seeding does: the rows and their response_keys).
    posted: { type: 'string' },
  },
});
const N = Number(args.responses);
const POSTED = Math.min(N, Number(args.posted ?? N));
const root = new URL('..', import.meta.url).pathname;
const entry = existsSync(join(root, 'dist/main.js')) ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
const dir = mkdtempSync(join(tmpdir(), 'ss-footprint-'));
const databaseUrl = args['database-url'] ?? `sqlite:${join(dir, 'db.sqlite')}`;
const env = { ...process.env, DATABASE_URL: databaseUrl, MAIL_DIR: join(dir, 'mail'), LOG_LEVEL: 'silent' };
const cli = (verb) => {
  const r = spawnSync(process.execPath, [...entry, ...verb, '--json'], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
};

async function dbBytes() {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    const db = new Database(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
  }
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query('VACUUM ANALYZE');
    return Number((await c.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
  } finally {
    await c.end();
  }
}

/** Copies the posted responses up to N (ordinals POSTED+1..N), with their response_keys rows. */
async function copyResponses(surveyId, collectorId) {
  const pick = (cols, i, stamp) =>
    cols.map((c) => {
      if (c === 'id') return `CAST(7000000000 + ${i} AS TEXT)`;
      if (c === 'ordinal') return i;
      if (c === 'edit_token') return `t.edit_token || '-' || ${i}`;
      if (c === 'respondent_key') return 'NULL';
      if (c === 'date_created' || c === 'date_modified') return stamp;
      return `t.${c}`;
    });
  const keys = `survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices`;
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    db.pragma('busy_timeout = 60000');
    const cols = db
      .prepare('PRAGMA table_info(responses)')
      .all()
      .map((c) => c.name);
    const series = `WITH RECURSIVE n(i) AS (SELECT ${POSTED + 1} UNION ALL SELECT i + 1 FROM n WHERE i < ${N})`;
    const join = `FROM n CROSS JOIN TABLE t ON t.survey_id = '${surveyId}' AND t.ordinal = ((n.i - 1) % ${POSTED}) + 1`;
    db.transaction(() => {
      db.exec(`${series} INSERT INTO responses (${cols.join(', ')})
        SELECT ${pick(cols, 'n.i', 't.date_created').join(', ')} ${join.replace('TABLE', 'responses')}`);
      db.exec(`${series} INSERT INTO response_keys (${keys})
        SELECT t.survey_id, n.i, t.collector_id, t.response_status, t.date_created, t.total_time, t.keys, t.choices
        ${join.replace('TABLE', 'response_keys')}`);
      db.prepare('UPDATE surveys SET response_count = ? WHERE id = ?').run(N, surveyId);
      db.prepare('UPDATE collectors SET response_count = ? WHERE id = ?').run(N, collectorId);
      db.prepare('UPDATE survey_response_seq SET next_ordinal = ? WHERE survey_id = ?').run(N, surveyId);
    })();
    db.close();
    return;
  }
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'responses' AND table_schema = current_schema() ORDER BY ordinal_position",
    );
    const cols = rows.map((r) => r.column_name);
    const join = `FROM generate_series(${POSTED + 1}, ${N}) AS n(i) JOIN TABLE t ON t.survey_id = '${surveyId}' AND t.ordinal = ((n.i - 1) % ${POSTED}) + 1`;
    await c.query('BEGIN');
    await c.query(`INSERT INTO responses (${cols.join(', ')})
      SELECT ${pick(cols, 'n.i', 't.date_created').join(', ')} ${join.replace('TABLE', 'responses')}`);
    await c.query(`INSERT INTO response_keys (${keys})
      SELECT t.survey_id, n.i, t.collector_id, t.response_status, t.date_created, t.total_time, t.keys, t.choices
      ${join.replace('TABLE', 'response_keys')}`);
    await c.query('UPDATE surveys SET response_count = $1 WHERE id = $2', [N, surveyId]);
    await c.query('UPDATE collectors SET response_count = $1 WHERE id = $2', [N, collectorId]);
    await c.query('UPDATE survey_response_seq SET next_ordinal = $1 WHERE survey_id = $2', [N, surveyId]);
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
}

cli(['migrate']);
cli([
  'user',
  'create',
  '--username',
  'footprint',
  '--email',
  'f@example.org',
  '--password',
  'footprint pw',
  '--plan',
  'enterprise',
]);
const { access_token: token } = cli([
  'app',
  'create',
  '--owner',
  'footprint',
  '--name',
  'footprint',
  '--minute-limit',
  '0',
  '--day-limit',
  '0',
]);
const empty = await dbBytes();

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const serve = spawn(process.execPath, ['--max-semi-space-size=64', ...entry, 'serve'], {
  cwd: root,
  env: { ...env, PORT: String(port), HOST: '127.0.0.1', RESPONSES_PER_MINUTE_PER_COLLECTOR: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve, reject) => {
  serve.stdout.on('data', (c) => String(c).includes('listening') && resolve());
  serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
const kb = (name) =>
  Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${serve.pid}/status`, 'utf8'))[1]);
const mb = (k) => Math.round(k / 1024);
async function call(method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

try {
  const survey = await call('POST', '/v3/surveys', { title: 'Footprint', pages: benchPages });
  const details = await call('GET', `/v3/surveys/${survey.id}/details`);
  const collector = await call('POST', `/v3/surveys/${survey.id}/collectors`, { type: 'weblink' });
  const rssBefore = kb('VmRSS');
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(args.concurrency) }, async () => {
      while (next < POSTED) {
        const n = next++;
        await call('POST', `/v3/collectors/${collector.id}/responses`, { pages: answersFor(details, n) });
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const peakCollecting = kb('VmHWM');
  if (N > POSTED) await copyResponses(survey.id, collector.id);
  for (const p of details.pages) await call('GET', `/v3/surveys/${survey.id}/pages/${p.id}/rollups`);
  await call('GET', `/v3/surveys/${survey.id}/responses/bulk?per_page=100`);
  await call('GET', `/v3/surveys/${survey.id}/responses?per_page=1000`);
  const full = await dbBytes();
  console.log(
    JSON.stringify({
      dialect: databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres',
      responses: N,
      posted: POSTED,
      posted_per_second: Math.round(POSTED / seconds),
      db_bytes_empty: empty,
      db_bytes_full: full,
      db_mb_per_100k: Math.round(((full - empty) / 1024 / 1024) * (100_000 / N)),
      serve_rss_mb_before: mb(rssBefore),
      serve_peak_rss_mb_collecting: mb(peakCollecting),
      serve_rss_mb_after_reading: mb(kb('VmRSS')),
      serve_peak_rss_mb: mb(kb('VmHWM')),
      entry: entry.join(' '),
    }),
  );
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
