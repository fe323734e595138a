import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDeploy } from '../../src/domain/accounts/lifecycle.js';
import { issueToken } from '../../src/domain/accounts/tokens.js';
import { createUser } from '../../src/domain/accounts/users.js';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:10Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

async function statuses(token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await server.client.get('/v3/users/me', { token })).status);
  return out;
}

describe('per-app rate limits', () => {
  it('counts per minute, tolerates up to 150% for a new app, then answers 429/1040', async () => {
    clock.set('2026-06-01T12:00:10Z');
    const a = await server.account({ minuteLimit: 4, dayLimit: 0 });
    const first = await server.client.get('/v3/users/me', { token: a.token });
    expect(first.headers['x-ratelimit-app-global-minute-limit']).toBe('4');
    expect(first.headers['x-ratelimit-app-global-minute-remaining']).toBe('3');
    expect(first.headers['x-ratelimit-app-global-minute-reset']).toBe('50');
    expect(first.headers['x-ratelimit-app-global-day-limit']).toBe('2147483647');
    expect(first.headers['x-ratelimit-app-global-day-remaining']).toBe('2147483647');

    expect(await statuses(a.token, 5)).toEqual([200, 200, 200, 200, 200]); // requests 2..6: 6 = 150% of 4
    const refused = await server.client.get('/v3/users/me', { token: a.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      id: '1040',
      name: 'Rate Limit Reached',
      http_status_code: 429,
    });
    expect(refused.headers['x-ratelimit-app-global-minute-remaining']).toBe('0');

    clock.set('2026-06-01T12:01:00Z'); // a fixed window: the next minute starts afresh
    const next = await server.client.get('/v3/users/me', { token: a.token });
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-app-global-minute-remaining']).toBe('3');
    expect(next.headers['x-ratelimit-app-global-minute-reset']).toBe('60');
  });

  it('enforces 100% once three earlier windows were violated within 30 days', async () => {
    clock.set('2026-06-01T13:00:00Z');
    const a = await server.account({ minuteLimit: 2, dayLimit: 0 });
    for (let window = 0; window < 3; window++) {
      // each of these windows goes over 2 (one violation) and is tolerated up to 3
      expect(await statuses(a.token, 4), `window ${window}`).toEqual([200, 200, 200, 429]);
      clock.advance(MINUTE);
    }
    expect(await statuses(a.token, 3)).toEqual([200, 200, 429]);
    clock.advance(MINUTE);
    expect(await statuses(a.token, 3)).toEqual([200, 200, 429]);

    clock.advance(31 * DAY); // the violations age out
    expect(await statuses(a.token, 4)).toEqual([200, 200, 200, 429]);
  });

  it('resets the day at 00:00 GMT and reports the seconds until then', async () => {
    clock.set('2026-06-02T23:59:30Z');
    const a = await server.account({ minuteLimit: 0, dayLimit: 2 });
    const first = await server.client.get('/v3/users/me', { token: a.token });
    expect(first.headers['x-ratelimit-app-global-day-limit']).toBe('2');
    expect(first.headers['x-ratelimit-app-global-day-remaining']).toBe('1');
    expect(first.headers['x-ratelimit-app-global-day-reset']).toBe('30');
    expect(await statuses(a.token, 3)).toEqual([200, 200, 429]); // 3 = 150% of 2
    clock.set('2026-06-03T00:00:01Z');
    const after = await server.client.get('/v3/users/me', { token: a.token });
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-app-global-day-remaining']).toBe('1');
    expect(after.headers['x-ratelimit-app-global-day-reset']).toBe(String(DAY / 1000 - 1));
  });

  it('is shared by every account using the app', async () => {
    clock.set('2026-06-04T10:00:00Z');
    const owner = await server.account({ minuteLimit: 2, dayLimit: 0 });
    const other = await createUser(server.deps, {
      username: `other${Date.now()}`,
      email: 'other@example.com',
      password: 'another password',
      plan: 'premier',
    });
    const otherToken = await issueToken(server.deps, owner.app.id, other.id, ['users_read']);
    expect((await server.client.get('/v3/users/me', { token: owner.token })).status).toBe(200);
    const second = await server.client.get('/v3/users/me', { token: otherToken });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(other.id);
    expect(second.headers['x-ratelimit-app-global-minute-remaining']).toBe('0');
  });

  it('applies the draft defaults of 120 a minute and 500 a day', async () => {
    const a = await server.account({ minuteLimit: null, dayLimit: null });
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.headers['x-ratelimit-app-global-minute-limit']).toBe('120');
    expect(res.headers['x-ratelimit-app-global-day-limit']).toBe('500');
  });

  it('gives a published public app 500,000 requests a day and no minute cap by default', async () => {
    clock.set('2026-06-06T10:00:00Z');
    const a = await server.account({ minuteLimit: null, dayLimit: null });
    await operatorDeploy(server.deps, a.app.id, 'public');
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-app-global-day-limit']).toBe('500000');
    expect(res.headers['x-ratelimit-app-global-day-remaining']).toBe('499999');
    expect(res.headers['x-ratelimit-app-global-minute-limit']).toBe('2147483647');
  });

  it('keeps its counters across a restart', async () => {
    const db = await createTestDatabase();
    const restartClock = new TestClock('2026-06-05T10:00:00Z');
    try {
      const one = await startServer({ databaseUrl: db.url, clock: restartClock });
      const a = await one.account({ minuteLimit: 10, dayLimit: 0 });
      for (let i = 0; i < 3; i++) await one.client.get('/v3/users/me', { token: a.token });
      await one.close();
      const two = await startServer({ databaseUrl: db.url, clock: restartClock });
      const res = await two.client.get('/v3/users/me', { token: a.token });
      expect(res.headers['x-ratelimit-app-global-minute-remaining']).toBe('6');
      await two.close();
    } finally {
      await db.drop();
    }
  });
});

describe('several server processes on one database', () => {
  it('hold one limit between them', async () => {
    const db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, SECRET_KEY: 'shared-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF' };
    runCliJson(
      [
        'user',
        'create',
        '--username',
        'multi',
        '--email',
        'm@example.com',
        '--password',
        'password1',
        '--plan',
        'premier',
      ],
      env,
    );
    const created = runCliJson(
      ['app', 'create', '--owner', 'multi', '--name', 'Multi', '--minute-limit', '10', '--day-limit', '0'],
      env,
    );
    const ports = [await freePort(), await freePort()];
    const procs = ports.map((port) => startServeProcess({ ...env, PORT: String(port) }));
    try {
      await Promise.all(procs.map((p) => p.ready));
      const clients = ports.map((port) => new ApiClient(`http://127.0.0.1:${port}`));
      // Start well inside a minute window, so all 20 requests fall in the same one.
      const intoMinute = Date.now() % MINUTE;
      if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, MINUTE - intoMinute + 100));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          clients[i % 2].get('/v3/users/me', { token: created.access_token }),
        ),
      );
      const ok = results.filter((r) => r.status === 200).length;
      const limited = results.filter((r) => r.status === 429).length;
      expect(ok).toBe(15); // 150% of 10, counted across both processes
      expect(limited).toBe(5);
    } finally {
      await Promise.all(procs.map((p) => p.stop()));
      await db.drop();
    }
  });
});
