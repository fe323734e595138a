// The PDF report (and the PowerPoint deck) of a large survey, run once by hand (not part of
// `npm run bench`): seeds a survey of ten questions of mixed kinds (choices, matrix, NPS, star
// rating, number, date, open text) with N responses (100 posted through the API, the rest copied by
// one INSERT ... SELECT, each posted response standing for N / 100), completes the derived rows as a
// worker does (response_keys by completeDerivedRows; the kept rollup counts and numeric rollup
// scaled by N / 100), then runs the CLI export (`survey-service export --format pdf|pptx`) under
// /usr/bin/time -v, reporting its wall time, CPU time and peak resident memory, and checks the PDF
// with pdftotext (every question, its answered count and the choice counts summing to N).
//   npm run build && npx tsx bench/report-scale.ts --responses 100000 [--db /tmp/report-bench.db]
//   [--pg postgres://postgres@127.0.0.1:5432/report_bench] [--formats pdf,pptx]
// The seeded database (a SQLite file per N, or the survey titled with N in the --pg database, which
// must exist) is kept and reused by later runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { createDeps } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { completeDerivedRows } from '../src/domain/responses/derived.js';
import { createAccount } from '../test/helpers/accounts.js';

const { values: args } = parseArgs({
  options: {
    responses: { type: 'string', default: '100000' },
    db: { type: 'string', default: '/tmp/report-bench.db' },
    out: { type: 'string', default: '/tmp/report-bench' },
    formats: { type: 'string', default: 'pdf,pptx' },
    // PostgreSQL instead of SQLite: a database URL (its survey is titled with N, kept and reused)
    pg: { type: 'string' },
  },
});
const N = Number(args.responses);
if (!(N >= 100 && N % 100 === 0)) throw new Error('--responses: a multiple of 100');
const file = `${args.db}.${N}`;
const DATABASE_URL = args.pg ?? `sqlite:${file}`;
const SECRET_KEY = 'bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const TITLE = `Report bench ${N}`;

const H = (heading: string) => [{ heading }];
const texts = (...t: string[]) => t.map((text) => ({ text }));
const QUESTIONS = [
  {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H('Which office?'),
    answers: { choices: texts('North', 'South', 'East', 'West') },
  },
  {
    family: 'multiple_choice',
    subtype: 'vertical',
    headings: H('Which perks?'),
    answers: { choices: texts('Gym', 'Lunch', 'Parking', 'Bonus', 'Remote') },
  },
  {
    family: 'single_choice',
    subtype: 'menu',
    headings: H('Which team?'),
    answers: { choices: texts('Sales', 'Support', 'Product', 'Finance', 'Legal', 'People') },
  },
  {
    family: 'matrix',
    subtype: 'single',
    headings: H('How satisfied with'),
    answers: { rows: texts('Pay', 'Hours', 'Manager'), choices: texts('Unhappy', 'Neutral', 'Happy') },
  },
  {
    family: 'matrix',
    subtype: 'rating',
    headings: H('How likely to recommend us?'),
    answers: {
      rows: texts('Likelihood'),
      choices: Array.from({ length: 11 }, (_, i) => ({ text: String(i), weight: i })),
    },
  },
  {
    family: 'matrix',
    subtype: 'rating',
    headings: H('Rate the canteen'),
    display_options: { display_type: 'emoji', display_subtype: 'star' },
    answers: {
      rows: texts('Canteen'),
      choices: [1, 2, 3, 4, 5].map((w) => ({ text: `${w} stars`, weight: w })),
    },
  },
  {
    family: 'open_ended',
    subtype: 'numerical',
    headings: H('Years with us'),
    answers: { rows: texts('Years') },
  },
  { family: 'datetime', subtype: 'date_only', headings: H('Start date'), answers: { rows: texts('Date') } },
  { family: 'open_ended', subtype: 'single', headings: H('Your role') },
  { family: 'open_ended', subtype: 'essay', headings: H('Anything else?') },
];
const COMMENTS = [
  'Great place, friendly people and good coffee',
  'The parking is terrible and the hours are long',
  'More remote days please',
  'Happy with my manager',
];

/** The parts of GET /details the answers name. */
interface Ids {
  id: string;
}
interface Details {
  pages: Array<{ id: string; questions: Array<Ids & { answers?: { choices?: Ids[]; rows?: Ids[] } }> }>;
}

function answersFor(details: Details, n: number) {
  const qs = details.pages[0].questions;
  const at = <T>(xs: T[], k: number) => xs[k % xs.length];
  const answers = qs.map((q, i) => {
    const a = { choices: q.answers?.choices ?? [], rows: q.answers?.rows ?? [] };
    const k = n * (i + 3) + (n >> 2);
    switch (i) {
      case 1:
        return a.choices
          .filter((_, c) => (n >> c) % 2 === 1 || c === n % 5)
          .map((c) => ({ choice_id: c.id }));
      case 3:
        return a.rows.map((r, j) => ({ row_id: r.id, choice_id: at(a.choices, k + j).id }));
      case 4:
      case 5:
        return [{ row_id: a.rows[0].id, choice_id: at(a.choices, k).id }];
      case 6:
        return [{ row_id: a.rows[0].id, text: String(k % 31) }];
      case 7:
        return [
          {
            row_id: a.rows[0].id,
            text: `${String(1 + (n % 12)).padStart(2, '0')}/${String(1 + (n % 28)).padStart(2, '0')}/20${String(n % 25).padStart(2, '0')}`,
          },
        ];
      case 8:
        return [{ text: at(['Engineer', 'Manager', 'Analyst', 'Designer'], k) }];
      case 9:
        return [{ text: at(COMMENTS, k) }];
      default:
        return [{ choice_id: at(a.choices, k).id }];
    }
  });
  return [{ id: details.pages[0].id, questions: qs.map((q, i) => ({ id: q.id, answers: answers[i] })) }];
}

async function seed(): Promise<void> {
  const deps = await createDeps(loadConfig({ DATABASE_URL, LOG_LEVEL: 'silent' }));
  const app = await buildApp(deps);
  const a = await createAccount(deps, {});
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${a.token}` } });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const created = await call('POST', '/v3/surveys', {
    title: TITLE,
    pages: [{ title: 'All', questions: QUESTIONS }],
  });
  const details = await call('GET', `/v3/surveys/${created.id}/details`);
  const collector = await call('POST', `/v3/surveys/${created.id}/collectors`, { type: 'weblink' });
  for (let n = 0; n < 100; n++)
    await call('POST', `/v3/collectors/${collector.id}/responses`, { pages: answersFor(details, n) });
  await app.close();
  const pg = DATABASE_URL.startsWith('postgres');
  const k = deps.db.kysely;
  const cols = pg
    ? (
        await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
          WHERE table_name = 'responses' AND table_schema = current_schema() ORDER BY ordinal_position`.execute(
          k,
        )
      ).rows.map((c) => c.name)
    : (await sql<{ name: string }>`PRAGMA table_info(responses)`.execute(k)).rows.map((c) => c.name);
  const pick = cols.map((c) =>
    c === 'id'
      ? `CAST(${9_000_000_000 + 10 * N} + n.i AS TEXT)`
      : c === 'ordinal'
        ? 'n.i'
        : c === 'edit_token'
          ? `t.edit_token || '-' || n.i`
          : c === 'respondent_key'
            ? 'NULL'
            : `t.${c}`,
  );
  const times = N / 100;
  await k.transaction().execute(async (trx) => {
    // Copy i stands for posted response ((i - 1) % 100) + 1: each posted response N / 100 times.
    const copy = sql.raw(`INSERT INTO responses (${cols.join(', ')}) SELECT ${pick.join(', ')}`);
    if (pg)
      await sql`${copy} FROM generate_series(101, ${N}::int) AS n(i)
        JOIN responses t ON t.survey_id = ${created.id} AND t.ordinal = ((n.i - 1) % 100) + 1`.execute(trx);
    else
      await sql`WITH RECURSIVE n(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM n WHERE i < ${N}) ${copy}
        FROM n CROSS JOIN responses t ON t.survey_id = ${created.id} AND t.ordinal = ((n.i - 1) % 100) + 1`.execute(
        trx,
      );
    await trx.updateTable('surveys').set({ response_count: N }).where('id', '=', created.id).execute();
    await trx.updateTable('collectors').set({ response_count: N }).where('id', '=', collector.id).execute();
    await trx
      .updateTable('survey_response_seq')
      .set({ next_ordinal: N })
      .where('survey_id', '=', created.id)
      .execute();
    await sql`UPDATE response_counts SET n = n * ${times} WHERE survey_id = ${created.id}`.execute(trx);
    await sql`UPDATE response_numbers SET n = n * ${times}, total = total * ${times}, squares = squares * ${times}
      WHERE survey_id = ${created.id}`.execute(trx);
  });
  // The copies have no response_keys rows: the worker's derived-rows pass writes them.
  const derived = await completeDerivedRows(deps);
  if (derived.response_keys !== N - 100) throw new Error(`response_keys completed: ${derived.response_keys}`);
  await sql`ANALYZE`.execute(k);
  await deps.db.close();
}

/** The seeded survey's id, if this database has one of N responses. */
async function seeded(): Promise<string | undefined> {
  if (!args.pg && !existsSync(file)) return undefined;
  const deps = await createDeps(loadConfig({ DATABASE_URL, LOG_LEVEL: 'silent' }));
  const row = await deps.db.kysely
    .selectFrom('surveys')
    .select('id')
    .where('title', '=', TITLE)
    .executeTakeFirst();
  await deps.db.close();
  return row?.id;
}

const surveyId = (await seeded()) ?? (await seedNow());

async function seedNow(): Promise<string> {
  const t = performance.now();
  await seed();
  process.stderr.write(`seeded ${N} responses in ${Math.round((performance.now() - t) / 1000)} s\n`);
  const id = await seeded();
  if (!id) throw new Error('not seeded');
  return id;
}

/** The CLI export under /usr/bin/time -v: wall and CPU seconds, peak resident set. */
function run(format: string) {
  const to = `${args.out}.${format}`;
  const command = [
    'node',
    'bin/survey-service.js',
    'export',
    '--survey',
    surveyId,
    '--format',
    format,
    '--to',
    to,
  ];
  const res = spawnSync('/usr/bin/time', ['-v', ...command], {
    env: { ...process.env, DATABASE_URL, SECRET_KEY, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`${command.join(' ')}: ${res.stderr}`);
  const field = (name: string) => res.stderr.match(new RegExp(`${name}: (.*)`))?.[1] ?? '';
  const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  return {
    format,
    responses: N,
    seconds: Math.round((m * 60 + s) * 10) / 10,
    cpu_seconds:
      Math.round(
        (Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'))) * 10,
      ) / 10,
    peak_rss_mb: Math.round(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024),
    file_kb: Math.round(statSync(to).size / 1024),
    command: `DATABASE_URL=${DATABASE_URL} /usr/bin/time -v ${command.join(' ')}`,
  };
}

/** The PDF read back: every question titled with "Answered: N"; in each one-answer question (and
 * each row of a matrix) the table's counts sum to N; the NPS groups sum to N. */
function checkPdf(pdf: string): string[] {
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const problems: string[] = [];
  const num = (s: string) => Number(s.replace(/,/g, ''));
  const titles = QUESTIONS.map((q, i) => `Q${i + 1}. ${q.headings[0].heading}`);
  for (const [i, title] of titles.entries()) {
    const start = text.indexOf(`${title}\n`);
    if (start < 0) {
      problems.push(`missing ${title}`);
      continue;
    }
    const end = i + 1 < titles.length ? text.indexOf(`${titles[i + 1]}\n`) : text.length;
    const section = text.slice(start, end);
    const answered = section.match(/Answered: ([\d,]+)/)?.[1];
    if (answered === undefined || num(answered) !== N) problems.push(`${title}: answered ${answered}`);
    if (i === 1) continue; // multiple choice: counts sum to more than N
    // Table rows "Label   count   pct%", summed per matrix row (the label before ": ").
    const sums = new Map<string, number>();
    for (const m of section.matchAll(/^\s*(.+?)\s{2,}([\d,]+)\s+[\d.]+%\s*$/gm)) {
      const row = m[1].includes(': ') ? m[1].split(': ')[0] : '';
      sums.set(row, (sums.get(row) ?? 0) + num(m[2]));
    }
    if (sums.size === 0) problems.push(`${title}: no table`);
    for (const [row, sum] of sums) if (sum !== N) problems.push(`${title} ${row}: counts sum to ${sum}`);
    if (i === 4) {
      const groups = [...section.matchAll(/^(?:Promoters|Passives|Detractors) \(.*?\)\s+([\d,]+)/gm)];
      const sum = groups.reduce((x, m) => x + num(m[1]), 0);
      if (groups.length !== 3 || sum !== N) problems.push(`${title}: NPS groups sum to ${sum}`);
    }
  }
  return problems;
}

process.stdout.write(`# ${execFileSync('uptime', { encoding: 'utf8' }).trim()}\n`);
for (const format of args.formats.split(',')) {
  const result = run(format);
  const problems = format === 'pdf' ? checkPdf(`${args.out}.pdf`) : [];
  process.stdout.write(`${JSON.stringify({ ...result, problems })}\n`);
}
process.stdout.write(`# ${execFileSync('uptime', { encoding: 'utf8' }).trim()}\n`);
