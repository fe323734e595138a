// Failures that are not the caller's fault: an unexpected error answers 500/1050 with the request
// id and nothing internal; an unreachable database answers 503/1051, and the service recovers
// by itself once the database is back.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { SQLITE_BUSY_TIMEOUT_MS: '200' } });
});
afterAll(() => server.close());

describe('unexpected failures', () => {
  it('answer 500/1050 with the request id and no internals', async () => {
    const a = await server.account();
    // Damage the account's stored data behind the service's back.
    await server.deps.db.kysely
      .updateTable('users')
      .set({ sso_connections: '{not json' })
      .where('id', '=', a.user.id)
      .execute();
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({
      id: '1050',
      http_status_code: 500,
      name: 'Internal Server Error',
    });
    expect(res.body.error.message).toContain(String(res.headers['sm-request-id']));
    expect(res.text).not.toMatch(/SyntaxError|JSON|\.ts|\.js|at /);
  });
});

describe('an unreachable database', () => {
  it('answers 503/1051 while it is away and recovers by itself', async () => {
    const a = await server.account({ minuteLimit: 1000, dayLimit: 0 }); // counted: every request writes
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(200);
    const restore = await makeUnavailable(server.config.databaseUrl);
    try {
      const res = await server.client.get('/v3/users/me', { token: a.token });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ id: '1051', http_status_code: 503 });
    } finally {
      await restore();
    }
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(200);
  });
});

/** Takes the database away from the server: on SQLite another process holds the write lock; on
 * PostgreSQL the database refuses connections and the server's are cut. Returns the undo. */
async function makeUnavailable(url: string): Promise<() => Promise<void>> {
  if (!usingPostgres) {
    const other = new Database(url.slice('sqlite:'.length));
    other.exec('BEGIN EXCLUSIVE');
    return async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await c.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name],
  );
  return async () => {
    await c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await c.end();
  };
}
