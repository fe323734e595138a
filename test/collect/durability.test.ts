// Durability: a `serve` process killed with SIGKILL in the middle of concurrent
// POST /collectors/{id}/responses loses no response it acknowledged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { createEveryFamilySurvey, prng, randomAnswers } from './fixtures.js';

let db: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url, SECRET_KEY: 'durability-0123456789abcdefghijklmnopqrstuvwxyzABCDEF' };
});
afterAll(() => db.drop());

describe('SIGKILL during submissions', () => {
  it('keeps every acknowledged response', { timeout: 120_000 }, async () => {
    runCliJson(
      [
        'user',
        'create',
        '--username',
        'kim',
        '--email',
        'kim@example.com',
        '--password',
        'password1',
        '--plan',
        'premier',
      ],
      env,
    );
    const app = runCliJson(
      ['app', 'create', '--owner', 'kim', '--name', 'K', '--minute-limit', '0', '--day-limit', '0'],
      env,
    );
    const token = app.access_token;
    const port = await freePort();
    const proc = startServeProcess({ ...env, PORT: String(port) });
    await proc.ready;
    const client = new ApiClient(`http://127.0.0.1:${port}`);
    const details = await createEveryFamilySurvey(client, token);
    const collector = await client.post(
      `/v3/surveys/${details.id}/collectors`,
      { type: 'weblink' },
      { token },
    );
    const acknowledged = new Map<string, unknown>();
    const refused: string[] = [];
    const r = prng(9);
    let n = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const pages = randomAnswers(details, r, n++);
        try {
          const res = await client.post(
            `/v3/collectors/${collector.body.id}/responses`,
            { pages },
            { token },
          );
          if (res.status === 201) acknowledged.set(res.body.id, pages);
          else refused.push(`${res.status} ${res.text}`);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    while (acknowledged.size < 150) await new Promise((res) => setTimeout(res, 10));
    proc.child.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    await new Promise<void>((res) =>
      proc.child.exitCode !== null || proc.child.signalCode ? res() : proc.child.once('exit', () => res()),
    );
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);
    expect(refused).toEqual([]); // every answer the process gave was an acknowledgement

    const port2 = await freePort();
    const again = startServeProcess({ ...env, PORT: String(port2) });
    try {
      await again.ready;
      const client2 = new ApiClient(`http://127.0.0.1:${port2}`);
      const found = new Map<string, unknown>();
      let url: string | undefined = `/v3/collectors/${collector.body.id}/responses/bulk?per_page=100`;
      while (url) {
        const res: any = await client2.get(url, { token });
        expect(res.status).toBe(200);
        for (const x of res.body.data) found.set(x.id, x.pages);
        url = res.body.links.next;
      }
      for (const [id, pages] of acknowledged) expect(found.get(id), id).toEqual(pages);
      const c = await client2.get(`/v3/collectors/${collector.body.id}`, { token });
      expect(c.body.response_count).toBe(found.size);
    } finally {
      await again.stop();
    }
  });
});
