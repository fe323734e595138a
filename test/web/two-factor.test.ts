// Two-factor sign-in over HTTP: enrolling an authenticator app from the otpauth:// address the
// security page shows (codes computed here by the `otpauth` library), the second step of sign-in
// (wrong codes, replay, the same code posted concurrently), recovery codes, turning it off, the
// OAuth consent flow, REQUIRE_2FA, and the operator's reset.
import { URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJsonAsync } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { type TestAccount, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizePath, decodeEntities, hiddenFields } from '../oauth/flow.js';

let server: TestServer;
let strict: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
let ipCounter = 0;

beforeAll(async () => {
  [server, strict] = await Promise.all([
    startServer({ clock, env: { TRUST_PROXY: 'true' } }),
    startServer({ clock, env: { TRUST_PROXY: 'true', REQUIRE_2FA: 'true' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), strict?.close()]);
});

/** A browser-like session from its own client address. */
function visitor(on: TestServer = server) {
  return new WebSession(on.url, { 'x-forwarded-for': `198.51.100.${++ipCounter}` });
}

async function signedIn(a: TestAccount, on: TestServer = server): Promise<WebSession> {
  const web = visitor(on);
  const res = await web.signIn(a.user.username, a.password);
  expect(res.status).toBe(303);
  return web;
}

/** Enrols an authenticator app from the page and returns its TOTP (from the address shown) and the
 * recovery codes shown once. */
async function enrol(web: WebSession) {
  const started = await web.postForm('/account/security/totp/start', {}, '/account/security');
  expect(started.status).toBe(303);
  const page = await web.get('/account/security');
  const uri = decodeEntities(/<code id="totp-uri">([^<]+)<\/code>/.exec(page.text)![1]);
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(page.text).toMatch(/<img src="data:image\/png;base64,[^"]+"[^>]*alt="QR code/);
  const totp = URI.parse(uri);
  if (!('period' in totp)) throw new Error('not a TOTP address');
  return { totp, page };
}

const codeNow = (totp: ReturnType<typeof URI.parse>) => totp.generate({ timestamp: clock.now().getTime() });
const codesOf = (text: string) =>
  [...text.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);

/** The password step: a session holding the pending proof, sent to the second step. */
async function passwordStep(a: TestAccount, next?: string, on: TestServer = server) {
  const web = visitor(on);
  const _csrf = await web.csrf(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  const res = await web.post('/login', {
    _csrf,
    username: a.user.username,
    password: a.password,
    ...(next ? { next } : {}),
  });
  expect(res.status).toBe(303);
  expect(res.location).toBe(`/login/two-factor?next=${encodeURIComponent(next ?? '/')}`);
  expect(web.cookies.has('ss_session'), 'no session before the second factor').toBe(false);
  return web;
}

async function secondStep(web: WebSession, code: string, next = '/') {
  return web.postForm(
    '/login/two-factor',
    { code, next },
    `/login/two-factor?next=${encodeURIComponent(next)}`,
  );
}

async function enrolled(on: TestServer = server) {
  const a = await on.account();
  const web = await signedIn(a, on);
  const { totp } = await enrol(web);
  const done = await web.postForm(
    '/account/security/totp/confirm',
    { code: codeNow(totp) },
    '/account/security',
  );
  expect(done.status).toBe(200);
  clock.advance(30_000);
  return { a, web, totp, codes: codesOf(done.text) };
}

describe('enrolling an authenticator app', () => {
  it('shows the otpauth:// address and QR code, refuses a wrong first code, then shows ten recovery codes once and ends other sessions', async () => {
    const a = await server.account();
    const other = await signedIn(a);
    const web = await signedIn(a);
    const before = await web.get('/account/security');
    expect(before.status).toBe(200);
    expect(before.text).toContain('href="/account/security" aria-current="page"');
    expect(before.text).toMatch(/id="two-factor-state">off</);
    const { totp } = await enrol(web);
    expect(totp.label).toBe(a.user.username);
    expect(totp.issuer).toBe('Survey Service');

    const wrong = await web.postForm(
      '/account/security/totp/confirm',
      { code: '000000' },
      '/account/security',
    );
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That code is not correct');
    expect(wrong.text).toMatch(/id="two-factor-state">off</);

    const right = await web.postForm(
      '/account/security/totp/confirm',
      { code: codeNow(totp) },
      '/account/security',
    );
    expect(right.status).toBe(200);
    const codes = codesOf(right.text);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(right.text).toMatch(/id="two-factor-state">on</);

    const again = await web.get('/account/security');
    expect(codesOf(again.text), 'shown only once').toHaveLength(0);
    expect(again.text).toContain('10 of 10 recovery codes left');
    // Stored: the secret sealed, the codes as keyed hashes, never as shown.
    const row = await server.deps.db.kysely
      .selectFrom('user_two_factor')
      .selectAll()
      .where('user_id', '=', a.user.id)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(totp.secret.base32);
    const stored = await server.deps.db.kysely
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', a.user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const c of codes) expect(stored.map((s) => s.code_hash).join(' ')).not.toContain(c.replace('-', ''));

    expect((await other.get('/account')).status, 'the other session ended').toBe(303);
    expect((await web.get('/account')).status, 'this one stays').toBe(200);
  });
});

describe('signing in with a second factor', () => {
  it('asks for the code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const { a, totp } = await enrolled();
    const web = await passwordStep(a);
    expect((await web.get('/account')).status).toBe(303);
    const prompt = await web.get('/login/two-factor?next=%2F');
    expect(prompt.status).toBe(200);
    expect(prompt.text).toContain('Code from your authenticator app');

    const wrong = await secondStep(web, '123456' === codeNow(totp) ? '654321' : '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not correct');
    expect(web.cookies.has('ss_session')).toBe(false);

    const right = await secondStep(web, codeNow(totp));
    expect(right.status).toBe(303);
    expect(right.location).toBe('/');
    expect(web.cookies.has('ss_session')).toBe(true);
    expect(web.cookies.has('ss_second_factor'), 'the pending proof is cleared').toBe(false);
    expect((await web.get('/account')).status).toBe(200);
    const events = await server.deps.db.kysely
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'authentication_succeeded')
      .where('owner_id', '=', a.user.id)
      .execute();
    expect(events.some((e) => JSON.parse(e.data).second_factor === 'totp')).toBe(true);
  });

  it('refuses a code used once already, in its window, from another sign-in', async () => {
    const { a, totp } = await enrolled();
    const code = codeNow(totp);
    const first = await passwordStep(a);
    expect((await secondStep(first, code)).status).toBe(303);
    const second = await passwordStep(a);
    const replay = await secondStep(second, code);
    expect(replay.status).toBe(401);
    expect(second.cookies.has('ss_session')).toBe(false);
    clock.advance(30_000);
    expect((await secondStep(second, codeNow(totp))).status, 'the next step’s code works').toBe(303);
  });

  it('signs in at most once when the same valid code is posted concurrently', async () => {
    const { a, totp } = await enrolled();
    // two password steps (two browsers), each posting the code four times at once
    const webs = [await passwordStep(a), await passwordStep(a)];
    const tokens = await Promise.all(webs.map((w) => w.csrf('/login/two-factor')));
    const code = codeNow(totp);
    const sessionsBefore = await countSessions(a.user.id);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        webs[i % 2].post('/login/two-factor', { _csrf: tokens[i % 2], code, next: '/' }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.every((s) => s === 303 || s === 401 || s === 429)).toBe(true);
    expect(await countSessions(a.user.id)).toBe(sessionsBefore + 1);
  });

  it('takes a recovery code once', async () => {
    const { a, codes } = await enrolled();
    const web = await passwordStep(a);
    expect((await secondStep(web, codes[3].toUpperCase())).status).toBe(303);
    const again = await passwordStep(a);
    expect((await secondStep(again, codes[3])).status).toBe(401);
    expect((await secondStep(again, codes[4])).status).toBe(303);
    expect((await again.get('/account/security')).text).toContain('8 of 10 recovery codes left');
  });

  it('sends a second step without a valid pending proof back to the sign-in page', async () => {
    const web = visitor();
    expect((await web.get('/login/two-factor?next=%2Fcontacts')).location).toBe('/login?next=%2Fcontacts');
    web.cookies.set('ss_second_factor', '1.aaaaaaaaaaaaaaaaaaaaaaaa.abc.def');
    expect((await web.get('/login/two-factor')).status).toBe(303);
  });

  it('lets the password step expire after ten minutes', async () => {
    const { a, totp } = await enrolled();
    const web = await passwordStep(a);
    expect((await web.get('/login/two-factor')).status).toBe(200);
    const _csrf = await web.csrf('/login/two-factor');
    clock.advance(10 * 60_000 + 1000);
    const late = await web.post('/login/two-factor', { _csrf, code: codeNow(totp), next: '/' });
    expect(late.status).toBe(303);
    expect(late.location).toBe('/login?next=%2F');
    expect(web.cookies.has('ss_session')).toBe(false);
    clock.advance(30_000);
  });

  it('throttles wrong codes like passwords', async () => {
    const { a } = await enrolled();
    const web = await passwordStep(a);
    const _csrf = await web.csrf('/login/two-factor');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await web.post('/login/two-factor', { _csrf, code: '000000', next: '/' })).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
  });

  it("locks an account's codes against guessing elsewhere, but not for its owner's browser", async () => {
    const { a, web: owner, totp } = await enrolled();
    expect(owner.cookies.has('ss_device'), 'the owner signed in here before').toBe(true);
    const guesser = await passwordStep(a);
    const _csrf = await guesser.csrf('/login/two-factor');
    const wrong = () => guesser.post('/login/two-factor', { _csrf, code: '000000', next: '/' });
    for (let i = 0; i < 10; i++) {
      expect((await wrong()).status).toBe(401);
      // past each slowdown (after the third), within the password step's ten minutes
      if (i >= 2) clock.advance(61_000);
    }
    const locked = await wrong();
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many wrong codes');
    // The owner's browser, with its device cookie, still gets in.
    const browser = new WebSession(server.url, { 'x-forwarded-for': `198.51.100.${++ipCounter}` });
    browser.cookies.set('ss_device', owner.cookies.get('ss_device')!);
    const _csrf2 = await browser.csrf('/login');
    const step = await browser.post('/login', {
      _csrf: _csrf2,
      username: a.user.username,
      password: a.password,
    });
    expect(step.location).toBe('/login/two-factor?next=%2F');
    expect((await secondStep(browser, codeNow(totp))).status).toBe(303);
    clock.advance(30_000);
  });
});

async function countSessions(userId: string): Promise<number> {
  const rows = await server.deps.db.kysely
    .selectFrom('sessions')
    .select('user_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.length;
}

describe('new recovery codes', () => {
  it('need the password, are shown once, and void the old ones', async () => {
    const { a, web, codes } = await enrolled();
    const wrong = await web.postForm(
      '/account/security/recovery-codes',
      { password: 'not it' },
      '/account/security',
    );
    expect(wrong.status).toBe(400);
    expect(codesOf(wrong.text)).toHaveLength(0);
    const made = await web.postForm(
      '/account/security/recovery-codes',
      { password: a.password },
      '/account/security',
    );
    expect(made.status).toBe(200);
    const fresh = codesOf(made.text);
    expect(fresh).toHaveLength(10);
    const old = await passwordStep(a);
    expect((await secondStep(old, codes[0])).status, 'an old code').toBe(401);
    expect((await secondStep(old, fresh[0])).status).toBe(303);
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs the password again, then signs in with the password alone', async () => {
    const { a, web } = await enrolled();
    const wrong = await web.postForm(
      '/account/security/two-factor/off',
      { password: 'not it' },
      '/account/security',
    );
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not correct');
    expect(wrong.text).toMatch(/id="two-factor-state">on</);
    const off = await web.postForm(
      '/account/security/two-factor/off',
      { password: a.password },
      '/account/security',
    );
    expect(off.status).toBe(303);
    expect((await web.get('/account/security')).text).toMatch(/id="two-factor-state">off</);
    const again = visitor();
    const res = await again.signIn(a.user.username, a.password);
    expect(res.location).toBe('/');
    expect(again.cookies.has('ss_session')).toBe(true);
  });
});

describe('the OAuth consent flow', () => {
  it('asks for the code between the password and the consent page', async () => {
    const { a, totp } = await enrolled();
    const path = authorizePath({
      clientId: a.app.client_id,
      redirectUri: JSON.parse(a.app.redirect_uris)[0],
      state: 's1',
    });
    const web = visitor();
    const first = await web.get(path);
    expect(first.status).toBe(303);
    const login = new URL(first.location!, server.url);
    const next = login.searchParams.get('next')!;
    const step = await passwordStep(a, next);
    web.cookies.clear();
    for (const [k, v] of step.cookies) web.cookies.set(k, v);
    const res = await secondStep(web, codeNow(totp), next);
    expect(res.status).toBe(303);
    expect(res.location).toBe(next);
    const consent = await web.get(next);
    expect(consent.status).toBe(200);
    expect(hiddenFields(consent.text, '/oauth/authorize').client_id).toBe(a.app.client_id);
  });
});

describe('REQUIRE_2FA', () => {
  it('sends a password account to set up two-factor before any page; its API token keeps working', async () => {
    const a = await strict.account();
    const web = await signedIn(a, strict);
    for (const path of ['/', '/account', '/contacts']) {
      const res = await web.get(path);
      expect(res.status, path).toBe(303);
      expect(res.location).toBe(`/account/security?next=${encodeURIComponent(path)}`);
    }
    const path = authorizePath({
      clientId: a.app.client_id,
      redirectUri: JSON.parse(a.app.redirect_uris)[0],
    });
    expect((await web.get(path)).location).toBe(`/account/security?next=${encodeURIComponent(path)}`);
    const page = await web.get('/account/security?next=%2Fcontacts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="two-factor-required"');
    const me = await fetch(`${strict.url}/v3/users/me`, { headers: { authorization: `bearer ${a.token}` } });
    expect(me.status, 'tokens keep working').toBe(200);

    const { totp } = await enrol(web);
    const done = await web.postForm(
      '/account/security/totp/confirm',
      { code: codeNow(totp), next: '/contacts' },
      '/account/security?next=%2Fcontacts',
    );
    expect(done.status).toBe(200);
    expect(done.text).toContain('href="/contacts"');
    expect((await web.get('/contacts')).status).toBe(200);
    const off = await web.postForm(
      '/account/security/two-factor/off',
      { password: a.password },
      '/account/security',
    );
    expect(off.status, 'cannot be turned off').toBe(409);
    clock.advance(30_000);
  });
});

describe('user update --reset-2fa', () => {
  it('removes the second factors of a locked-out account', async () => {
    const { a } = await enrolled();
    const out = await runCliJsonAsync(
      ['user', 'update', '--username', a.user.username, '--reset-2fa', '--json'],
      {
        DATABASE_URL: server.config.databaseUrl,
      },
    );
    expect(out.two_factor_reset).toBe(true);
    const web = visitor();
    expect((await web.signIn(a.user.username, a.password)).location).toBe('/');
  });
});
