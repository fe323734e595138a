// `serve` on SQLite copies its write-ahead log back into the database file from a thread of its
// own: a write reaches the file within a moment, where before it waited in the log until a commit
// took it past 1,000 pages (and that commit's request waited for the copy).
import { copyFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

// SQLite only: the database and its migration are made only where the test runs.
describe.skipIf(usingPostgres)('SQLite checkpoints', () => {
  let db: TestDatabase;
  let file: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    file = db.url.slice('sqlite:'.length);
    runCliJson(['migrate'], { DATABASE_URL: db.url });
  });
  afterAll(async () => {
    await db.drop();
  });

  /** The survey titles the database file holds on its own, without its log (a copy of the file alone). */
  function titlesInFile(): string[] {
    const copy = `${file}.alone`;
    copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    try {
      return alone
        .prepare('SELECT title FROM surveys')
        .all()
        .map((r) => (r as { title: string }).title);
    } finally {
      alone.close();
    }
  }

  it('copies a write into the database file soon after it, not at 1,000 pages of log; exits 0', async () => {
    const env = { DATABASE_URL: db.url };
    runCliJson(
      ['user', 'create', '--username', 'ck', '--email', 'ck@example.com', '--password', 'pw pw pw pw'],
      env,
    );
    const app = runCliJson(['app', 'create', '--owner', 'ck', '--name', 'Ck'], env);
    const port = await freePort();
    const serve = startServeProcess({
      ...env,
      PORT: String(port),
      SECRET_KEY: 'k-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    });
    await serve.ready;
    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
    const client = new ApiClient(`http://127.0.0.1:${port}`);
    const created = await client.post('/v3/surveys', { title: 'Checkpointed' }, { token: app.access_token });
    expect(created.status).toBe(201);
    // A survey is a few pages of log, far below the 1,000 at which a commit would copy them.
    await expect.poll(titlesInFile, { timeout: 5000, interval: 100 }).toContain('Checkpointed');
    serve.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
