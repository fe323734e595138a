// Security headers and cookies: every page and API answer carries nosniff and a CSP with
// frame-ancestors (no inline script or style beyond the declared ones), HSTS exactly when served
// over https (directly or per X-Forwarded-Proto under TRUST_PROXY); every cookie is Secure when
// PUBLIC_URL is https; the respondent cookie is parsed by @fastify/cookie (a malformed value is
// no 500); the opt-out form is CSRF-protected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEnded, seedSurvey, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emailCollector } from '../invite/helpers.js';

let plain: TestServer; // http, no proxy trusted
let proxied: TestServer; // PUBLIC_URL https behind a trusted proxy

beforeAll(async () => {
  [plain, proxied] = await Promise.all([
    startServer(),
    startServer({ env: { PUBLIC_URL: 'https://surveys.example', TRUST_PROXY: 'true' } }),
  ]);
});
afterAll(async () => {
  await plain?.close();
  await proxied?.close();
});

async function weblink(server: TestServer) {
  const a = await server.account();
  const s = await seedSurvey(server, a, {
    title: 'Headers',
    questions: { why: openEnded('Why?') },
    collector: 'weblink',
  });
  return {
    account: a,
    surveyId: s.id,
    collectorId: s.collector.id as string,
    path: new URL(s.collector.url).pathname,
  };
}

describe('security headers', () => {
  it('every page and API answer has nosniff, no framing and a CSP without unsafe-inline', async () => {
    const { account, path } = await weblink(plain);
    const survey = (await plain.client.get('/v3/surveys', { token: account.token })).body.data[0];
    const details = (await plain.client.get(`/v3/surveys/${survey.id}`, { token: account.token })).body;
    const paths = [
      '/',
      '/login',
      '/apps',
      '/account',
      '/docs',
      '/docs/errors',
      '/docs/static/index.html',
      '/no/such/page',
      path,
      '/r/nosuchcollector',
      '/optout?sm=nosuchtoken0000',
      new URL(details.preview).pathname + new URL(details.preview).search,
      '/oauth/authorize?client_id=nope&response_type=code',
      '/v3/users/me',
      '/v3/errors',
      '/v3/no/such/thing',
      '/v3/openapi.json',
    ];
    for (const p of paths) {
      const res = await plain.client.get(p, { token: p.startsWith('/v3/users') ? account.token : undefined });
      expect(res.status, p).toBeLessThan(500);
      expect(res.headers['x-content-type-options'], p).toBe('nosniff');
      expect(res.headers['x-frame-options'], p).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("default-src 'self'");
      expect(csp, p).not.toContain('unsafe-inline');
      expect(res.headers['strict-transport-security'], p).toBeUndefined();
    }
  });

  it('every inline script and style block of a page is allowed by the policy by its hash', async () => {
    const { path } = await weblink(plain);
    const { createHash } = await import('node:crypto');
    // Pages of the shell have no inline blocks (their styles are in /assets/app.css); those left must be hashed.
    let inline = 0;
    for (const p of ['/', '/login', path]) {
      const res = await plain.client.get(p);
      const csp = String(res.headers['content-security-policy']);
      const blocks = [...res.text.matchAll(/<(script|style)>([\s\S]*?)<\/\1>/g)];
      inline += blocks.length;
      for (const [, kind, text] of blocks) {
        const hash = `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
        expect(
          csp.split(';').find((d) => d.trim().startsWith(`${kind}-src `)),
          `${p} ${kind}`,
        ).toContain(hash);
      }
      expect(res.text, p).not.toMatch(/\sstyle="/);
    }
    expect(inline).toBeGreaterThan(0);
  });

  it('sends HSTS only over https: X-Forwarded-Proto counts under TRUST_PROXY, not without it', async () => {
    for (const p of ['/login', '/v3/errors']) {
      const viaProxy = await proxied.client.get(p, { headers: { 'x-forwarded-proto': 'https' } });
      expect(viaProxy.headers['strict-transport-security'], p).toMatch(/max-age=\d{8,}/);
      const httpViaProxy = await proxied.client.get(p, { headers: { 'x-forwarded-proto': 'http' } });
      expect(httpViaProxy.headers['strict-transport-security'], p).toBeUndefined();
      const untrusted = await plain.client.get(p, { headers: { 'x-forwarded-proto': 'https' } });
      expect(untrusted.headers['strict-transport-security'], p).toBeUndefined();
    }
  });
});

describe('cookies', () => {
  it('every cookie is Secure when PUBLIC_URL is https, whatever the scheme of the request', async () => {
    const { path } = await weblink(proxied);
    const a = await proxied.account();
    const web = new WebSession(proxied.url);
    await web.get(path); // the respondent's cookie
    await web.signIn(a.user.username, a.password); // _csrf and ss_session
    const names = web.setCookieHeaders.map((c) => c.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['ss_session', '_csrf']));
    expect(names.some((n) => /^sr\d+$/.test(n))).toBe(true);
    for (const c of web.setCookieHeaders) expect(c, c).toMatch(/;\s*Secure/i);
    // And not on a plain http service.
    const { path: plainPath } = await weblink(plain);
    const local = new WebSession(plain.url);
    await local.get(plainPath);
    expect(local.setCookieHeaders.length).toBeGreaterThan(0);
    for (const c of local.setCookieHeaders) expect(c, c).not.toMatch(/;\s*Secure/i);
  });

  it('a malformed respondent cookie is ignored, never a 500', async () => {
    const { path, collectorId } = await weblink(plain);
    for (const value of ['%E0%A4%A', '%', '%%%', '%ZZ', 'a%00b']) {
      const cookie = `sr${collectorId}=${value}; sp${collectorId}=${value}`;
      const get = await plain.client.get(path, { headers: { cookie } });
      expect(get.status, value).toBe(200);
      expect(String(get.headers['set-cookie']), value).toMatch(
        new RegExp(`sr${collectorId}=[A-Za-z0-9_-]{20,}`),
      );
      const post = await plain.client.request('POST', path, {
        rawBody: 'csrf=x&nav=next',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(post.status, value).toBe(403);
    }
  });
});

describe('opt-out form', () => {
  it('is CSRF-protected: a post without the page token changes nothing', async () => {
    const a = await plain.account();
    const { collectorId } = await emailCollector(plain.client, a.token);
    const t = { token: a.token };
    const msg = await plain.client.post(`/v3/collectors/${collectorId}/messages`, { type: 'invite' }, t);
    const r = await plain.client.post(
      `/v3/collectors/${collectorId}/messages/${msg.body.id}/recipients`,
      { email: 'olga@example.org' },
      t,
    );
    expect(r.status, r.text).toBe(201);
    const one = await plain.client.get(`/v3/collectors/${collectorId}/recipients/${r.body.id}`, t);
    const sm = new URL(one.body.remove_link).searchParams.get('sm')!;
    const optedOut = async () =>
      (await plain.client.get('/v3/contacts?status=optout', t)).body.data.map((c: any) => c.email);

    // A cross-site form: no cookie, no token (and a stolen token without the cookie).
    const forged = new WebSession(plain.url);
    expect([400, 403]).toContain((await forged.post('/optout', { sm })).status);
    const other = new WebSession(plain.url);
    const stolen = await other.csrf(`/optout?sm=${sm}`);
    expect((await forged.post('/optout', { sm, _csrf: stolen })).status).toBe(403);
    expect(await optedOut()).not.toContain('olga@example.org');

    // The person who opened the page.
    const web = new WebSession(plain.url);
    const _csrf = await web.csrf(`/optout?sm=${sm}`);
    const done = await web.post('/optout', { sm, _csrf });
    expect(done.status).toBe(200);
    expect(done.text).toContain('olga@example.org');
    expect(await optedOut()).toContain('olga@example.org');
  });
});
