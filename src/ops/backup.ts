// Backups: a consistent online copy while the service serves, and a restore into an empty
// database. SQLite: `VACUUM INTO` reads one snapshot (WAL readers never block writers) and writes
// a compact copy. PostgreSQL: pg_dump's custom format (one snapshot too) and pg_restore. A missing
// or failing tool is an error (the verb exits non-zero with the reason, so a cron job notices), and
// the password goes to the tool in PGPASSWORD, never on its command line (where `ps` shows it).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { dialectOf } from '../db/database.js';

export interface BackupResult {
  dialect: 'sqlite' | 'postgres';
  file: string;
  /** The command that made the copy, with the password masked (PostgreSQL). */
  command?: string;
  /** Always true: a copy that could not be made is an error (kept for scripts that read it). */
  ran: boolean;
  bytes?: number;
}

function sqliteFile(url: string): string {
  const file = url.slice('sqlite:'.length);
  if (!file || file === ':memory:') throw new Error('an in-memory SQLite database cannot be backed up');
  return file;
}

function masked(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '****';
  if (u.searchParams.has('password')) u.searchParams.set('password', '****');
  return u.toString();
}

/** The URL without its password, and the password for PGPASSWORD (libpq reads it there). */
function splitPassword(url: string): { url: string; password: string | undefined } {
  const u = new URL(url);
  // libpq also takes it as a query parameter
  const password = u.password
    ? decodeURIComponent(u.password)
    : (u.searchParams.get('password') ?? undefined);
  u.password = '';
  u.searchParams.delete('password');
  return { url: u.toString(), password };
}

/** Runs a PostgreSQL client tool against `databaseUrl` (appended after `args`, then `tail`), the
 * password in its environment; a missing tool or a non-zero exit throws with the reason. */
function runTool(name: string, args: string[], databaseUrl: string, tail: string[] = []): string {
  const { url, password } = splitPassword(databaseUrl);
  const command = [name, ...args, `'${masked(databaseUrl)}'`, ...tail].join(' ');
  const env = password === undefined ? process.env : { ...process.env, PGPASSWORD: password };
  const r = spawnSync(name, [...args, url, ...tail], { encoding: 'utf8', env });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new Error(
      `${name} is not installed (or not on PATH): install PostgreSQL's client tools, of the server's major version or newer (Debian/Ubuntu: apt install postgresql-client), then run this again`,
    );
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim();
    throw new Error(`${name} failed: ${why}`);
  }
  return command;
}

export function backup(databaseUrl: string, to: string): BackupResult {
  const file = resolve(to);
  if (existsSync(file)) throw new Error(`${to} exists: give a new file name`);
  mkdirSync(dirname(file), { recursive: true });
  if (dialectOf(databaseUrl) === 'sqlite') {
    const db = new SqliteDatabase(sqliteFile(databaseUrl), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(file);
    } finally {
      db.close();
    }
    return { dialect: 'sqlite', file, ran: true, bytes: statSync(file).size };
  }
  const args = ['--format=custom', '--no-owner', '--no-privileges', '--file', file, '--dbname'];
  let command: string;
  try {
    command = runTool('pg_dump', args, databaseUrl);
  } catch (err) {
    rmSync(file, { force: true }); // no partial copy left to be mistaken for a backup
    throw err;
  }
  return { dialect: 'postgres', file, command, ran: true, bytes: statSync(file).size };
}

/** Restores a backup into an empty database (refused when the target has any table). */
export async function restore(databaseUrl: string, from: string): Promise<BackupResult> {
  const file = resolve(from);
  if (!existsSync(file)) throw new Error(`${from} does not exist`);
  if (dialectOf(databaseUrl) === 'sqlite') {
    const target = sqliteFile(databaseUrl);
    if (existsSync(target)) {
      const db = new SqliteDatabase(target, { readonly: true });
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      db.close();
      if (tables.n > 0) throw new Error('the target database is not empty: restore needs an empty database');
    }
    const check = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      const ok = check.pragma('integrity_check', { simple: true });
      if (ok !== 'ok') throw new Error(`${from} is not a sound SQLite database: ${ok}`);
    } finally {
      check.close();
    }
    mkdirSync(dirname(resolve(target)), { recursive: true });
    copyFileSync(file, target);
    return { dialect: 'sqlite', file, ran: true, bytes: statSync(target).size };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    if (rows[0].n > 0) throw new Error('the target database is not empty: restore needs an empty database');
  } finally {
    await client.end();
  }
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--dbname'];
  const command = runTool('pg_restore', args, databaseUrl, [file]);
  return { dialect: 'postgres', file, command, ran: true };
}
