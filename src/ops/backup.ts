// Backups: a consistent online copy while the service serves, and a restore into an empty
// database. SQLite: `VACUUM INTO` reads one snapshot (WAL readers never block writers) and writes
// a compact copy. PostgreSQL: pg_dump's custom format (one snapshot too) and pg_restore, run when
// installed, otherwise the command is given to the operator to run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { dialectOf } from '../db/database.js';

export interface BackupResult {
  dialect: 'sqlite' | 'postgres';
  file: string;
  /** The command that makes (or would make) the copy, with the password masked (PostgreSQL). */
  command?: string;
  /** False when the PostgreSQL tool is not installed: the operator runs `command`. */
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
  return u.toString();
}

function hasTool(name: string): boolean {
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs a PostgreSQL tool with the connection string in PGPASSWORD-free form: the URL is passed
 * as --dbname, which pg tools accept; stderr is returned for the error message. */
function runTool(name: string, args: string[]): void {
  const r = spawnSync(name, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} failed: ${(r.stderr || r.error?.message || '').trim()}`);
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
  const command = `pg_dump ${args.join(' ')} '${masked(databaseUrl)}'`;
  if (!hasTool('pg_dump')) return { dialect: 'postgres', file, command, ran: false };
  runTool('pg_dump', [...args, databaseUrl]);
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
  const command = `pg_restore ${args.join(' ')} '${masked(databaseUrl)}' ${file}`;
  if (!hasTool('pg_restore')) return { dialect: 'postgres', file, command, ran: false };
  runTool('pg_restore', [...args, databaseUrl, file]);
  return { dialect: 'postgres', file, command, ran: true };
}
