// The account archive at scale, run once by hand (not part of `npm run bench`): seeds an account
// with a survey of every question family and N responses (100 made through the API, copied by one
// INSERT ... SELECT), then runs `survey-service account export` and `account import` (into a second
// account) as operators do, each under /usr/bin/time -v, and reports time and peak RSS of each.
//   npm run build && npx tsx bench/archive-scale.ts --responses 100000 [--db /tmp/archive-bench.db]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { createDeps } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { everyFamilyPages, prng, randomAnswers } from '../test/collect/fixtures.js';
import { createAccount } from '../test/helpers/accounts.js';

const { values: args } = parseArgs({
  options: {
    responses: { type: 'string', default: '100000' },
    db: { type: 'string', default: '/tmp/archive-bench.db' },
  },
});
const N = Number(args.responses);
const file = `${args.db}.${N}.${process.pid}`;
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${file}`,
  UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'archive-bench-uploads-')),
  LOG_LEVEL: 'silent',
};
const deps = await createDeps(loadConfig({ DATABASE_URL: env.DATABASE_URL, LOG_LEVEL: 'silent' }));
const raw = deps.db.sqlite!;
const app = await buildApp(deps);
const a = await createAccount(deps, {});
const target = await createAccount(deps, {});
const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${a.token}` } });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const created = await call('POST', '/v3/surveys', { title: 'Archive bench', pages: everyFamilyPages });
const details = await call('GET', `/v3/surveys/${created.id}/details`);
const collector = await call('POST', `/v3/surveys/${created.id}/collectors`, { type: 'weblink' });
const r = prng(1);
for (let n = 0; n < 100; n++)
  await call('POST', `/v3/collectors/${collector.id}/responses`, {
    pages: randomAnswers(details, r, n),
    custom_value: `c${n}`,
  });
const cols = (raw.prepare('PRAGMA table_info(responses)').all() as Array<{ name: string }>).map(
  (c) => c.name,
);
const pick = cols.map((c) =>
  c === 'id'
    ? 'CAST(9000000000 + n.i AS TEXT)'
    : c === 'ordinal'
      ? 'n.i'
      : c === 'edit_token'
        ? 't.edit_token || n.i'
        : c === 'respondent_key'
          ? 'NULL'
          : `t.${c}`,
);
raw.exec('BEGIN');
raw
  .prepare(
    `WITH RECURSIVE n(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO responses (${cols.join(', ')})
     SELECT ${pick.join(', ')} FROM n JOIN responses t ON t.survey_id = ? AND t.ordinal = (n.i % 100) + 1`,
  )
  .run(N, created.id);
raw.prepare('UPDATE surveys SET response_count = ? WHERE id = ?').run(N, created.id);
raw.prepare('UPDATE survey_response_seq SET next_ordinal = ? WHERE survey_id = ?').run(N, created.id);
raw.exec('COMMIT');
await app.close();
await deps.db.close();

/** Runs a verb under /usr/bin/time -v: its seconds and peak resident set (MB). */
function timed(verb: string[]): { seconds: number; peakMb: number } {
  const started = Date.now();
  const res = spawnSync('/usr/bin/time', ['-v', process.execPath, 'dist/main.js', ...verb], {
    env,
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`${verb.join(' ')}: ${res.stderr}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(res.stderr)?.[1]);
  return { seconds: (Date.now() - started) / 1000, peakMb: Math.round(kb / 1024) };
}

const zip = `${file}.zip`;
const out = timed(['account', 'export', '--owner', a.user.username, '--to', zip]);
const size = Math.round(statSync(zip).size / 1024 / 1024);
console.log(
  `export: ${N} responses in ${out.seconds} s (${Math.round(N / out.seconds)}/s), peak RSS ${out.peakMb} MB, ${size} MB zip`,
);
const into = timed(['account', 'import', '--owner', target.user.username, '--from', zip]);
console.log(
  `import: ${N} responses in ${into.seconds} s (${Math.round(N / into.seconds)}/s), peak RSS ${into.peakMb} MB`,
);
for (const f of [file, `${file}-wal`, `${file}-shm`, zip]) rmSync(f, { force: true });
