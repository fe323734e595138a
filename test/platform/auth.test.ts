import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { revokeApp } from '../../src/domain/accounts/tokens.js';
import { updateUser } from '../../src/domain/accounts/users.js';
import { TestClock } from '../helpers/clock.js';
import { CA_HOST, EU_HOST, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

describe('bearer token authentication', () => {
  it('answers 401/1010 without an Authorization header', async () => {
    const res = await server.client.get('/v3/users/me');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ id: '1010', name: 'Authorization Error', http_status_code: 401 });
    expect(res.body.error.docs).toMatch(/#1010$/);
  });

  it('answers 401/1011 for an unknown token or a header that is not a bearer token', async () => {
    const unknown = await server.client.get('/v3/users/me', { token: 'not-a-real-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.id).toBe('1011');
    const basic = await server.client.get('/v3/users/me', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);
    expect(basic.body.error.id).toBe('1011');
  });

  it('accepts the scheme in any case', async () => {
    const a = await server.account();
    const res = await server.client.get('/v3/users/me', { headers: { authorization: `BEARER ${a.token}` } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.user.id);
  });

  it('answers a revoked token with the revoked-grant body', async () => {
    const a = await server.account();
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(200);
    await revokeApp(server.deps, a.app.id, a.user.id);
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 1, errmsg: 'Client revoked access grant' });
  });

  it('answers 401/1057 for a token with no grants', async () => {
    // A basic account's token for an app that only asks for a paid scope is granted nothing.
    const a = await server.account({ plan: 'basic', scopes: ['groups_read'] });
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(401);
    expect(res.body.error.id).toBe('1057');
  });

  it('answers 404/1052 for a soft-deleted account and 410/1053 for a deleted one', async () => {
    const a = await server.account();
    await updateUser(server.deps, a.user.username, { state: 'soft_deleted' });
    const soft = await server.client.get('/v3/users/me', { token: a.token });
    expect(soft.status).toBe(404);
    expect(soft.body.error.id).toBe('1052');
    await updateUser(server.deps, a.user.username, { state: 'deleted' });
    const gone = await server.client.get('/v3/users/me', { token: a.token });
    expect(gone.status).toBe(410);
    expect(gone.body.error.id).toBe('1053');
    await updateUser(server.deps, a.user.username, { state: 'active' });
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(200);
  });

  it('stops a draft app that was not deployed within 90 days with 401/1012', async () => {
    const a = await server.account();
    clock.advance(91 * 86_400_000);
    try {
      const res = await server.client.get('/v3/users/me', { token: a.token });
      expect(res.status).toBe(401);
      expect(res.body.error.id).toBe('1012');
      expect(res.body.error.message).toMatch(/disabled/);
    } finally {
      clock.advance(-91 * 86_400_000);
    }
  });
});

describe('what the server knows of a token', () => {
  // The server may remember a token's holder between requests (SQLite); a change made anywhere,
  // here through another connection as another process would, must show on the very next request.
  it('follows changes made by another connection at once', async () => {
    const a = await server.account({ plan: 'premier' });
    const me = async () => server.client.get('/v3/users/me', { token: a.token });
    expect((await me()).body).toMatchObject({ first_name: a.user.first_name, account_type: 'premier' });
    const other = openDatabase(server.config.databaseUrl);
    try {
      await other.kysely
        .updateTable('users')
        .set({ first_name: 'Renamed', account_type: 'basic' })
        .where('id', '=', a.user.id)
        .execute();
      expect((await me()).body).toMatchObject({ first_name: 'Renamed', account_type: 'basic' });
      await other.kysely
        .updateTable('tokens')
        .set({ status: 'revoked' })
        .where('user_id', '=', a.user.id)
        .execute();
      const revoked = await me();
      expect(revoked.status).toBe(401);
      expect(revoked.body).toEqual({ status: 1, errmsg: 'Client revoked access grant' });
    } finally {
      await other.close();
    }
  });
});

describe('scopes', () => {
  it('answers 403/1014 when the token lacks the endpoint scope', async () => {
    const a = await server.account({ scopes: ['surveys_read'] });
    const res = await server.client.get('/v3/users/me', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1014');
    expect(res.body.error.message).toMatch(/users_read/);
  });

  it('answers 403/1015 when a basic account calls an endpoint whose scope needs a paid plan', async () => {
    const basic = await server.account({ plan: 'basic' });
    const res = await server.client.get('/v3/groups', { token: basic.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1015');
    expect(res.body.error.message).toMatch(/groups_read/);
  });

  it('sends the granted and available scopes on every authenticated response', async () => {
    const basic = await server.account({
      plan: 'basic',
      scopes: ['users_read', 'surveys_read', 'groups_read'],
    });
    const res = await server.client.get('/v3/users/me', { token: basic.token });
    expect(res.headers['x-oauth-scopes-granted']).toBe('surveys_read,users_read');
    const available = String(res.headers['x-oauth-scopes-available']).split(',');
    expect(available).toContain('surveys_read');
    expect(available).toContain('collectors_write');
    expect(available).not.toContain('groups_read');
    expect(available).not.toContain('workgroups_read');
    expect(res.body.scopes).toEqual({ granted: ['surveys_read', 'users_read'], available });

    const denied = await server.client.get('/v3/errors/1000', { token: 'nope' });
    expect(denied.headers['x-oauth-scopes-granted']).toBeUndefined();
  });
});

describe('regions', () => {
  it('serves an account only on its own region host (403/1018 elsewhere)', async () => {
    const eu = await server.account({ region: 'eu' });
    const onDefault = await server.client.get('/v3/users/me', { token: eu.token });
    expect(onDefault.status).toBe(403);
    expect(onDefault.body.error.id).toBe('1018');
    const onEu = await server.client.get('/v3/users/me', { token: eu.token, headers: { host: EU_HOST } });
    expect(onEu.status).toBe(200);
    expect(onEu.body.href).toBe(`http://${EU_HOST}/v3/users/me`);

    const us = await server.account();
    const usOnCa = await server.client.get('/v3/users/me', { token: us.token, headers: { host: CA_HOST } });
    expect(usOnCa.status).toBe(403);
    expect(usOnCa.body.error.id).toBe('1018');
  });
});
