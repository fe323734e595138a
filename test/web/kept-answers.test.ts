// The answers kept beside every response (response_keys, migration 0045) answer the filtered and
// compared figures of the results pages: each figure is compared with a count made from
// the API's bulk list of the responses themselves, under answer filters (a choice, any of two, a
// matrix choice in any row, an "other" choice, with status, collector and a number range), after
// every write path: concurrent posts (the group commit), edits changing answers, status and the
// whole response, a delete, a collector deleted with its responses, a backup restored into a new
// database, and an import into another instance; and the migration's backfill of the responses
// written before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as responseKeys from '../../src/db/migrations/0045_response_keys.js';
import * as answerSentiment from '../../src/db/migrations/0081_answer_sentiment.js';
import { requireUser } from '../../src/domain/accounts/users.js';
import { runImport } from '../../src/domain/import/importer.js';
import type { TestAccount } from '../helpers/accounts.js';
import { runCli, runCliJsonAsync } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const H = (heading: string) => [{ heading }];
const PAGES = [
  {
    questions: [
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Colour?'),
        answers: { choices: [{ text: 'Red' }, { text: 'Blue' }], other: [{ text: 'Other colour' }] },
      },
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: H('Fruit?'),
        answers: { choices: [{ text: 'Apple' }, { text: 'Pear' }, { text: 'Plum' }] },
      },
      {
        family: 'matrix',
        subtype: 'single',
        headings: H('Rooms'),
        answers: { rows: [{ text: 'Front' }, { text: 'Back' }], choices: [{ text: 'Yes' }, { text: 'No' }] },
      },
      {
        family: 'open_ended',
        subtype: 'numerical',
        headings: H('Age'),
        answers: { rows: [{ text: 'Age' }] },
      },
    ],
  },
];

interface Ids {
  page: string;
  colour: string;
  red: string;
  blue: string;
  other: string;
  fruit: string;
  fruits: string[];
  grid: string;
  rows: string[];
  yes: string;
  no: string;
  age: string;
  ageRow: string;
}

/** The ids of a survey's /details (the original or its imported copy). */
function idsOf(details: any): Ids {
  const [colour, fruit, grid, age] = details.pages[0].questions;
  const other = Array.isArray(colour.answers.other) ? colour.answers.other[0] : colour.answers.other;
  return {
    page: details.pages[0].id,
    colour: colour.id,
    red: colour.answers.choices[0].id,
    blue: colour.answers.choices[1].id,
    other: other.id,
    fruit: fruit.id,
    fruits: fruit.answers.choices.map((c: { id: string }) => c.id),
    grid: grid.id,
    rows: grid.answers.rows.map((r: { id: string }) => r.id),
    yes: grid.answers.choices[0].id,
    no: grid.answers.choices[1].id,
    age: age.id,
    ageRow: age.answers.rows[0].id,
  };
}

/** Response i's answers: colour red/blue/other by i % 3, fruit by the bits of i, rooms, age. */
function answersOf(ids: Ids, i: number) {
  const questions: Array<{ id: string; answers: Array<Record<string, string>> }> = [
    {
      id: ids.colour,
      answers: [
        i % 3 === 2 ? { other_id: ids.other, text: `teal ${i}` } : { choice_id: [ids.red, ids.blue][i % 3] },
      ],
    },
  ];
  const fruits = ids.fruits.filter((_, b) => (i >> b) & 1);
  if (fruits.length) questions.push({ id: ids.fruit, answers: fruits.map((c) => ({ choice_id: c })) });
  if (i % 4 !== 3)
    questions.push({
      id: ids.grid,
      answers: [{ row_id: ids.rows[i % 2], choice_id: i % 4 === 0 ? ids.yes : ids.no }],
    });
  if (i % 5 !== 4) questions.push({ id: ids.age, answers: [{ row_id: ids.ageRow, text: String(18 + i) }] });
  return [{ id: ids.page, questions }];
}

interface Row {
  status: string;
  collector: string;
  /** question id -> the answers' choice and other ids */
  chosen: Map<string, Set<string>>;
  age?: number;
}

interface Site {
  server: TestServer;
  owner: TestAccount;
  web: WebSession;
  surveyId: string;
  token: string;
  ids: Ids;
}

/** Every response as the API's bulk list gives it. */
async function scan(s: Site): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await s.server.client.get(
      `/v3/surveys/${s.surveyId}/responses/bulk?per_page=100&page=${page}`,
      {
        token: s.owner.token,
      },
    );
    expect(res.status, res.text).toBe(200);
    for (const r of res.body.data) {
      const row: Row = { status: r.response_status, collector: r.collector_id, chosen: new Map() };
      for (const p of r.pages)
        for (const q of p.questions) {
          const set = row.chosen.get(q.id) ?? new Set<string>();
          for (const a of q.answers) {
            if (a.choice_id) set.add(a.choice_id);
            if (a.other_id) set.add(a.other_id);
            if (q.id === s.ids.age) row.age = Number(a.text);
          }
          row.chosen.set(q.id, set);
        }
      out.push(row);
    }
    if (!res.body.links.next) return out;
  }
}

const cell = (text: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(text)?.[1]?.trim();
const figure = (text: string, id: string) =>
  new RegExp(`id="${id}"><span class="n">([^<]*)</span>`).exec(text)?.[1];
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every filter's figures on the analyze (compared by colour), summary and responses pages. */
async function expectFiguresAgree(s: Site): Promise<void> {
  const rows = await scan(s);
  expect(rows.length).toBeGreaterThan(0);
  const { ids } = s;
  const has = (r: Row, q: string, c: string) => r.chosen.get(q)?.has(c) ?? false;
  const collector = rows[0].collector;
  const filters: Array<{ query: string; keep: (r: Row) => boolean }> = [
    { query: '', keep: () => true },
    { query: `a=${ids.fruit}:${ids.fruits[1]}`, keep: (r) => has(r, ids.fruit, ids.fruits[1]) },
    {
      query: `a=${ids.fruit}:${ids.fruits[1]}&a=${ids.fruit}:${ids.fruits[2]}`,
      keep: (r) => has(r, ids.fruit, ids.fruits[1]) || has(r, ids.fruit, ids.fruits[2]),
    },
    { query: `a=${ids.grid}:${ids.yes}`, keep: (r) => has(r, ids.grid, ids.yes) },
    { query: `a=${ids.colour}:${ids.other}`, keep: (r) => has(r, ids.colour, ids.other) },
    {
      query: `a=${ids.fruit}:${ids.fruits[0]}&status=completed&collector=${collector}`,
      keep: (r) => has(r, ids.fruit, ids.fruits[0]) && r.status === 'completed' && r.collector === collector,
    },
    {
      query: `a=${ids.grid}:${ids.no}&min_${ids.age}=25`,
      keep: (r) => has(r, ids.grid, ids.no) && r.age !== undefined && r.age >= 25,
    },
  ];
  for (const f of filters) {
    const match = rows.filter(f.keep);
    const q = f.query ? `${f.query}&` : '';
    const page = await s.web.get(`/analyze/${s.token}?${q}compare=${ids.colour}`);
    expect(page.status).toBe(200);
    for (const g of [ids.red, ids.blue, ids.other]) {
      const group = match.filter((r) => has(r, ids.colour, g));
      expect(cell(page.text, `x-n-${g}`), `${f.query} group ${g}`).toBe(String(group.length));
      expect(cell(page.text, `x-${ids.fruit}-answered-${g}`), f.query).toBe(
        String(group.filter((r) => (r.chosen.get(ids.fruit)?.size ?? 0) > 0).length),
      );
      for (const c of ids.fruits)
        expect(cell(page.text, `x-${ids.fruit}-${c}-${g}`)?.split(' ')[0], `${f.query} ${c} in ${g}`).toBe(
          String(group.filter((r) => has(r, ids.fruit, c)).length),
        );
      const ages = group.flatMap((r) => (r.age === undefined ? [] : [r.age]));
      expect(cell(page.text, `x-${ids.age}-mean-${g}`), f.query).toBe(
        ages.length ? String(round2(ages.reduce((a, b) => a + b, 0) / ages.length)) : '—',
      );
    }
    const summary = await s.web.get(`/summary/${s.token}${f.query ? `?${f.query}` : ''}`);
    expect(figure(summary.text, 'f-total'), f.query).toBe(String(match.length));
    expect(figure(summary.text, 'f-completed'), f.query).toBe(
      String(match.filter((r) => r.status === 'completed').length),
    );
    const list = await s.web.get(`/analyze/${s.token}/responses${f.query ? `?${f.query}` : ''}`);
    expect(/id="response-count"><strong>(\d+)<\/strong>/.exec(list.text)?.[1], f.query).toBe(
      String(match.length),
    );
  }
}

async function site(server: TestServer, owner: TestAccount, surveyId: string): Promise<Site> {
  const details = (await server.client.get(`/v3/surveys/${surveyId}/details`, { token: owner.token })).body;
  const web = await signIn(server, owner);
  return {
    server,
    owner,
    web,
    surveyId,
    token: new URL(details.analyze_url).pathname.split('/').at(-1)!,
    ids: idsOf(details),
  };
}

let server: TestServer;
let main: Site;
let collectors: string[];
let responseIds: string[];
const others: TestServer[] = [];
const databases: TestDatabase[] = [];
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'ss-kept-answers-'));
  const owner = await server.account({ plan: 'premier' });
  const tk = { token: owner.token };
  const created = await server.client.post('/v3/surveys', { title: 'Kept answers', pages: PAGES }, tk);
  expect(created.status, created.text).toBe(201);
  main = await site(server, owner, created.body.id);
  collectors = [];
  for (const name of ['A', 'B'])
    collectors.push(
      (await server.client.post(`/v3/surveys/${main.surveyId}/collectors`, { type: 'weblink', name }, tk))
        .body.id,
    );
  // Concurrent posts: written together by the store's group commit.
  const posted = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      server.client.post(
        `/v3/collectors/${collectors[i % 2]}/responses`,
        { response_status: i % 3 === 1 ? 'partial' : 'completed', pages: answersOf(main.ids, i) },
        tk,
      ),
    ),
  );
  for (const r of posted) expect(r.status, r.text).toBe(201);
  responseIds = posted.map((r) => r.body.id);
});
afterAll(async () => {
  for (const s of others) await s.close();
  await server?.close();
  for (const d of databases) await d.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('answers kept beside the responses', () => {
  it('agree with the responses after concurrent posts', async () => {
    await expectFiguresAgree(main);
  });

  it('follow edits of answers, status and whole responses, a delete and a collector deleted', async () => {
    const tk = { token: main.owner.token };
    const { ids } = main;
    const path = (i: number) => `/v3/surveys/${main.surveyId}/responses/${responseIds[i]}`;
    const edit = async (i: number, method: 'patch' | 'put', body: object) => {
      const r = await server.client[method](path(i), body, tk);
      expect(r.status, r.text).toBe(200);
    };
    // Fruit answers changed (PATCH replaces the question's answers), colour to "other", a status.
    await edit(3, 'patch', {
      pages: [{ id: ids.page, questions: [{ id: ids.fruit, answers: [{ choice_id: ids.fruits[2] }] }] }],
    });
    await edit(0, 'patch', {
      pages: [
        { id: ids.page, questions: [{ id: ids.colour, answers: [{ other_id: ids.other, text: 'mauve' }] }] },
      ],
    });
    await edit(6, 'patch', { response_status: 'partial' });
    // PUT: the whole response replaced (only a colour and a room left).
    await edit(7, 'put', {
      pages: answersOf(ids, 24).map((p) => ({ ...p, questions: p.questions.slice(0, 1) })),
    });
    await edit(9, 'put', { response_status: 'completed', pages: answersOf(ids, 12) });
    await expectFiguresAgree(main);
    expect((await server.client.delete(path(5), tk)).status).toBe(200);
    await expectFiguresAgree(main);
    expect((await server.client.delete(`/v3/collectors/${collectors[1]}`, tk)).status).toBe(200);
    await expectFiguresAgree(main);
  });

  it('are restored with a backup', async () => {
    const backup = join(dir, 'kept.backup');
    const made = runCli(['backup', '--to', backup], { DATABASE_URL: server.config.databaseUrl });
    expect(made.status, made.stderr).toBe(0);
    const target = await createTestDatabase();
    databases.push(target);
    const restored = runCli(['restore', '--from', backup], { DATABASE_URL: target.url });
    expect(restored.status, restored.stderr).toBe(0);
    const copy = await startServer({ databaseUrl: target.url });
    others.push(copy);
    await expectFiguresAgree(await site(copy, main.owner, main.surveyId));
  });

  it('are written for imported responses', async () => {
    const dest = await startServer();
    others.push(dest);
    const account = await dest.account({ plan: 'premier' });
    const result = await runImport(dest.deps, {
      owner: await requireUser(dest.deps, account.user.username),
      from: server.url,
      token: main.owner.token,
      dailyBudget: 100_000,
    });
    expect(result.state).toBe('done');
    const list = await dest.client.get('/v3/surveys', { token: account.token });
    const copied = list.body.data.find((s: { title: string }) => s.title === 'Kept answers');
    expect(copied).toBeDefined();
    await expectFiguresAgree(await site(dest, account, copied.id));
  });

  it("the migration's backfill keeps the responses written before it", async () => {
    // Back to the database as it was before the migration, with the responses in it.
    const k = server.deps.db.kysely;
    await answerSentiment.down(k as unknown as Kysely<unknown>);
    await responseKeys.down(k as unknown as Kysely<unknown>);
    await sql`DELETE FROM kysely_migration WHERE name IN ('0045_response_keys', '0081_answer_sentiment')`.execute(
      k,
    );
    const migrated = await runCliJsonAsync(['migrate'], { DATABASE_URL: server.config.databaseUrl });
    expect(migrated.applied).toEqual(['0045_response_keys', '0081_answer_sentiment']);
    await expectFiguresAgree(main);
    // and the group write adds to the backfilled rows
    const more = await Promise.all(
      [31, 32, 33].map((i) =>
        server.client.post(
          `/v3/collectors/${collectors[0]}/responses`,
          { pages: answersOf(main.ids, i) },
          { token: main.owner.token },
        ),
      ),
    );
    for (const r of more) expect(r.status, r.text).toBe(201);
    await expectFiguresAgree(main);
  });
});
