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
    const name = `ss_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
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
    const template = await postgresTemplate(admin);
    const name = `ss_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(admin, `CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
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

let sqliteTemplate: Promise<string> | undefined;

async function migrated(url: string): Promise<void> {
  const db = openDatabase(url);
  try {
    await migrateToLatest(db, VERSION);
  } finally {
    await db.close();
  }
}

async function adminQuery(admin: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(query);
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
