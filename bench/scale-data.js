// Scale with data, not only with load (opt-in: BENCH_LARGE=1, or name the scenarios in --only).
// The same requests on a survey of 10,000 and of 1,000,000 responses, and on accounts of 100 and
// of 10,000 surveys; bench/run.js prints each large figure beside its small twin's.
//
// Provisioning goes through the API for what has rules (the survey, its collector, 100 real
// responses, a folder), then copies rows inside the database in one INSERT … SELECT each (SQLite
// only: seconds for a million rows instead of an hour of HTTP), keeping what the app keeps beside
// them consistent: the survey's and collector's counts, the ordinal sequence, the rollup counts.
import Database from 'better-sqlite3';
import pg from 'pg';
import { collectSetup, postResponses, signIn } from './collect-data.js';

const SMALL_RESPONSES = 10_000;
const LARGE_RESPONSES = Number(process.env.BENCH_LARGE_RESPONSES ?? 1_000_000);
const SMALL_SURVEYS = 100;
const LARGE_SURVEYS = Number(process.env.BENCH_LARGE_SURVEYS ?? 10_000);
/** Seeded responses are created one second apart from this instant. */
const EPOCH = Date.parse('2025-01-01T00:00:00Z') / 1000;

function sqliteOf(ctx) {
  if (!ctx.databaseUrl.startsWith('sqlite:')) throw new Error('the data-scale scenarios seed SQLite only');
  const db = new Database(ctx.databaseUrl.slice('sqlite:'.length));
  db.pragma('busy_timeout = 60000');
  return db;
}

const iso = (seconds) => new Date(seconds * 1000).toISOString();

/** A survey of every family with `count` responses (100 posted, the rest copied, a second apart). */
async function responsesSurvey(ctx, count, idBase) {
  const { details, collector } = await collectSetup(ctx);
  await postResponses(ctx, details, collector.id, 100);
  if (ctx.databaseUrl.startsWith('postgres')) {
    await copyResponsesPg(ctx, count, idBase, details.id, collector.id);
    return { surveyId: details.id, pageId: details.pages[0].id, numericPageId: details.pages[1].id, count };
  }
  const db = sqliteOf(ctx);
  try {
    const cols = db
      .prepare('PRAGMA table_info(responses)')
      .all()
      .map((c) => c.name);
    const pick = cols.map((c) => {
      if (c === 'id') return `CAST(${idBase} + n.i AS TEXT)`;
      if (c === 'ordinal') return 'n.i';
      if (c === 'edit_token') return `t.edit_token || '-' || n.i`;
      if (c === 'respondent_key') return 'NULL';
      if (c === 'date_created' || c === 'date_modified')
        return `strftime('%Y-%m-%dT%H:%M:%S.000Z', ${EPOCH} + n.i, 'unixepoch')`;
      return `t.${c}`;
    });
    const copies = db.transaction(() => {
      // CROSS JOIN keeps n the outer loop (one index lookup of a template per copy): left to itself
      // SQLite 3.53 loops over the survey's 100 responses and scans all of n for each of them,
      // count × 100 steps (the quarter of an hour a million took).
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO responses (${cols.join(', ')})
         SELECT ${pick.join(', ')} FROM n CROSS JOIN responses t ON t.survey_id = ? AND t.ordinal = ((n.i - 1) % 100) + 1`,
      ).run(count, details.id);
      // Each copy's kept answers (response_keys), as the app writes them beside the row.
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO response_keys (survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices)
         SELECT t.survey_id, n.i, t.collector_id, t.response_status,
           strftime('%Y-%m-%dT%H:%M:%S.000Z', ${EPOCH} + n.i, 'unixepoch'), t.total_time, t.keys, t.choices
         FROM n CROSS JOIN response_keys t ON t.survey_id = ? AND t.ordinal = ((n.i - 1) % 100) + 1`,
      ).run(count, details.id);
      // What the app keeps beside the rows: counts, the next ordinal, the rollups (each of the 100
      // posted responses now stands for count / 100 of them).
      db.prepare('UPDATE surveys SET response_count = ? WHERE id = ?').run(count, details.id);
      db.prepare('UPDATE collectors SET response_count = ? WHERE id = ?').run(count, collector.id);
      db.prepare('UPDATE survey_response_seq SET next_ordinal = ? WHERE survey_id = ?').run(
        count,
        details.id,
      );
      db.prepare('UPDATE response_counts SET n = n * ? WHERE survey_id = ?').run(count / 100, details.id);
    });
    copies();
  } finally {
    db.close();
  }
  return { surveyId: details.id, pageId: details.pages[0].id, numericPageId: details.pages[1].id, count };
}

/** An account of `count` surveys (50 of them in a folder, 50 titled "Quarterly review …"). */
async function surveysAccount(ctx, count, name) {
  ctx.cli([
    'user',
    'create',
    '--username',
    name,
    '--email',
    `${name}@example.com`,
    '--password',
    'bench-password',
  ]);
  const { access_token: token } = ctx.cli([
    'app',
    'create',
    '--owner',
    name,
    '--name',
    name,
    '--minute-limit',
    '0',
    '--day-limit',
    '0',
  ]);
  const survey = await ctx.http(ctx.base, 'POST', '/v3/surveys', { token, body: { title: 'Template' } });
  const folder = await ctx.http(ctx.base, 'POST', '/v3/survey_folders', { token, body: { title: 'Fifty' } });
  if (survey.status !== 201 || folder.status !== 201)
    throw new Error(`${name}: ${survey.text} ${folder.text}`);
  if (ctx.databaseUrl.startsWith('postgres'))
    await copySurveysPg(ctx, count, name, survey.json.id, folder.json.id);
  else copySurveysSqlite(ctx, count, name, survey.json.id, folder.json.id);
  // The list's total comes from survey_totals, kept beside the copies: it must count them all.
  const list = await ctx.http(ctx.base, 'GET', '/v3/surveys?per_page=1', { token });
  if (list.json?.total !== count)
    throw new Error(`${name}: the list's total is ${list.json?.total}, not ${count}`);
  return { token, folderId: folder.json.id };
}

/** surveysAccount's copies on SQLite: one INSERT … SELECT (its triggers keep survey_totals). */
function copySurveysSqlite(ctx, count, name, templateId, folderId) {
  const db = sqliteOf(ctx);
  try {
    const cols = db
      .prepare('PRAGMA table_info(surveys)')
      .all()
      .map((c) => c.name);
    const every = Math.floor(count / 50);
    const pick = cols.map((c) => {
      if (c === 'id') return `CAST(${idBaseOf(name)} + n.i AS TEXT)`;
      if (c === 'title')
        return `CASE WHEN n.i % ${every} = 1 THEN 'Quarterly review ' ELSE 'Bench survey ' END || n.i`;
      if (c === 'folder_id') return `CASE WHEN n.i % ${every} = 0 THEN ? ELSE NULL END`;
      if (c === 'preview_token' || c === 'manage_token') return `t.${c} || '-' || n.i`;
      if (c === 'date_created' || c === 'date_modified')
        return `strftime('%Y-%m-%dT%H:%M:%S.000Z', ${EPOCH} + n.i * 60, 'unixepoch')`;
      return `t.${c}`;
    });
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO surveys (${cols.join(', ')}) SELECT ${pick.join(', ')} FROM n JOIN surveys t ON t.id = ?`,
    ).run(count - 1, folderId, templateId);
  } finally {
    db.close();
  }
}

/** Where each seeded account's survey ids start (apart from each other and from the responses'). */
function idBaseOf(name) {
  return { bigacct: 6_000_000_000, kacct: 6_500_000_000, hugeacct: 8_000_000_000 }[name] ?? 5_000_000_000;
}

const memo = new Map();
/** Each data set is made once per run, whichever of its scenarios comes first. */
function once(key, make) {
  if (!memo.has(key)) memo.set(key, make());
  return memo.get(key);
}

/** The survey of `count` responses with everything the app keeps beside them, the numeric rollup
 * included (every scenario reading it sees the same data: the analyze page shows its statistics). */
function responsesData(ctx, size, count, idBase) {
  return once(`responses-${size}`, async () => {
    const data = await responsesSurvey(ctx, count, idBase);
    await scaleNumbers(ctx, data.surveyId, count);
    return data;
  });
}

const responsesScenarios = (size, count, idBase) => {
  const data = (ctx) => responsesData(ctx, size, count, idBase);
  const label = count.toLocaleString('en');
  // A window of 1,000 seeded responses in the middle, the same size at both scales.
  const mid = EPOCH + Math.floor(count / 2);
  return [
    {
      // The first page's questions (choices, demographic): counted as responses arrive. The
      // second page's numerical question has its own twin (data_rollups_numeric_*).
      name: `data_rollups_${size}`,
      description: `GET /v3/surveys/{id}/pages/{id}/rollups (counted questions) of a survey of ${label} responses`,
      prepare: async (ctx) => {
        const { surveyId, pageId } = await data(ctx);
        return { path: `/v3/surveys/${surveyId}/pages/${pageId}/rollups` };
      },
    },
    {
      name: `data_responses_by_date_${size}`,
      description: `GET /v3/surveys/{id}/responses?start_created_at&end_created_at (1,000 of ${label} match), 100 a page`,
      prepare: async (ctx) => ({
        path: `/v3/surveys/${(await data(ctx)).surveyId}/responses?per_page=100&start_created_at=${iso(mid).slice(0, 19)}&end_created_at=${iso(mid + 999).slice(0, 19)}`,
      }),
    },
    {
      name: `data_bulk_first_page_${size}`,
      description: `GET /v3/surveys/{id}/responses/bulk?per_page=100, page 1 of ${label}`,
      prepare: async (ctx) => ({
        path: `/v3/surveys/${(await data(ctx)).surveyId}/responses/bulk?per_page=100&page=1`,
        unit: 100,
      }),
    },
    {
      name: `data_bulk_deep_page_${size}`,
      description: `GET …/responses/bulk?per_page=100 at offset ${(count * 0.99).toLocaleString('en')} of ${label}`,
      prepare: async (ctx) => ({
        path: `/v3/surveys/${(await data(ctx)).surveyId}/responses/bulk?per_page=100&page=${(count * 0.99) / 100 + 1}`,
        unit: 100,
      }),
    },
  ];
};

/** surveysAccount's copies on PostgreSQL: the same rows, in one INSERT … SELECT over generate_series. */
async function copySurveysPg(ctx, count, name, templateId, folderId) {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'surveys' AND table_schema = current_schema() ORDER BY ordinal_position",
    );
    const cols = rows.map((r) => r.column_name);
    const every = Math.floor(count / 50);
    const pick = cols.map((c) => {
      if (c === 'id') return `CAST(${idBaseOf(name)} + n.i AS TEXT)`;
      if (c === 'title')
        return `CASE WHEN n.i % ${every} = 1 THEN 'Quarterly review ' ELSE 'Bench survey ' END || n.i`;
      if (c === 'folder_id') return `CASE WHEN n.i % ${every} = 0 THEN $1 ELSE NULL END`;
      if (c === 'preview_token' || c === 'manage_token') return `t.${c} || '-' || n.i`;
      if (c === 'date_created' || c === 'date_modified')
        return `to_char(to_timestamp(${EPOCH} + n.i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;
      return `t.${c}`;
    });
    // survey_totals' deferred row trigger (migration 0041) updates the owner's one row once per
    // copy at commit: 100,000 versions of one row in one transaction took over three minutes here.
    // So the copy runs with the trigger off and adds to the row what the trigger would have (one
    // to its count and its stamp per survey), all in one transaction: no other session sees the
    // table without its trigger or the copies without their count.
    await client.query('BEGIN');
    await client.query('ALTER TABLE surveys DISABLE TRIGGER survey_totals');
    await client.query(
      `INSERT INTO surveys (${cols.join(', ')}) SELECT ${pick.join(', ')}
       FROM generate_series(1, $2::int) AS n(i) JOIN surveys t ON t.id = $3`,
      [folderId, count - 1, templateId],
    );
    await client.query('ALTER TABLE surveys ENABLE TRIGGER survey_totals');
    await client.query(
      'UPDATE survey_totals SET surveys = surveys + $1, stamp = stamp + $1 WHERE owner_id = (SELECT owner_id FROM surveys WHERE id = $2)',
      [count - 1, templateId],
    );
    await client.query('COMMIT');
    // What autovacuum does after a bulk load: statistics, and the GIN pending list flushed into the
    // trigram index (until then the planner prices the index too high and scans the account).
    await client.query('VACUUM ANALYZE surveys');
  } finally {
    await client.end();
  }
}

const surveysScenarios = (size, count, user) => {
  const data = (ctx) => once(`surveys-${size}`, () => surveysAccount(ctx, count, user));
  const label = count.toLocaleString('en');
  return [
    {
      name: `data_surveys_list_${size}`,
      description: `GET /v3/surveys?per_page=50 of an account of ${label} surveys`,
      prepare: async (ctx) => {
        const { token } = await data(ctx);
        return { path: '/v3/surveys?per_page=50&include=date_modified,question_count', token, unit: 50 };
      },
    },
    {
      name: `data_surveys_search_${size}`,
      description: `GET /v3/surveys?title=quarterly (50 of ${label} match)`,
      prepare: async (ctx) => {
        const { token } = await data(ctx);
        return { path: '/v3/surveys?per_page=50&title=quarterly', token, unit: 50 };
      },
    },
    {
      name: `data_surveys_folder_${size}`,
      description: `GET /v3/surveys?folder_id= (a folder of 50 among ${label} surveys)`,
      prepare: async (ctx) => {
        const { token, folderId } = await data(ctx);
        return { path: `/v3/surveys?per_page=50&folder_id=${folderId}`, token, unit: 50 };
      },
    },
  ];
};

const twin = (small, large) =>
  small.flatMap((s, i) => [
    { ...s, optIn: true, noFloor: true, target: 'the 1x data twin' },
    {
      ...large[i],
      optIn: true,
      noFloor: true,
      scaleOf: s.name,
      target: large[i].name.includes('deep_page')
        ? '>= 0.8 of page 1 at the same scale; flat against the small twin'
        : 'flat: the same throughput as its small twin',
    },
  ]);

export const dataScenarios = [
  ...twin(
    responsesScenarios('10k', SMALL_RESPONSES, 7_000_000_000),
    responsesScenarios('1m', LARGE_RESPONSES, 9_000_000_000),
  ),
  ...twin(
    surveysScenarios('100', SMALL_SURVEYS, 'smallacct'),
    surveysScenarios('10k', LARGE_SURVEYS, 'bigacct'),
  ),
];

// The numerical question's rollup: the second page of the responses survey (a matrix,
// a menu, an essay, a date and the numerical question, whose min/max/mean/median/std come from
// response_numbers, kept as responses are written). The seeded copies bypass the app, so the
// numeric rollup of the 100 posted responses is scaled as responsesSurvey scales response_counts
// (each posted response stands for count / 100), by responsesData for every scenario.
async function scaleNumbers(ctx, surveyId, count) {
  const k = count / 100;
  if (ctx.databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      await client.query(
        'UPDATE response_numbers SET n = n * $1, total = total * $1, squares = squares * $1 WHERE survey_id = $2',
        [k, surveyId],
      );
    } finally {
      await client.end();
    }
    return;
  }
  const db = sqliteOf(ctx);
  try {
    db.prepare(
      'UPDATE response_numbers SET n = n * ?, total = total * ?, squares = squares * ? WHERE survey_id = ?',
    ).run(k, k, k, surveyId);
  } finally {
    db.close();
  }
}

const numericRollupScenario = (size, count, idBase) => ({
  name: `data_rollups_numeric_${size}`,
  description: `GET /v3/surveys/{id}/pages/{id}/rollups (a numerical question's statistics, and counted ones) of a survey of ${count.toLocaleString('en')} responses`,
  prepare: async (ctx) => {
    const data = await responsesData(ctx, size, count, idBase);
    return { path: `/v3/surveys/${data.surveyId}/pages/${data.numericPageId}/rollups` };
  },
});

dataScenarios.push(
  ...twin(
    [numericRollupScenario('10k', SMALL_RESPONSES, 7_000_000_000)],
    [numericRollupScenario('1m', LARGE_RESPONSES, 9_000_000_000)],
  ),
);

// The survey list's total at 100x the data: accounts of 1,000 and of 100,000 surveys,
// seeded on SQLite or PostgreSQL alike (surveysAccount). The request shows response_count, so its
// answer is never remembered (domain/surveys surveyListAnswer): each one reads the page from the
// (owner_id, date_modified) index and the total from survey_totals, which is what must stay flat.
const TOTAL_SURVEYS = Number(process.env.BENCH_TOTAL_SURVEYS ?? 100_000);
const surveysTotalScenario = (size, count, user) => ({
  name: `data_surveys_total_${size}`,
  description: `GET /v3/surveys?per_page=50&include=response_count (not remembered: page and total read) of an account of ${count.toLocaleString('en')} surveys`,
  prepare: async (ctx) => {
    const { token } = await once(`surveys-total-${size}`, () => surveysAccount(ctx, count, user));
    return { path: '/v3/surveys?per_page=50&include=response_count,date_modified', token, unit: 50 };
  },
});
dataScenarios.push(
  ...twin(
    [surveysTotalScenario('1k', 1_000, 'kacct')],
    [surveysTotalScenario('100k', TOTAL_SURVEYS, 'hugeacct')],
  ).map((s) => (s.scaleOf ? { ...s, target: 'flat: at most 2x the CPU per request of its 1x twin' } : s)),
);

// ---------------------------------------------------------------------------------------------
// Pages and contacts with data: the analyze, summary and
// responses pages of the 10k and 1M surveys above, the analyze page filtered by an answer and
// compared by a question over 100,000 responses, and the contact list and search of accounts of
// 1,000 and 100,000 contacts.

/** responsesSurvey's copies on PostgreSQL: the same rows, counts and rollups, then VACUUM ANALYZE. */
async function copyResponsesPg(ctx, count, idBase, surveyId, collectorId) {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'responses' AND table_schema = current_schema() ORDER BY ordinal_position",
    );
    const cols = rows.map((r) => r.column_name);
    const pick = cols.map((c) => {
      if (c === 'id') return `CAST(${idBase}::bigint + n.i AS TEXT)`;
      if (c === 'ordinal') return 'n.i';
      if (c === 'edit_token') return `t.edit_token || '-' || n.i`;
      if (c === 'respondent_key') return 'NULL';
      if (c === 'date_created' || c === 'date_modified')
        return `to_char(to_timestamp(${EPOCH} + n.i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;
      return `t.${c}`;
    });
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO responses (${cols.join(', ')}) SELECT ${pick.join(', ')}
       FROM generate_series(101, $1::int) AS n(i) JOIN responses t ON t.survey_id = $2 AND t.ordinal = ((n.i - 1) % 100) + 1`,
      [count, surveyId],
    );
    // Each copy's kept answers (response_keys), as the app writes them beside the row.
    await client.query(
      `INSERT INTO response_keys (survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices)
       SELECT t.survey_id, n.i, t.collector_id, t.response_status,
         to_char(to_timestamp(${EPOCH} + n.i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'), t.total_time, t.keys, t.choices
       FROM generate_series(101, $1::int) AS n(i) JOIN response_keys t ON t.survey_id = $2 AND t.ordinal = ((n.i - 1) % 100) + 1`,
      [count, surveyId],
    );
    await client.query('UPDATE surveys SET response_count = $1 WHERE id = $2', [count, surveyId]);
    await client.query('UPDATE collectors SET response_count = $1 WHERE id = $2', [count, collectorId]);
    await client.query('UPDATE survey_response_seq SET next_ordinal = $1 WHERE survey_id = $2', [
      count,
      surveyId,
    ]);
    await client.query('UPDATE response_counts SET n = n * $1 WHERE survey_id = $2', [count / 100, surveyId]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE responses');
    await client.query('VACUUM ANALYZE response_counts');
    await client.query('VACUUM ANALYZE response_keys');
  } finally {
    await client.end();
  }
}

/** The survey's manage token (its analyze_url names it). */
async function manageToken(ctx, surveyId) {
  const s = await ctx.http(ctx.base, 'GET', `/v3/surveys/${surveyId}`, { token: ctx.token });
  return new URL(s.json.analyze_url).pathname.split('/').at(-1);
}

const pageScenarios = (size, count, idBase) => {
  const data = (ctx) => responsesData(ctx, size, count, idBase);
  const label = count.toLocaleString('en');
  const page = (name, description, path) => ({
    name,
    description,
    prepare: async (ctx) => {
      const { surveyId } = await data(ctx);
      const token = await manageToken(ctx, surveyId);
      const cookie = await once('bench-session', () => signIn(ctx));
      // Four connections: the large twin's pages may take a while before they are flat.
      return { path: path(token), headers: { cookie }, connections: 4, timeout: 30 };
    },
  });
  return [
    page(
      `data_analyze_${size}`,
      `GET /analyze/{token}: the analyze page of a survey of ${label} responses`,
      (t) => `/analyze/${t}`,
    ),
    page(
      `data_summary_${size}`,
      `GET /summary/{token}: the summary page of ${label} responses`,
      (t) => `/summary/${t}`,
    ),
    page(
      `data_responses_page_${size}`,
      `GET /analyze/{token}/responses: the first page (50, newest first) of ${label} responses`,
      (t) => `/analyze/${t}/responses`,
    ),
  ];
};

/** The analyze page over 100,000 responses, filtered by an answer and compared by a question. */
const filteredScenario = {
  name: 'data_analyze_filtered_100k',
  description:
    'GET /analyze/{token}?a=<fruit>:<apple>&compare=<colour>: answer filter and compare over 100,000 responses',
  optIn: true,
  noFloor: true,
  target: '#27: under 1 s (latency p50/p99, CPU per request)',
  prepare: async (ctx) => {
    const { surveyId } = await responsesData(ctx, '100k', 100_000, 8_000_000_000);
    const details = (await ctx.http(ctx.base, 'GET', `/v3/surveys/${surveyId}/details`, { token: ctx.token }))
      .json;
    const [colour, fruit] = details.pages[0].questions;
    const token = await manageToken(ctx, surveyId);
    const cookie = await once('bench-session', () => signIn(ctx));
    // The bench answers pick Apple in every response and Pear in every other one: filter by Pear.
    const pear = fruit.answers.choices[1].id;
    return {
      path: `/analyze/${token}?a=${fruit.id}:${pear}&compare=${colour.id}`,
      headers: { cookie },
      connections: 1,
      timeout: 30,
    };
  },
};

/** An account of `count` contacts, 50 of them at findme.example.com (one posted, the rest copied). */
async function contactsAccount(ctx, count, name, idBase) {
  ctx.cli([
    'user',
    'create',
    '--username',
    name,
    '--email',
    `${name}@example.com`,
    '--password',
    'bench-password',
    '--plan',
    'enterprise',
  ]);
  const { access_token: token } = ctx.cli([
    'app',
    'create',
    '--owner',
    name,
    '--name',
    name,
    '--minute-limit',
    '0',
    '--day-limit',
    '0',
  ]);
  const first = await ctx.http(ctx.base, 'POST', '/v3/contacts', {
    token,
    body: { first_name: 'Template', last_name: 'Contact', email: 'template@example.com' },
  });
  if (first.status !== 201) throw new Error(`${name}: ${first.text}`);
  const every = Math.floor(count / 50);
  const email = (i) =>
    `'c' || ${i} || CASE WHEN ${i} % ${every} = 1 THEN '@findme.example.com' ELSE '@example.com' END`;
  if (ctx.databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'contacts' AND table_schema = current_schema() ORDER BY ordinal_position",
      );
      const cols = rows.map((r) => r.column_name);
      const pick = cols.map((c) => {
        if (c === 'id') return `CAST(${idBase}::bigint + n.i AS TEXT)`;
        if (c === 'email') return email('n.i');
        if (c === 'first_name') return `'First ' || n.i`;
        return `t.${c}`;
      });
      await client.query(
        `INSERT INTO contacts (${cols.join(', ')}) SELECT ${pick.join(', ')}
         FROM generate_series(1, $1::int) AS n(i) JOIN contacts t ON t.id = $2`,
        [count - 1, first.json.id],
      );
      await client.query('VACUUM ANALYZE contacts');
    } finally {
      await client.end();
    }
    return { token };
  }
  const db = sqliteOf(ctx);
  try {
    const cols = db
      .prepare('PRAGMA table_info(contacts)')
      .all()
      .map((c) => c.name);
    const pick = cols.map((c) => {
      if (c === 'id') return `CAST(${idBase} + n.i AS TEXT)`;
      if (c === 'email') return email('n.i');
      if (c === 'first_name') return `'First ' || n.i`;
      return `t.${c}`;
    });
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO contacts (${cols.join(', ')}) SELECT ${pick.join(', ')} FROM n JOIN contacts t ON t.id = ?`,
    ).run(count - 1, first.json.id);
  } finally {
    db.close();
  }
  return { token };
}

const contactsScenarios = (size, count, name, idBase) => {
  const data = (ctx) => once(`contacts-${size}`, () => contactsAccount(ctx, count, name, idBase));
  const label = count.toLocaleString('en');
  return [
    {
      name: `data_contacts_list_${size}`,
      description: `GET /v3/contacts?per_page=50 (first page and total) of an account of ${label} contacts`,
      prepare: async (ctx) => ({
        path: '/v3/contacts?per_page=50',
        token: (await data(ctx)).token,
        unit: 50,
      }),
    },
    {
      name: `data_contacts_search_${size}`,
      description: `GET /v3/contacts?search=findme (50 of ${label} match)`,
      prepare: async (ctx) => ({
        path: '/v3/contacts?per_page=50&search_by=email&search=findme',
        token: (await data(ctx)).token,
        unit: 50,
      }),
    },
  ];
};

dataScenarios.push(
  ...twin(
    pageScenarios('10k', SMALL_RESPONSES, 7_000_000_000),
    pageScenarios('1m', LARGE_RESPONSES, 9_000_000_000),
  ),
  filteredScenario,
  ...twin(
    contactsScenarios('1k', 1_000, 'contacts1k', 3_000_000_000),
    contactsScenarios(
      '100k',
      Number(process.env.BENCH_LARGE_CONTACTS ?? 100_000),
      'contacts100k',
      4_000_000_000,
    ),
  ),
);
