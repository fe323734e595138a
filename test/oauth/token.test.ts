// The authorization code flow over HTTP: /oauth/authorize's checks and redirects, /oauth/token's
// exchange and RFC 6749 errors, PKCE, single-use and expiring codes, grants and their events.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorize, authorizePath, exchange } from './flow.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
const REDIRECT = 'http://localhost:9/callback';

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

/** A developer with a draft app (required users_read, optional surveys_read and groups_read). */
async function developer(plan: 'basic' | 'premier' = 'premier') {
  const dev = await server.account({ plan });
  const created = await createApp(server.deps, dev.user, {
    name: 'Flow app',
    redirectUris: [REDIRECT, 'com.example.app:/oauth'],
    scopes: { users_read: 'required', surveys_read: 'optional', groups_read: 'optional' },
  });
  const web = await signIn(server, dev);
  return { dev, app: created.app, secret: created.clientSecret, web };
}

async function codeFor(d: Awaited<ReturnType<typeof developer>>, extra?: Record<string, string>) {
  const url = await authorize(d.web, {
    clientId: d.app.client_id,
    redirectUri: REDIRECT,
    state: 's1',
    extra,
  });
  return url.searchParams.get('code')!;
}

function tokenFields(
  d: Awaited<ReturnType<typeof developer>>,
  code: string,
  more: Record<string, string> = {},
) {
  return {
    grant_type: 'authorization_code',
    client_id: d.app.client_id,
    client_secret: d.secret,
    code,
    redirect_uri: REDIRECT,
    ...more,
  };
}

async function events(type: string, ownerId: string) {
  return server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('type', '=', type)
    .where('owner_id', '=', ownerId)
    .execute();
}

describe('GET /oauth/authorize', () => {
  it('sends a signed-out visitor to sign in, then back to the consent page', async () => {
    const d = await developer();
    const web = new WebSession(server.url);
    const path = authorizePath({ clientId: d.app.client_id, redirectUri: REDIRECT, state: 'x' });
    const res = await web.get(path);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    const _csrf = await web.csrf(res.location!);
    const login = await web.post('/login', {
      _csrf,
      username: d.dev.user.username,
      password: d.dev.password,
      next: path,
    });
    expect(login.location).toBe(path);
    const consent = await web.get(path);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Allow <span id="app-name">Flow app</span>');
    expect(consent.text).toContain('<li data-scope="users_read">View Users</li>');
    expect(consent.text).toMatch(/type="checkbox" name="scope" value="surveys_read"/);
    expect(consent.text).toMatch(/name="decision" value="approve"/);
    expect(consent.text).toMatch(/name="decision" value="deny"/);
    expect(consent.text).toMatch(/name="_csrf" value="[^"]+"/);
  });

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
    const d = await developer();
    const unknown = await d.web.get(authorizePath({ clientId: 'nope', redirectUri: REDIRECT }));
    expect(unknown.status).toBe(400);
    expect(unknown.location).toBeNull();
    expect(unknown.text).toContain('Unknown app');
    for (const uri of ['http://evil.test/cb', `${REDIRECT}/more`, `${REDIRECT}?x=1`]) {
      const res = await d.web.get(authorizePath({ clientId: d.app.client_id, redirectUri: uri }));
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.text).toContain('Invalid redirect address');
    }
    const missing = await d.web.get(`/oauth/authorize?response_type=code&client_id=${d.app.client_id}`);
    expect(missing.status).toBe(400);
    expect(missing.location).toBeNull();
  });

  it('redirects unsupported_response_type and a bad PKCE method to the registered URI', async () => {
    const d = await developer();
    const token = await d.web.get(
      authorizePath({
        clientId: d.app.client_id,
        redirectUri: REDIRECT,
        state: 'st',
        extra: { response_type: 'token' },
      }),
    );
    expect(token.status).toBe(302);
    const url = new URL(token.location!);
    expect(url.searchParams.get('error')).toBe('unsupported_response_type');
    expect(url.searchParams.get('state')).toBe('st');
    const plain = await d.web.get(
      authorizePath({
        clientId: d.app.client_id,
        redirectUri: REDIRECT,
        extra: { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
      }),
    );
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('ends with an upgrade message when a required scope needs a paid plan the user lacks', async () => {
    const dev = await server.account({ plan: 'basic' });
    const created = await createApp(server.deps, dev.user, {
      name: 'Teams viewer',
      redirectUris: [REDIRECT],
      scopes: { groups_read: 'required', users_read: 'optional' },
    });
    const web = await signIn(server, dev);
    const res = await web.get(authorizePath({ clientId: created.app.client_id, redirectUri: REDIRECT }));
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
    expect(res.text).toContain('Upgrade needed');
    expect(res.text).toContain('View Teams');
  });

  it('refuses the consent post without a valid CSRF token', async () => {
    const d = await developer();
    await d.web.get(authorizePath({ clientId: d.app.client_id, redirectUri: REDIRECT }));
    const res = await d.web.post('/oauth/authorize', {
      _csrf: 'forged',
      decision: 'approve',
      response_type: 'code',
      client_id: d.app.client_id,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
    expect(res.text).toContain('Form expired');
  });

  it('denies with access_denied, error_description and the state', async () => {
    const d = await developer();
    const url = await authorize(d.web, {
      clientId: d.app.client_id,
      redirectUri: REDIRECT,
      state: 'a b&c',
      decision: 'deny',
    });
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBe('Resource owner canceled the request');
    expect(url.searchParams.get('state')).toBe('a b&c');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('keeps a custom-scheme redirect URI and its exact form', async () => {
    const d = await developer();
    const url = await authorize(d.web, {
      clientId: d.app.client_id,
      redirectUri: 'com.example.app:/oauth',
      state: 'z',
    });
    expect(url.protocol).toBe('com.example.app:');
    expect(url.searchParams.get('code')).toBeTruthy();
  });
});

describe('POST /oauth/token', () => {
  it('exchanges a code for a token that works, with the granted scopes in the headers', async () => {
    const d = await developer();
    const url = await authorize(d.web, {
      clientId: d.app.client_id,
      redirectUri: REDIRECT,
      state: 'xyz',
      scopes: ['groups_read'],
    });
    expect(url.searchParams.get('state')).toBe('xyz');
    const res = await exchange(server.url, tokenFields(d, url.searchParams.get('code')!));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'access_url', 'token_type']);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.access_url).toBe('http://localhost');
    const me = await server.client.get('/v3/users/me', { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(d.dev.user.id);
    // required users_read plus the optional scope kept; surveys_read was cleared
    expect(me.headers['x-oauth-scopes-granted']).toBe('users_read,groups_read');
    expect(me.body.scopes.granted).toEqual(['users_read', 'groups_read']);
  });

  it('gives an EU account its regional access_url', async () => {
    const dev = await server.account({ region: 'eu' });
    const created = await createApp(server.deps, dev.user, { name: 'EU', redirectUris: [REDIRECT] });
    const web = await signIn(server, dev);
    const url = await authorize(web, { clientId: created.app.client_id, redirectUri: REDIRECT });
    const res = await exchange(server.url, {
      grant_type: 'authorization_code',
      client_id: created.app.client_id,
      client_secret: created.clientSecret,
      code: url.searchParams.get('code')!,
      redirect_uri: REDIRECT,
    });
    expect(res.body.access_url).toBe('http://eu.survey.test');
  });

  it('answers invalid_grant for a reused code and revokes the token its first use issued', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const first = await exchange(server.url, tokenFields(d, code));
    expect(first.status).toBe(200);
    const again = await exchange(server.url, tokenFields(d, code));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already been used/),
    });
    const me = await server.client.get('/v3/users/me', { token: first.body.access_token });
    expect(me.body).toEqual({ status: 1, errmsg: 'Client revoked access grant' });
  });

  it('answers invalid_grant for a code older than five minutes', async () => {
    const d = await developer();
    const fresh = await codeFor(d);
    clock.advance(4 * 60_000 + 59_000);
    expect((await exchange(server.url, tokenFields(d, fresh))).status).toBe(200);
    const code = await codeFor(d);
    clock.advance(5 * 60_000);
    const res = await exchange(server.url, tokenFields(d, code));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toMatch(/expired/);
  });

  it('binds the code to the client and the redirect URI', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const other = await createApp(server.deps, d.dev.user, { name: 'Other', redirectUris: [REDIRECT] });
    const wrongClient = await exchange(server.url, {
      ...tokenFields(d, code),
      client_id: other.app.client_id,
      client_secret: other.clientSecret,
    });
    expect(wrongClient.body.error).toBe('invalid_grant');
    const wrongUri = await exchange(
      server.url,
      tokenFields(d, code, { redirect_uri: 'com.example.app:/oauth' }),
    );
    expect(wrongUri.body.error).toBe('invalid_grant');
    expect((await exchange(server.url, tokenFields(d, code))).status).toBe(200);
    expect((await exchange(server.url, tokenFields(d, 'not-a-code'))).body.error).toBe('invalid_grant');
  });

  it('answers RFC 6749 errors for bad requests and bad client credentials', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const cases: [Record<string, string>, number, string][] = [
      [{ ...tokenFields(d, code), grant_type: '' }, 400, 'invalid_request'],
      [{ ...tokenFields(d, code), grant_type: 'password' }, 400, 'unsupported_grant_type'],
      [{ ...tokenFields(d, code), client_secret: 'wrong' }, 401, 'invalid_client'],
      [{ ...tokenFields(d, code), client_id: 'unknown' }, 401, 'invalid_client'],
      [{ ...tokenFields(d, code), client_secret: '' }, 401, 'invalid_client'],
      [{ ...tokenFields(d, code), code: '' }, 400, 'invalid_request'],
      [{ ...tokenFields(d, code), redirect_uri: '' }, 400, 'invalid_request'],
    ];
    for (const [fields, status, error] of cases) {
      const res = await exchange(
        server.url,
        Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')),
      );
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.body.error).toBe(error);
      expect(typeof res.body.error_description).toBe('string');
    }
    const text = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: string }).error).toBe('invalid_request');
    // the code was never spent by the failures
    expect((await exchange(server.url, tokenFields(d, code))).status).toBe(200);
  });

  it('accepts client credentials by HTTP Basic and challenges a bad one', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const bad = await exchange(
      server.url,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(d.app.client_id, 'wrong') },
    );
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Basic/);
    const ok = await exchange(
      server.url,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(d.app.client_id, d.secret) },
    );
    expect(ok.status).toBe(200);
  });

  it('checks a PKCE S256 code_verifier when the code carries a challenge', async () => {
    const d = await developer();
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const extra = { code_challenge: challenge, code_challenge_method: 'S256' };
    const code1 = await codeFor(d, extra);
    expect((await exchange(server.url, tokenFields(d, code1))).body.error).toBe('invalid_grant');
    const code2 = await codeFor(d, extra);
    expect(
      (await exchange(server.url, tokenFields(d, code2, { code_verifier: 'w'.repeat(50) }))).body.error,
    ).toBe('invalid_grant');
    const code3 = await codeFor(d, extra);
    expect((await exchange(server.url, tokenFields(d, code3, { code_verifier: verifier }))).status).toBe(200);
  });
});

describe('grants', () => {
  it('keeps one OAuth token per account and app: re-authorizing replaces the grant', async () => {
    const d = await developer();
    const first = await exchange(server.url, tokenFields(d, await codeFor(d)));
    const second = await exchange(server.url, tokenFields(d, await codeFor(d)));
    expect((await server.client.get('/v3/users/me', { token: first.body.access_token })).body).toEqual({
      status: 1,
      errmsg: 'Client revoked access grant',
    });
    expect((await server.client.get('/v3/users/me', { token: second.body.access_token })).status).toBe(200);
    const active = await server.deps.db.kysely
      .selectFrom('tokens')
      .select('id')
      .where('app_id', '=', d.app.id)
      .where('user_id', '=', d.dev.user.id)
      .where('status', '=', 'active')
      .where('origin', '=', 'oauth') // beside the owner's registration token, which stays
      .execute();
    expect(active).toHaveLength(1);
    const created = await events('grant_info_created', d.dev.user.id);
    expect(created).toHaveLength(2);
    expect(created[0]).toMatchObject({
      resource_type: 'app',
      resource_id: d.app.id,
      actor_id: d.dev.user.id,
    });
    expect(await events('app_installed', d.dev.user.id)).toHaveLength(2);
  });

  it('lets only one of two simultaneous exchanges of a code win, and leaves one active token', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const same = await Promise.all([
      exchange(server.url, tokenFields(d, code)),
      exchange(server.url, tokenFields(d, code)),
    ]);
    expect(same.map((r) => r.status).sort()).toEqual([200, 400]);
    const [c1, c2] = [await codeFor(d), await codeFor(d)];
    const both = await Promise.all([
      exchange(server.url, tokenFields(d, c1)),
      exchange(server.url, tokenFields(d, c2)),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const active = await server.deps.db.kysely
      .selectFrom('tokens')
      .select('id')
      .where('app_id', '=', d.app.id)
      .where('user_id', '=', d.dev.user.id)
      .where('status', '=', 'active')
      .where('origin', '=', 'oauth') // beside the owner's registration token, which stays
      .execute();
    expect(active).toHaveLength(1);
  });

  it('stores codes hashed', async () => {
    const d = await developer();
    const code = await codeFor(d);
    const stored = await server.deps.db.kysely.selectFrom('auth_codes').select('code_hash').execute();
    expect(stored.some((r) => r.code_hash === code)).toBe(false);
    expect(stored.some((r) => r.code_hash === createHash('sha256').update(code).digest('hex'))).toBe(true);
  });

  it('removing an app under linked apps revokes its token and records the events', async () => {
    const d = await developer();
    const res = await exchange(server.url, tokenFields(d, await codeFor(d)));
    const page = await d.web.get('/account/apps');
    expect(page.text).toContain('Flow app');
    const csrf = csrfToken(page.text.slice(page.text.indexOf(`/account/apps/${d.app.id}/revoke`)));
    const removed = await d.web.post(`/account/apps/${d.app.id}/revoke`, { _csrf: csrf });
    expect(removed.status).toBe(303);
    const me = await server.client.get('/v3/users/me', { token: res.body.access_token });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ status: 1, errmsg: 'Client revoked access grant' });
    expect(await events('grant_info_deleted', d.dev.user.id)).toHaveLength(1);
    expect(await events('app_uninstalled', d.dev.user.id)).toHaveLength(1);
    expect((await d.web.get('/account/apps')).text).not.toContain(`/account/apps/${d.app.id}/revoke`);
  });

  it('does not let one account remove another account’s grant', async () => {
    const victim: TestAccount = await server.account();
    const d = await developer();
    const csrf = await d.web.csrf('/account/apps');
    const res = await d.web.post(`/account/apps/${victim.app.id}/revoke`, { _csrf: csrf });
    expect(res.status).toBe(303);
    expect((await server.client.get('/v3/users/me', { token: victim.token })).status).toBe(200);
  });

  it('stops a disabled draft: no consent page and no exchange', async () => {
    const d = await developer();
    const code = await codeFor(d);
    clock.advance(91 * 86_400_000);
    const page = await d.web.get(authorizePath({ clientId: d.app.client_id, redirectUri: REDIRECT }));
    expect(page.status).toBe(403);
    expect(page.text).toContain('App disabled');
    const res = await exchange(server.url, tokenFields(d, code));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });
});
