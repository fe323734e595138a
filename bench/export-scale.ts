// The export at scale, run once by hand (not part of `npm run bench`): seeds a survey of every
// question family with N responses (100 made through the API, copied by one INSERT ... SELECT),
// then writes the CSV or XLSX export to a file, reporting responses/s and the peak heap.
//   npx tsx bench/export-scale.ts --responses 1000000 --format csv [--db /tmp/export-bench.db]
// The seeded database is kept and reused by later runs with the same --db and --responses.
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { createDeps } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { checkExportAllowed, writeExportTo } from '../src/domain/exports/exports.js';
import type { ExportFormat } from '../src/domain/exports/writers.js';
import { everyFamilyPages, prng, randomAnswers } from '../test/collect/fixtures.js';
import { createAccount } from '../test/helpers/accounts.js';

const { values: args } = parseArgs({
  options: {
    responses: { type: 'string', default: '1000000' },
    format: { type: 'string', default: 'csv' },
    db: { type: 'string', default: '/tmp/export-bench.db' },
    out: { type: 'string', default: '/tmp/export-bench.out' },
  },
});
const N = Number(args.responses);
const file = `${args.db}.${N}`;
const fresh = !existsSync(file);
const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent' }));
const raw = deps.db.sqlite!;

if (fresh) {
  const app = await buildApp(deps);
  const a = await createAccount(deps, {});
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${a.token}` } });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const created = await call('POST', '/v3/surveys', { title: 'Export bench', pages: everyFamilyPages });
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
      ? `CAST(9000000000 + n.i AS TEXT)`
      : c === 'ordinal'
        ? 'n.i'
        : c === 'edit_token'
          ? `t.edit_token || n.i`
          : c === 'respondent_key'
            ? 'NULL'
            : `t.${c}`,
  );
  raw.exec('BEGIN');
  raw.exec(`DELETE FROM responses WHERE ordinal > 100`);
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
}

const survey = await deps.db.kysely
  .selectFrom('surveys')
  .selectAll()
  .where('title', '=', 'Export bench')
  .executeTakeFirstOrThrow();
const spec = { format: args.format as ExportFormat, values: 'text' as const, bom: true };
let peak = 0;
const sample = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 20);
const started = performance.now();
const cpu = process.cpuUsage();
const upTo = await checkExportAllowed(deps, true, survey, spec);
await writeExportTo(deps, survey, spec, upTo, createWriteStream(args.out));
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const cpuSeconds = (used.user + used.system) / 1e6;
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().heapUsed);
process.stdout.write(
  `${JSON.stringify({
    format: args.format,
    responses: N,
    seconds: Math.round(seconds * 10) / 10,
    responses_per_second: Math.round(N / seconds),
    // CPU time of this process: steadier than wall time on a shared machine
    cpu_seconds: Math.round(cpuSeconds * 10) / 10,
    responses_per_cpu_second: Math.round(N / cpuSeconds),
    peak_heap_mb: Math.round(peak / 1048576),
    file_mb: Math.round(statSync(args.out).size / 1048576),
  })}\n`,
);
await deps.db.close();
