// Sign-in, sessions and sign-out over HTTP: cookies, hashed session ids, the slowdown and lockout
// per account and per address, the authentication events, CSRF and safe `next` redirects.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSignedIn, signedInOnly } from '../../src/web/session.js';
import { TestClock } from '../helpers/clock.js';
import { WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
let ipCounter = 0;

beforeAll(async () => {
  server = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
});
afterAll(() => server.close());

/** A browser-like session from its own client address. */
function visitor(ip = `198.51.100.${++ipCounter}`, headers: Record<string, string> = {}) {
  return new WebSession(server.url, { 'x-forwarded-for': ip, ...headers });
}

async function eventsOf(type: string) {
  return server.deps.db.kysely.selectFrom('events').selectAll().where('type', '=', type).execute();
}

describe('sign-in page', () => {
  it('has labelled username and password fields and a CSRF token', async () => {
    const res = await visitor().get('/login');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('<label for="username">Username</label>');
    expect(res.text).toMatch(/<input id="username" name="username"/);
    expect(res.text).toContain('<label for="password">Password</label>');
    expect(res.text).toMatch(/<input id="password" name="password" type="password"/);
    expect(res.text).toMatch(/name="_csrf" value="[^"]+"/);
  });

  it('signs in with an HttpOnly, SameSite=Lax session cookie whose id is stored only hashed', async () => {
    const a = await server.account();
    const web = visitor();
    const res = await web.signIn(a.user.username, a.password);
    expect(res.status).toBe(303);
    expect(res.location, 'the survey list').toBe('/');
    const cookie = web.setCookieHeaders.find((c) => c.startsWith('ss_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const id = web.cookies.get('ss_session')!;
    const rows = await server.deps.db.kysely
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', a.user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].session_hash).toBe(createHash('sha256').update(id).digest('hex'));
    const account = await web.get('/account');
    expect(account.status).toBe(200);
    expect(account.text).toContain(a.user.username);
    const ok = (await eventsOf('authentication_succeeded')).filter((e) => e.owner_id === a.user.id);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ actor_id: a.user.id, ip: web.extraHeaders['x-forwarded-for'] });
    const user = await server.deps.db.kysely
      .selectFrom('users')
      .select('date_last_login')
      .where('id', '=', a.user.id)
      .executeTakeFirst();
    expect(user?.date_last_login).toBe(clock.now().toISOString());
  });

  it('marks cookies Secure when the request came over HTTPS', async () => {
    const a = await server.account();
    const web = visitor(undefined, { 'x-forwarded-proto': 'https' });
    await web.signIn(a.user.username, a.password);
    for (const name of ['ss_session', '_csrf'])
      expect(web.setCookieHeaders.find((c) => c.startsWith(`${name}=`))).toMatch(/; Secure/);
  });

  it('marks cookies Secure when PUBLIC_URL is https', async () => {
    const https = await startServer({ env: { PUBLIC_URL: 'https://surveys.example' } });
    try {
      const a = await https.account();
      const web = new WebSession(https.url);
      await web.signIn(a.user.username, a.password);
      expect(web.setCookieHeaders.find((c) => c.startsWith('ss_session='))).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });

  it('refuses a wrong password with a message and records authentication_failed', async () => {
    const a = await server.account();
    const web = visitor();
    const res = await web.signIn(a.user.username, 'wrong password');
    expect(res.status).toBe(401);
    expect(res.text).toContain('The username or password is not correct.');
    expect(res.text).toContain(`value="${a.user.username}"`);
    expect(web.cookies.has('ss_session')).toBe(false);
    const failed = (await eventsOf('authentication_failed')).filter((e) => e.owner_id === a.user.id);
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0].data)).toEqual({ username: a.user.username });
    const unknown = await visitor().signIn('nobody-here', 'whatever');
    expect(unknown.status).toBe(401);
  });

  it('refuses a post without the CSRF token', async () => {
    const a = await server.account();
    const web = visitor();
    await web.get('/login');
    const res = await web.post('/login', { username: a.user.username, password: a.password, _csrf: 'x' });
    expect(res.status).toBe(403);
    expect(web.cookies.has('ss_session')).toBe(false);
    const none = await visitor().post('/login', { username: a.user.username, password: a.password });
    expect(none.status).toBe(400);
  });

  it('returns to a local next page and never to another site', async () => {
    const a = await server.account();
    for (const [next, expected] of [
      ['/developer/apps', '/developer/apps'],
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/\\evil.example', '/'],
      ['/\t/evil.example', '/'],
      ['/%0a/evil.example', '/%0a/evil.example'],
      ['/oauth/authorize?client_id=a&state=b%20c', '/oauth/authorize?client_id=a&state=b%20c'],
    ]) {
      const web = visitor();
      const _csrf = await web.csrf(`/login?next=${encodeURIComponent(next)}`);
      const res = await web.post('/login', { _csrf, username: a.user.username, password: a.password, next });
      expect(res.location, next).toBe(expected);
    }
  });
});

describe('sessions', () => {
  it('sends signed-out visitors of a signed-in page to /login with next', async () => {
    const res = await visitor().get('/account/apps?x=1');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent('/account/apps?x=1')}`);
    const forged = new WebSession(server.url);
    forged.cookies.set('ss_session', 'made-up');
    expect((await forged.get('/account')).status).toBe(303);
  });

  it('signs out: the session is deleted, the cookie cleared and authentication_signout recorded', async () => {
    const a = await server.account();
    const web = visitor();
    await web.signIn(a.user.username, a.password);
    const id = web.cookies.get('ss_session')!;
    const _csrf = await web.csrf('/account');
    const res = await web.post('/logout', { _csrf });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are signed out');
    expect(web.cookies.has('ss_session')).toBe(false);
    const stale = new WebSession(server.url);
    stale.cookies.set('ss_session', id);
    expect((await stale.get('/account')).status).toBe(303);
    expect((await eventsOf('authentication_signout')).filter((e) => e.owner_id === a.user.id)).toHaveLength(
      1,
    );
  });

  it('expires a session after 14 days', async () => {
    const a = await server.account();
    const web = visitor();
    await web.signIn(a.user.username, a.password);
    clock.advance(13 * 86_400_000);
    expect((await web.get('/account')).status).toBe(200);
    clock.advance(86_400_000 + 1000);
    expect((await web.get('/account')).status).toBe(303);
  });
});

describe('requireSignedIn for other page areas', () => {
  it('works in a plugin that registers nothing itself, as a call and as a preHandler', async () => {
    // another area's pages: a separate Fastify instance over the same database, no cookie plugin
    const other = Fastify();
    other.get('/survey-home', async (request, reply) => {
      const user = await requireSignedIn(server.deps, request, reply);
      if (!user) return reply;
      return { hello: user.username };
    });
    other.post('/survey-home', { preHandler: signedInOnly(server.deps) }, async (request) => ({
      posted: request.sessionUser.username,
    }));
    await other.ready();
    try {
      const out = await other.inject({ method: 'GET', url: '/survey-home?tab=2' });
      expect(out.statusCode).toBe(303);
      expect(out.headers.location).toBe('/login?next=%2Fsurvey-home%3Ftab%3D2');
      const postOut = await other.inject({ method: 'POST', url: '/survey-home' });
      expect(postOut.statusCode).toBe(303);
      expect(postOut.headers.location).toBe('/login?next=%2Faccount');
      const a = await server.account();
      const web = visitor();
      await web.signIn(a.user.username, a.password);
      const cookie = `theme=dark; ss_session=${web.cookies.get('ss_session')}`;
      const ok = await other.inject({ method: 'GET', url: '/survey-home', headers: { cookie } });
      expect(ok.json()).toEqual({ hello: a.user.username });
      const posted = await other.inject({ method: 'POST', url: '/survey-home', headers: { cookie } });
      expect(posted.json()).toEqual({ posted: a.user.username });
    } finally {
      await other.close();
    }
  });
});

describe('brute-force protection', () => {
  it('slows down an account after 3 failures, then locks it after 10', async () => {
    const a = await server.account();
    // every attempt from a different address: the account counter alone applies
    for (let i = 1; i <= 3; i++) expect((await visitor().signIn(a.user.username, 'bad')).status).toBe(401);
    const slowed = await visitor().signIn(a.user.username, a.password);
    expect(slowed.status).toBe(429);
    expect(slowed.text).toContain('Too many failed sign-ins. Wait 2 seconds');
    expect(slowed.headers.get('retry-after')).toBe('2');
    clock.advance(2000);
    for (let i = 4; i <= 9; i++) {
      expect((await visitor().signIn(a.user.username, 'bad')).status, `failure ${i}`).toBe(401);
      clock.advance(60_000);
    }
    const tenth = await visitor().signIn(a.user.username, 'bad');
    expect(tenth.status).toBe(401);
    const locked = await visitor().signIn(a.user.username, a.password);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Sign-in is locked for 15 minutes');
    clock.advance(15 * 60_000);
    const after = await visitor().signIn(a.user.username, a.password);
    expect(after.status).toBe(303);
    // success clears the account's count
    expect((await visitor().signIn(a.user.username, 'bad')).status).toBe(401);
    expect((await visitor().signIn(a.user.username, a.password)).status).toBe(303);
  });

  it('slows down and then locks one address trying many accounts', async () => {
    const ip = '203.0.113.77';
    const target = await server.account();
    for (let i = 1; i <= 10; i++) expect((await visitor(ip).signIn(`guess${i}`, 'bad')).status).toBe(401);
    expect((await visitor(ip).signIn(target.user.username, target.password)).status).toBe(429);
    // other addresses are not affected
    expect((await visitor().signIn(target.user.username, target.password)).status).toBe(303);
    for (let i = 11; i <= 30; i++) {
      clock.advance(61_000);
      expect((await visitor(ip).signIn(`guess${i}`, 'bad')).status, `failure ${i}`).toBe(401);
    }
    clock.advance(61_000);
    const locked = await visitor(ip).signIn(target.user.username, target.password);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('locked');
  });

  it('keeps the counts in the database, shared by every process', async () => {
    const a = await server.account();
    for (let i = 0; i < 3; i++) await visitor().signIn(a.user.username, 'bad');
    const row = await server.deps.db.kysely
      .selectFrom('sign_in_failures')
      .selectAll()
      .where('key', '=', `user:${a.user.id}`)
      .executeTakeFirst();
    expect(row?.failures).toBe(3);
  });
});
