// Releases an operator can tell apart and upgrade alone: the program prints its version, each
// migration says whether the older release may keep serving while it runs, the database records
// the highest release that migrated it, and a database a newer release migrated is refused by
// every verb that would use it (serve, worker, migrate) with what to do, while `migrate --status`
// still shows what this program does not know. A case-twin username stops the upgrade with the
// verb that fixes it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.js';
import { down as undo0026 } from '../../src/db/migrations/0026_account_keys.js';
import { migrations } from '../../src/db/migrations/index.js';
import { ROOT, runCli, runCliJson, startServeProcess, startWorkerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NEWER =
  'this database was migrated by a newer version (99.0.0): run that version or restore the backup';

let database: TestDatabase;
let db: Db;
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url);
  env = {
    DATABASE_URL: database.url,
    PUBLIC_URL: 'http://localhost',
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  };
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('the version', () => {
  it('is a release of its own, printed by --version and by the version verb', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(VERSION).not.toBe('0.1.0'); // every release so far said 0.1.0
    const flag = runCli(['--version'], {});
    expect(flag.stdout.trim()).toBe(VERSION);
    const verb = runCli(['version'], {});
    expect(verb.status, verb.stderr).toBe(0);
    expect(verb.stdout.trim()).toBe(VERSION);
    expect(runCliJson(['version'], {})).toEqual({ version: VERSION });
  });
});

describe('migrations and the database version', () => {
  it('migrate --status lists each pending migration with its kind, in the shape it always had', () => {
    const status = runCliJson(['migrate', '--status'], env);
    expect(status.applied).toEqual([]);
    expect(status.pending).toEqual(Object.keys(migrations));
    expect(status.pending_kinds.map((m: { name: string }) => m.name)).toEqual(status.pending);
    for (const m of status.pending_kinds) expect(['rolling-safe', 'needs-stop']).toContain(m.kind);
    const kind = (name: string) => status.pending_kinds.find((m: { name: string }) => m.name === name).kind;
    expect(kind('0039_numeric_rollup')).toBe('needs-stop');
    expect(kind('0045_response_keys')).toBe('rolling-safe');
    expect(status.unknown).toEqual([]);
    expect(status.migrated_by).toBeNull();
    const human = runCli(['migrate', '--status'], env).stdout;
    expect(human).toContain('pending  0039_numeric_rollup  needs-stop');
  });

  it('migrate records the release that migrated the database', () => {
    expect(runCliJson(['migrate'], env).applied.length).toBe(Object.keys(migrations).length);
    const status = runCliJson(['migrate', '--status'], env);
    expect(status.pending).toEqual([]);
    expect(status.migrated_by).toBe(VERSION);
    expect(status.version).toBe(VERSION);
  });

  it('a database a newer release migrated is refused by serve, worker and migrate, and status names what is unknown', async () => {
    await sql`UPDATE settings SET value = '99.0.0' WHERE key = 'migrated_by_version'`.execute(db.kysely);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9990_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      db.kysely,
    );
    const migrate = runCli(['migrate'], env);
    expect(migrate.status).not.toBe(0);
    expect(migrate.stderr).toContain(NEWER);
    const serve = startServeProcess({ ...env, PORT: String(await freePort()) });
    await expect(serve.ready).rejects.toThrow(NEWER);
    const worker = startWorkerProcess(env);
    await expect(worker.ready).rejects.toThrow(NEWER);
    // a provisioning verb too: it would migrate first
    const user = runCli(
      ['user', 'create', '--username', 'u', '--email', 'u@example.com', '--password', 'pw-pw-pw-pw'],
      env,
    );
    expect(user.status).not.toBe(0);
    expect(user.stderr).toContain(NEWER);

    const status = runCliJson(['migrate', '--status'], env);
    expect(status.migrated_by).toBe('99.0.0');
    expect(status.unknown).toEqual([
      { name: '9990_from_the_future', applied_at: '2030-01-01T00:00:00.000Z' },
    ]);
    expect(runCli(['migrate', '--status'], env).stdout).toContain('unknown  9990_from_the_future');
    // the version recorded is never lowered by an older release
    expect(
      (
        await sql<{ value: string }>`SELECT value FROM settings WHERE key = 'migrated_by_version'`.execute(
          db.kysely,
        )
      ).rows[0].value,
    ).toBe('99.0.0');
  }, 240_000);
});

describe('usernames that differ only in case', () => {
  it('stop the upgrade with the names and the verb that renames them', async () => {
    const other = await createTestDatabase();
    const direct = openDatabase(other.url);
    try {
      expect(runCli(['migrate'], { ...env, DATABASE_URL: other.url }).status).toBe(0);
      await undo0026(direct.kysely as never);
      await sql`DELETE FROM kysely_migration WHERE name = '0026_account_keys'`.execute(direct.kysely);
      for (const [id, name] of [
        ['9001', 'Clash_Name'],
        ['9002', 'clash_name'],
      ])
        await sql`INSERT INTO users (id, username, email, email_verified, password_hash, language,
          account_type, region, status, sso_connections, date_created)
          VALUES (${id}, ${name}, ${`${name}${id}@example.org`}, 1, 'x', 'en', 'basic', 'us',
          'active', '[]', '2026-01-01T00:00:00.000Z')`.execute(direct.kysely);
      const refused = runCli(['migrate'], { ...env, DATABASE_URL: other.url });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('Clash_Name, clash_name');
      expect(refused.stderr).toContain('survey-service user rename --from OLD --to NEW');
      expect(refused.stderr).toContain('survey-service user rename --from clash_name --to clash_name-2');
      // the verb the message names runs on the stopped database, and the upgrade then goes through
      const env2 = { ...env, DATABASE_URL: other.url };
      const renamed = runCli(
        ['user', 'rename', '--from', 'clash_name', '--to', 'clash_name-2', '--json'],
        env2,
      );
      expect(renamed.status, renamed.stderr).toBe(0);
      expect(JSON.parse(renamed.stdout)).toMatchObject({ from: 'clash_name', to: 'clash_name-2' });
      const migrated = runCli(['migrate'], env2);
      expect(migrated.status, migrated.stderr).toBe(0);
    } finally {
      await direct.close();
      await other.drop();
    }
  }, 120_000);
});
