// A rolling upgrade as docs/operations.md describes it, carried out for real: the previous release's
// `serve` (a process built from an earlier commit of this repository) keeps answering respondents
// while this release's `migrate` changes the same database, and after it; then this release's
// `serve` starts beside it and the old one stops. No submission may fail, every one must be kept,
// and the data this release derives from responses (response_keys, migration 0045, which the old
// release does not write) must be whole afterwards: the analyze page's filtered total equals the
// unfiltered one. The previous release is the commit before migration 0045, the most recent
// migration whose derived rows only the new code writes, so the test crosses it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.js';
import { runCliAsync, startServeProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { signIn } from '../helpers/fixtures.js';
import { freePort } from '../helpers/ports.js';
import {
  buildRelease,
  type Release,
  releaseUnavailable,
  runRelease,
  startReleaseServe,
} from '../helpers/release.js';
import { startServer } from '../helpers/server.js';

/** The commit before 0045_response_keys (333841c). */
const PREVIOUS = 'f091f1f25eba8d3249a5cd6b3f9ca4282d3c539c';
const RESPONDENTS = 6;

const unavailable = releaseUnavailable(PREVIOUS);
if (unavailable) console.warn(`upgrade test skipped: ${unavailable}`);

const dir = mkdtempSync(join(tmpdir(), 'ss-upgrade-'));
let database: TestDatabase;
let release: Release;
let env: Record<string, string>;

beforeAll(async () => {
  if (unavailable) return;
  release = buildRelease(PREVIOUS);
  database = await createTestDatabase();
  env = {
    DATABASE_URL: database.url,
    PUBLIC_URL: 'http://localhost',
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    EXPORT_DIR: join(dir, 'exports'),
    UPLOAD_DIR: join(dir, 'uploads'),
    SCRYPT_LOG_N: '10',
    // the worker's check for derived rows an older release left out runs every second here
    BACKFILL_INTERVAL_SECONDS: '1',
    // every respondent comes from 127.0.0.1: no per-address cap (0 = none)
    RESPONSES_PER_MINUTE_PER_ADDRESS: '0',
    // the respondents post at once: no time check, or they would be kept aside as flagged
    RESPONDENT_MIN_PAGE_MS: '0',
  };
}, 180_000);
afterAll(async () => {
  await database?.drop();
});

interface Submission {
  status: number;
  started: number;
  ended: number;
  detail: string;
}

/** One respondent: opens the weblink on `base` and submits its one page with a choice. */
async function respond(base: string, path: string, question: string, choice: string): Promise<Submission> {
  const started = performance.now();
  try {
    const first = await fetch(`${base}${path}`);
    const page = await first.text();
    if (first.status !== 200)
      return { status: first.status, started, ended: performance.now(), detail: page };
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
    const post = await fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: field('csrf'),
        p: field('p'),
        nav: 'done',
        [`q_${question}`]: choice,
      }),
    });
    const text = await post.text();
    return { status: post.status, started, ended: performance.now(), detail: text.slice(0, 300) };
  } catch (err) {
    return { status: 0, started, ended: performance.now(), detail: String(err) };
  }
}

describe.skipIf(!!unavailable)(
  `rolling upgrade from ${PREVIOUS.slice(0, 7)} (${usingPostgres ? 'PostgreSQL' : 'SQLite'})`,
  () => {
    it('loses no submission and leaves no derived row missing', async () => {
      // The installation as the previous release made it (its `user create` migrates first).
      const t0 = performance.now();
      const phase = (name: string) => console.log(`${name}: ${Math.round(performance.now() - t0)} ms`);
      const user = runRelease(
        release,
        [
          'user',
          'create',
          '--username',
          'owner',
          '--email',
          'owner@example.com',
          '--password',
          'correct horse battery',
          '--plan',
          'premier',
          '--json',
        ],
        env,
      );
      expect(user.status, user.stderr).toBe(0);
      const app = runRelease(
        release,
        ['app', 'create', '--owner', 'owner', '--name', 'Upgrade', '--json'],
        env,
      );
      expect(app.status, app.stderr).toBe(0);
      const token = JSON.parse(app.stdout).access_token as string;
      const oldPort = await freePort();
      const old = startReleaseServe(release, { ...env, PORT: String(oldPort), LOG_LEVEL: 'error' });
      let current: ReturnType<typeof startServeProcess> | null = null;
      const db: Db = openDatabase(database.url);
      try {
        await old.ready;
        const oldUrl = `http://127.0.0.1:${oldPort}`;
        const api = async (method: string, path: string, body?: object) => {
          const res = await fetch(`${oldUrl}${path}`, {
            method,
            headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
            body: body ? JSON.stringify(body) : undefined,
          });
          const json = (await res.json()) as any;
          expect(res.status, JSON.stringify(json)).toBeLessThan(300);
          return json;
        };
        const survey = await api('POST', '/v3/surveys', {
          title: 'Upgrade',
          pages: [
            {
              questions: [
                {
                  family: 'single_choice',
                  subtype: 'vertical',
                  headings: [{ heading: 'Colour?' }],
                  answers: { choices: [{ text: 'Red' }, { text: 'Blue' }] },
                },
              ],
            },
          ],
        });
        const details = await api('GET', `/v3/surveys/${survey.id}/details`);
        const question = details.pages[0].questions[0];
        const collector = await api('POST', `/v3/surveys/${survey.id}/collectors`, { type: 'weblink' });
        const path = new URL(collector.url).pathname;

        // Respondents answer without a pause, on the old process, until told to stop.
        const done: Submission[] = [];
        let stop = false;
        const loops = Array.from({ length: RESPONDENTS }, async (_, r) => {
          for (let i = 0; !stop; i++)
            done.push(await respond(oldUrl, path, question.id, question.answers.choices[(r + i) % 2].id));
        });
        const until = async (n: number) => {
          while (done.length < n) await new Promise((resolve) => setTimeout(resolve, 20));
        };
        try {
          phase('old serve ready');
          await until(20); // the old process has prepared its statements
          phase('20 submitted');
          const migrateStart = performance.now();
          const migrate = await runCliAsync(['migrate', '--json'], env);
          const migrateEnd = performance.now();
          expect(migrate.status, migrate.stderr).toBe(0);
          const during = done.filter((s) => s.ended > migrateStart && s.started < migrateEnd).length;
          // The old process keeps taking answers after the migration, and after this release starts.
          await until(done.length + 30);
          phase('30 more submitted');
          const newPort = await freePort();
          current = startServeProcess({ ...env, PORT: String(newPort) });
          await current.ready;
          await until(done.length + 20);
          stop = true;
          await Promise.all(loops);
          await old.stop();

          const failed = done.filter((s) => s.status !== 303 && s.status !== 200);
          console.log(
            `rolling upgrade (${db.dialect}): ${done.length} submissions, ${during} during migrate (${Math.round(migrateEnd - migrateStart)} ms), ${failed.length} errors`,
          );
          expect(failed.map((s) => `${s.status} ${s.detail}`)).toEqual([]);
          expect(during).toBeGreaterThan(0);

          // Every answer kept; the derived rows complete once this release's worker has looked.
          const count = async (table: 'responses' | 'response_keys') =>
            Number(
              (
                await sql<{
                  n: number;
                }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE survey_id = ${survey.id}`.execute(
                  db.kysely,
                )
              ).rows[0].n,
            );
          expect(await count('responses')).toBe(done.length);
          let keys = await count('response_keys');
          for (let waited = 0; keys < done.length && waited < 600; waited++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            keys = await count('response_keys');
          }
          console.log(
            `rolling upgrade (${db.dialect}): ${keys} response_keys rows for ${done.length} responses`,
          );
          expect(keys).toBe(done.length);

          // The analyze page, filtered so every response matches, counts them all.
          const web = await signIn(`http://127.0.0.1:${newPort}`, {
            username: 'owner',
            password: 'correct horse battery',
          });
          const analyzeToken = new URL(details.analyze_url).pathname.split('/').at(-1);
          const total = async (query: string) =>
            /id="total"><strong>(\d+)<\/strong>/.exec(
              (await web.get(`/analyze/${analyzeToken}${query}`)).text,
            )?.[1];
          expect(await total('')).toBe(String(done.length));
          expect(await total(`?collector=${collector.id}`)).toBe(String(done.length));
          expect(await total(`?status=completed`)).toBe(String(done.length));
        } finally {
          stop = true;
          await Promise.all(loops);
        }
      } finally {
        await old.stop();
        await current?.stop();
        await db.close();
      }
    }, 300_000);
  },
);

describe(`a table changed under a running process (${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('answers every request: a statement prepared before the change is prepared again', async () => {
    const server = await startServer();
    try {
      const owner = await server.account();
      const tk = { token: owner.token };
      const survey = await server.client.post('/v3/surveys', { title: 'Shape' }, tk);
      expect(survey.status, survey.text).toBe(201);
      const collector = await server.client.post(
        `/v3/surveys/${survey.body.id}/collectors`,
        { type: 'weblink' },
        tk,
      );
      expect(collector.status, collector.text).toBe(201);
      // Every connection of the pool prepares the survey's and the collector's reads (`select *`).
      const reads = () =>
        Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            server.client.get(
              i % 2 ? `/v3/surveys/${survey.body.id}` : `/v3/collectors/${collector.body.id}`,
              tk,
            ),
          ),
        );
      for (const r of await reads()) expect(r.status, r.text).toBe(200);
      // What a later release's migration may do while this one serves: a column more on each.
      const k = server.deps.db.kysely;
      await sql`ALTER TABLE surveys ADD COLUMN later_column TEXT`.execute(k);
      await sql`ALTER TABLE collectors ADD COLUMN later_column TEXT`.execute(k);
      for (let round = 0; round < 3; round++)
        for (const r of await reads()) expect(r.status, r.text).toBe(200);
    } finally {
      await server.close();
    }
  });
});
