// The remembered token holder (platform/auth.ts): exact (a revoked token is refused on the very next
// request, however it was revoked) and kept while only other tables are written (responses pouring
// in must not make every request look the token up again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { revokeApp } from '../../src/domain/accounts/tokens.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const REVOKED = { status: 1, errmsg: 'Client revoked access grant' };

async function collecting() {
  const a = await server.account({ plan: 'premier' });
  const survey = (await server.client.post('/v3/surveys', { title: 'Load' }, { token: a.token })).body;
  const collector = (
    await server.client.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink' }, { token: a.token })
  ).body;
  const respond = () =>
    server.client.post(`/v3/collectors/${collector.id}/responses`, { pages: [] }, { token: a.token });
  return { a, respond };
}

describe('the caller cache', () => {
  it('keeps a caller while responses are written', async () => {
    const { a, respond } = await collecting();
    const me = () => server.client.get('/v3/users/me', { token: a.token });
    expect((await me()).status).toBe(200);
    const remembered = server.deps.caches.callers.get(a.token);
    expect(remembered).toBeDefined();
    for (let i = 0; i < 3; i++) expect((await respond()).status).toBe(201);
    expect((await me()).status).toBe(200);
    // The same object: served from the cache, not looked up again.
    expect(server.deps.caches.callers.get(a.token)).toBe(remembered);
  });

  it('refuses a revoked token on the next request, under a write load', async () => {
    const { a, respond } = await collecting();
    const other = await server.account({ plan: 'premier' });
    const load = await collecting();
    expect((await respond()).status).toBe(201);
    const writes = Array.from({ length: 20 }, () => load.respond());
    await revokeApp(server.deps, a.app.id, a.user.id);
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(REVOKED);
    expect((await server.client.get('/v3/users/me', { token: other.token })).status).toBe(200);
    for (const w of await Promise.all(writes)) expect(w.status).toBe(201);
  });

  it('refuses a revoked token to every request that arrives with it at once', async () => {
    const { a } = await collecting();
    const me = () =>
      server.app.inject({
        method: 'GET',
        url: '/v3/users/me',
        headers: { authorization: `bearer ${a.token}` },
      });
    expect((await me()).statusCode).toBe(200);
    await revokeApp(server.deps, a.app.id, a.user.id);
    // Injected in one tick, so that every request has found the remembered caller before the first
    // one learns the epoch moved and forgets it (over sockets, requests arrive apart by chance).
    for (const res of await Promise.all(Array.from({ length: 5 }, me))) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(REVOKED);
    }
  });

  it('refuses a token revoked by hand through another connection', async () => {
    const { a, respond } = await collecting();
    expect((await respond()).status).toBe(201);
    const db = openDatabase(server.config.databaseUrl);
    try {
      await db.kysely
        .updateTable('tokens')
        .set({ status: 'revoked' })
        .where('user_id', '=', a.user.id)
        .execute();
    } finally {
      await db.close();
    }
    const res = await respond();
    expect(res.status).toBe(401);
    expect(res.body).toEqual(REVOKED);
  });
});
