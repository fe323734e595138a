// Small operational edges: the access log names the client's address and takes a well-formed
// incoming X-Request-Id as the request's id (echoed in the answer; anything else gets a fresh one);
// `survey-service vacuum` gives deleted rows' space back (SQLite: refused while a serve has the file
// open; `--into FILE` writes a compact copy beside a running serve).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, runCliJsonAsync, startServeProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  // Provisioned (and migrated) by the command, as an operator does.
  await runCliJsonAsync(
    ['user', 'create', '--username', 'edges', '--email', 'edges@example.org', '--password', 'pw pw pw pw'],
    { DATABASE_URL: db.url },
  );
});
afterAll(async () => {
  await db.drop();
});

/** A `serve` process on the test database, its stdout (the JSON log lines) collected. */
async function serve() {
  const port = await freePort();
  const s = startServeProcess({ DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'info' });
  let stdout = '';
  s.child.stdout.on('data', (c) => {
    stdout += c;
  });
  await s.ready;
  return { ...s, url: `http://127.0.0.1:${port}`, log: () => stdout };
}

describe('the access log', () => {
  it('logs the client address, and takes a well-formed X-Request-Id as the request id', async () => {
    const s = await serve();
    try {
      const given = 'edge-trace.42:a_b-C';
      const taken = await fetch(`${s.url}/v3/users/me`, { headers: { 'x-request-id': given } });
      expect(taken.status).toBe(401);
      expect(taken.headers.get('x-request-id')).toBe(given);
      const bad = ['has space', 'x'.repeat(129), 'semi;colon', 'quote"'];
      const minted = await Promise.all(
        bad.map((id) => fetch(`${s.url}/v3/users/me`, { headers: { 'x-request-id': id } })),
      );
      const mintedIds = minted.map((r) => r.headers.get('x-request-id'));
      for (const id of mintedIds) expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const plain = await fetch(`${s.url}/v3/users/me`);
      expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // The lines are written as the answers go out.
      for (let i = 0; i < 100 && !s.log().includes(String(plain.headers.get('x-request-id'))); i++)
        await new Promise((r) => setTimeout(r, 50));
      const lines = s
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'request');
      const line = lines.find((l) => l.reqId === given);
      expect(line).toMatchObject({ ip: '127.0.0.1', route: '/v3/users/me', status: 401 });
      for (const id of mintedIds) expect(lines.find((l) => l.reqId === id)?.ip).toBe('127.0.0.1');
      for (const id of bad) expect(s.log()).not.toContain(id.slice(0, 20));
    } finally {
      await s.stop();
    }
  }, 300_000);
});

describe.skipIf(usingPostgres)('vacuum on SQLite', () => {
  const file = () => db.url.slice('sqlite:'.length);

  it('gives the space of deleted rows back, with the service stopped', async () => {
    const raw = new Database(file());
    raw
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
      .run('edges:ballast', 'x'.repeat(4_000_000));
    raw.prepare('DELETE FROM settings WHERE key = ?').run('edges:ballast');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const r = await runCliJsonAsync(['vacuum'], { DATABASE_URL: db.url });
    expect(r).toMatchObject({ dialect: 'sqlite', file: file() });
    expect(r.bytes_before).toBeGreaterThan(4_000_000);
    expect(r.bytes_after).toBeLessThan(r.bytes_before - 3_000_000);
    // The account is still there.
    const check = new Database(file(), { readonly: true });
    expect(check.prepare("SELECT count(*) AS n FROM users WHERE username = 'edges'").get()).toEqual({ n: 1 });
    check.close();
  }, 300_000);

  it('is refused while a serve has the file open; --into makes a compact copy beside it', async () => {
    const s = await serve();
    try {
      const refused = await runCliAsync(['vacuum', '--json'], { DATABASE_URL: db.url });
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`is open in process ${s.child.pid}`);
      expect(refused.stderr).toContain('stop the service');
      const into = join(mkdtempSync(join(tmpdir(), 'ss-vacuum-')), 'compact.db');
      const copy = await runCliJsonAsync(['vacuum', '--into', into], { DATABASE_URL: db.url });
      expect(copy).toMatchObject({ dialect: 'sqlite', file: into });
      expect(existsSync(into)).toBe(true);
      const c = new Database(into, { readonly: true });
      expect(c.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(c.prepare("SELECT count(*) AS n FROM users WHERE username = 'edges'").get()).toEqual({ n: 1 });
      c.close();
      // The service kept answering.
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  }, 300_000);
});

describe.skipIf(!usingPostgres)('vacuum on PostgreSQL', () => {
  it('runs VACUUM (ANALYZE) beside the service and reports the database size', async () => {
    const s = await serve();
    try {
      const r = await runCliJsonAsync(['vacuum'], { DATABASE_URL: db.url });
      expect(r.dialect).toBe('postgres');
      expect(r.bytes_before).toBeGreaterThan(0);
      expect(r.bytes_after).toBeGreaterThan(0);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query(
        "SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'users'",
      );
      await client.end();
      expect(rows[0].last_vacuum).not.toBeNull();
      const into = await runCliAsync(['vacuum', '--into', '/tmp/never.db'], { DATABASE_URL: db.url });
      expect(into.status).toBe(1);
      expect(into.stderr).toContain('backup --to');
    } finally {
      await s.stop();
    }
  }, 300_000);
});
