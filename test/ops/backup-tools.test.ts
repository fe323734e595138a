// Backups on PostgreSQL run pg_dump and pg_restore. A missing or failing tool is an error with the
// reason and a non-zero exit (a cron job notices), never a silent exit 0; the database password
// reaches the tools in PGPASSWORD, never on their command line (which `ps` shows to every user).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';

// Child processes run without blocking this one: a blocked test worker misses vitest's heartbeats.
const runCli = runCliAsync;
async function runCliJson(args: string[], env: Record<string, string>) {
  const r = await runCliAsync([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`survey-service ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

let dir: string;
const dbs: TestDatabase[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ss-backup-tools-'));
});
afterAll(async () => {
  for (const d of dbs) await d.drop();
  rmSync(dir, { recursive: true, force: true });
});

const PASSWORD = 'pw-in-url-9';
const withPassword = (url: string) => {
  const u = new URL(url);
  u.username ||= 'postgres';
  u.password = PASSWORD;
  return u.toString();
};

it('backup exits non-zero with the reason when pg_dump is not installed, leaving no file', async () => {
  const file = join(dir, 'missing-tool.backup');
  const r = await runCli(['backup', '--to', file], {
    DATABASE_URL: withPassword('postgres://svc@127.0.0.1:5432/surveys'),
    PATH: mkdtempSync(join(dir, 'empty-path-')),
  });
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^survey-service: pg_dump is not installed \(or not on PATH\): install/);
  expect(r.stderr).not.toContain(PASSWORD);
  expect(existsSync(file)).toBe(false);
}, 60_000);

it.skipIf(!usingPostgres)(
  'restore exits non-zero with the reason when pg_restore is not installed',
  async () => {
    const target = await createTestDatabase();
    dbs.push(target);
    const file = join(dir, 'any.backup');
    writeFileSync(file, 'PGDMP');
    const r = await runCli(['restore', '--from', file], {
      DATABASE_URL: withPassword(target.url),
      PATH: mkdtempSync(join(dir, 'empty-path-')),
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^survey-service: pg_restore is not installed \(or not on PATH\)/);
  },
  60_000,
);

/** A `name` first on PATH that records its arguments and PGPASSWORD, then runs the real tool. */
function recordingTool(bin: string, name: string): () => { argv: string; password: string } {
  const log = join(bin, `${name}.log`);
  const real = `/usr/bin/${name}`;
  writeFileSync(
    join(bin, name),
    `#!/bin/sh\nprintf '%s\\n' "$*" > '${log}'\nprintf '%s' "$PGPASSWORD" > '${log}.pw'\nexec ${real} "$@"\n`,
  );
  chmodSync(join(bin, name), 0o755);
  return () => ({ argv: readFileSync(log, 'utf8'), password: readFileSync(`${log}.pw`, 'utf8') });
}

it.skipIf(!usingPostgres)(
  'passes the password in PGPASSWORD, not on the command line, through a backup and restore',
  async () => {
    const [source, target] = [await createTestDatabase(), await createTestDatabase()];
    dbs.push(source, target);
    await runCliJson(['migrate'], { DATABASE_URL: source.url });
    const bin = mkdtempSync(join(dir, 'bin-'));
    const dump = recordingTool(bin, 'pg_dump');
    const pgRestore = recordingTool(bin, 'pg_restore');
    const env = (url: string) => ({ DATABASE_URL: withPassword(url), PATH: `${bin}:${process.env.PATH}` });

    const file = join(dir, 'round-trip.backup');
    const made = await runCliJson(['backup', '--to', file], env(source.url));
    expect(made).toMatchObject({ dialect: 'postgres', ran: true });
    expect(made.command).toContain('postgres:****@');
    expect(dump().argv).toContain(file);
    expect(dump().argv).not.toContain(PASSWORD);
    expect(dump().password).toBe(PASSWORD);

    // libpq's other place for it: a `password` query parameter
    const viaQuery = { ...env(target.url), DATABASE_URL: `${target.url}?password=${PASSWORD}` };
    expect(await runCliJson(['restore', '--from', file], viaQuery)).toMatchObject({ ran: true });
    expect(pgRestore().argv).not.toContain(PASSWORD);
    expect(pgRestore().password).toBe(PASSWORD);
    const status = await runCliJson(['migrate', '--status'], { DATABASE_URL: target.url });
    expect(status.pending).toEqual([]);
    expect(status.applied.map((m: { name: string }) => m.name)).toContain('0001_platform');

    // pg_dump failing (no such database): non-zero, its reason, and no partial file left behind
    const gone = new URL(source.url);
    gone.pathname = '/ss_no_such_database';
    const failed = join(dir, 'failed.backup');
    const r = await runCli(['backup', '--to', failed], env(gone.toString()));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^survey-service: pg_dump failed: .*ss_no_such_database/);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(existsSync(failed)).toBe(false);
  },
  240_000,
);
