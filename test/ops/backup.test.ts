// Backups while the service serves: `backup` under a write load gives a consistent copy (every
// survey's response count matches its responses), and after the load a backup restored with
// `restore` into a new, empty database holds exactly the rows of every table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.js';
import { runCli, runCliAsync, runCliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dir: string;
const targets: TestDatabase[] = [];

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'ss-backup-'));
});
afterAll(async () => {
  await server.close();
  for (const t of targets) await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function tables(db: Db): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(
          db.kysely,
        )
      : await sql<{
          name: string;
        }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(
          db.kysely,
        );
  return rows.rows.map((r) => r.name).sort();
}

/** Every row of every table, each table's rows as sorted JSON lines. */
async function snapshot(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await tables(db)) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(t)}`.execute(db.kysely);
    out[t] = rows.rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function restoredInto(file: string) {
  const target = await createTestDatabase();
  targets.push(target);
  const r = runCli(['restore', '--from', file, '--json'], { DATABASE_URL: target.url });
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).ran).toBe(true);
  return target;
}

it('backs up under load consistently, and restores every table into an empty database', async () => {
  const env = { DATABASE_URL: server.config.databaseUrl };
  const { token } = await server.account({ plan: 'premier' });
  const t = { token };
  const surveys = [];
  for (let i = 0; i < 3; i++) {
    const s = await server.client.post('/v3/surveys', { title: `Load ${i}` }, t);
    const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, t);
    surveys.push(c.body.id as string);
  }
  // Writers keep posting responses until the backup has finished.
  let loading = true;
  let written = 0;
  const writers = surveys.map(async (collector) => {
    while (loading) {
      const r = await server.client.post(`/v3/collectors/${collector}/responses`, {}, t);
      expect(r.status).toBe(201);
      written++;
    }
  });
  while (written < 20) await new Promise((r) => setTimeout(r, 20));
  const during = join(dir, 'during.backup');
  const made = await runCliAsync(['backup', '--to', during, '--json'], env);
  const writtenAtEnd = written;
  loading = false;
  await Promise.all(writers);
  expect(made.status, made.stderr).toBe(0);
  expect(JSON.parse(made.stdout)).toMatchObject({
    ran: true,
    dialect: usingPostgres ? 'postgres' : 'sqlite',
  });
  expect(writtenAtEnd).toBeGreaterThan(20); // the service kept writing while the copy was made

  // The copy made under load is one snapshot: counters agree with the rows they count.
  const first = openDatabase((await restoredInto(during)).url);
  try {
    const counts = await sql<{ id: string; response_count: number; n: number }>`
      SELECT s.id, s.response_count, (SELECT count(*) FROM responses r WHERE r.survey_id = s.id) AS n
      FROM surveys s`.execute(first.kysely);
    expect(counts.rows.length).toBe(3);
    for (const row of counts.rows) expect(Number(row.response_count)).toBe(Number(row.n));
    expect(counts.rows.reduce((sum, r) => sum + Number(r.n), 0)).toBeGreaterThan(0);
  } finally {
    await first.close();
  }

  // At rest: backup, restore, and every table holds the same rows.
  const after = join(dir, 'after.backup');
  expect(runCliJson(['backup', '--to', after], env).ran).toBe(true);
  expect(runCli(['backup', '--to', after], env).stderr).toContain('exists');
  const restored = await restoredInto(after);
  const copy = openDatabase(restored.url);
  try {
    const [source, target] = [await snapshot(server.deps.db), await snapshot(copy)];
    expect(Object.keys(target)).toEqual(Object.keys(source));
    expect(Object.keys(source).length).toBeGreaterThan(30);
    for (const table of Object.keys(source)) expect(target[table], table).toEqual(source[table]);
    expect(source.responses.length).toBe(written);
  } finally {
    await copy.close();
  }
  // A database that is not empty is refused.
  const again = runCli(['restore', '--from', after], { DATABASE_URL: restored.url });
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('not empty');
  // The restored database runs: migrations are current.
  const status = runCliJson(['migrate', '--status'], { DATABASE_URL: restored.url });
  expect(status.pending).toEqual([]);
  expect(status.applied.map((m: { name: string }) => m.name)).toContain('0001_platform');
}, 240_000); // six CLI processes from source
