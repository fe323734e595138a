// A fresh, empty database for each test file: a temporary SQLite file, or, when
// TEST_DATABASE_URL names a PostgreSQL server, a new database on it (dropped afterwards).
// createMigratedTestDatabase: the same, with every migration applied, copied from a template.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { VERSION } from '../../src/platform/version.js';

export const usingPostgres = !!process.env.TEST_DATABASE_URL?.startsWith('postgres');

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = process.env.TEST_DATABASE_URL;
  if (admin && usingPostgres) {
    const { name, url } = await newPostgresDatabase(admin);
    return { url, drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ss-test-'));
  return {
    url: `sqlite:${join(dir, 'test.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh database with every migration applied (as a server's first start leaves it), copied
 * from a template rather than migrated anew: migrating costs about a second on SQLite and several
 * on PostgreSQL, and the suite starts hundreds of test servers. The SQLite template is a file
 * migrated once per test process; the PostgreSQL one a database named after a hash of the
 * migrations and the version, built once on the server and kept for later runs.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const admin = process.env.TEST_DATABASE_URL;
  if (admin && usingPostgres) {
    // CREATE DATABASE waits for its copy of the template to reach the disk (0.2 to 1 s here): each
    // process copies the next file's database while this one runs its tests.
    const next = spare ?? copyOfTemplate(admin);
    spare = copyOfTemplate(admin);
    spare.catch(() => {}); // a failure shows when it is taken
    return next;
  }
  sqliteTemplate ??= createTestDatabase().then(async (db) => {
    process.once('exit', () => void db.drop());
    await migrated(db.url);
    return db.url.slice('sqlite:'.length);
  });
  const template = await sqliteTemplate;
  const dir = mkdtempSync(join(tmpdir(), 'ss-test-'));
  copyFileSync(template, join(dir, 'test.db'));
  return {
    url: `sqlite:${join(dir, 'test.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** This process's next PostgreSQL database, and the template's name (its first copy also sweeps). */
let spare: Promise<TestDatabase> | undefined;
let pgTemplate: Promise<string> | undefined;

async function copyOfTemplate(admin: string): Promise<TestDatabase> {
  if (!pgTemplate) {
    pgTemplate = postgresTemplate(admin);
    void sweep(admin).catch(() => {});
  }
  const { name, url } = await newPostgresDatabase(admin, await pgTemplate);
  return {
    url,
    // DROP DATABASE waits for a checkpoint (up to seconds here while other tests write): the file
    // that closes it goes on meanwhile, and a drop cut off by the end of the process is swept.
    drop: async () => {
      void adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    },
  };
}

let sqliteTemplate: Promise<string> | undefined;

async function migrated(url: string): Promise<void> {
  const db = openDatabase(url);
  try {
    await migrateToLatest(db, VERSION);
  } finally {
    await db.close();
  }
}

/** Drops the databases of test processes of this machine that have ended (a process's last spare
 * copy, or all of one that was killed). */
async function sweep(admin: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname ~ '^ss_test_[0-9]+_'",
    );
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (!alive(pid)) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A new database named after this process (`sweep` reads the pid back), empty or a copy of
 * `template`. Its commits do not wait for the disk (as CI's own cluster is set up, in
 * .ci/run): the tests stop and kill the service, never this server, so nothing acknowledged is
 * lost, and a PostgreSQL pass no longer waits on a flush per commit. */
async function newPostgresDatabase(admin: string, template?: string): Promise<{ name: string; url: string }> {
  const name = `ss_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(
    admin,
    `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
    `ALTER DATABASE ${name} SET synchronous_commit = off`,
  );
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function adminQuery(admin: string, ...queries: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    for (const query of queries) await client.query(query);
  } finally {
    await client.end();
  }
}

/** The template's name: built (under an advisory lock, then renamed into place, so no one copies
 * a half-migrated one) unless a process or an earlier run already did. */
async function postgresTemplate(admin: string): Promise<string> {
  const dir = new URL('../../src/db/migrations/', import.meta.url);
  const hash = createHash('sha256').update(VERSION);
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(new URL(file, dir)));
  const name = `ss_template_${hash.digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const exists = async () =>
      (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await client.query("SELECT pg_advisory_lock(hashtext('ss_template'))");
    if (await exists()) return name;
    const building = `${name}_${process.pid}`;
    await client.query(`DROP DATABASE IF EXISTS ${building}`);
    await client.query(`CREATE DATABASE ${building}`);
    const url = new URL(admin);
    url.pathname = `/${building}`;
    await migrated(url.toString());
    await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await client.end(); // ends the advisory lock with the session
  }
}
