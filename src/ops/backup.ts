// Backups: a consistent online copy while the service serves, and a restore into an empty
// database. SQLite: `VACUUM INTO` reads one snapshot (WAL readers never block writers) and writes
// a compact copy. PostgreSQL: pg_dump's custom format (one snapshot too) and pg_restore. A missing
// or failing tool is an error (the verb exits non-zero with the reason, so a cron job notices), and
// the password goes to the tool in PGPASSWORD, never on its command line (where `ps` shows it).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { dialectOf } from '../db/database.js';
import { errorCode } from '../platform/errors.js';

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
  if (errorCode(r.error) === 'ENOENT')
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
      const tables = db
        .prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")
        .get();
      db.close();
      if (tables && tables.n > 0)
        throw new Error('the target database is not empty: restore needs an empty database');
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

export interface VacuumResult {
  dialect: 'sqlite' | 'postgres';
  /** SQLite: the database file compacted in place, or the compact copy (--into). */
  file?: string;
  /** The database's size before and after (SQLite: the file with its WAL; PostgreSQL: pg_database_size). */
  bytes_before: number;
  bytes_after: number;
}

/** Other processes of this machine that hold `file` open (Linux's /proc; empty where it cannot tell,
 * as for another user's processes without root). */
export function processesHolding(file: string): number[] {
  let target: string;
  try {
    target = realpathSync(file);
  } catch {
    return [];
  }
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (fds.some((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === target)) found.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function readlinkSafe(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

const sqliteBytes = (file: string) =>
  [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);

/**
 * Gives the space of deleted rows back. SQLite: `VACUUM` rewrites the file in place, holding the
 * write lock for the whole rewrite, so it is refused while another process (a `serve`, a `worker`)
 * has the file open; `into` writes a compact copy instead (`VACUUM INTO`, as `backup` does), which
 * runs beside the service. PostgreSQL: `VACUUM (ANALYZE)`, which runs beside the service (autovacuum
 * does the same on its own); the space is reused by new rows rather than returned to the system.
 */
export async function vacuum(databaseUrl: string, into?: string): Promise<VacuumResult> {
  if (dialectOf(databaseUrl) === 'sqlite') {
    const file = sqliteFile(databaseUrl);
    if (!existsSync(file)) throw new Error(`${file} does not exist`);
    const before = sqliteBytes(file);
    if (into) {
      const r = backup(databaseUrl, into);
      return { dialect: 'sqlite', file: r.file, bytes_before: before, bytes_after: r.bytes ?? 0 };
    }
    const holders = processesHolding(file);
    if (holders.length)
      throw new Error(
        `${file} is open in process ${holders.join(', ')}: stop the service (every serve and worker) first, or make a compact copy while it runs with vacuum --into FILE`,
      );
    const db = new SqliteDatabase(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    return { dialect: 'sqlite', file: resolve(file), bytes_before: before, bytes_after: sqliteBytes(file) };
  }
  if (into) throw new Error('--into is for SQLite: on PostgreSQL make a copy with backup --to FILE');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const size = async () =>
      Number((await client.query('SELECT pg_database_size(current_database())::bigint AS n')).rows[0].n);
    const before = await size();
    await client.query('VACUUM (ANALYZE)');
    return { dialect: 'postgres', bytes_before: before, bytes_after: await size() };
  } finally {
    await client.end();
  }
}
