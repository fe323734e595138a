// Self-service accounts over HTTP: sign-up in each SIGNUP_MODE, email verification and password
// reset links (single use, expiring, hashed at rest), the throttles of sign-up and reset, no
// account enumeration by the reset form, unique usernames and addresses under concurrent
// sign-ups, and the account page's password and address changes.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domain/accounts/tokens.js';
import { pruneOnce } from '../../src/outbox/retention.js';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam } from '../teams/fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
let ipCounter = 0;
let n = 0;

beforeAll(async () => {
  server = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
});
afterAll(() => server.close());

/** A browser-like session from its own client address. */
function visitor(ip = `198.51.100.${++ipCounter}`) {
  return new WebSession(server.url, { 'x-forwarded-for': ip });
}

function fresh() {
  n += 1;
  const username = `ann${n}_${process.pid}`;
  return {
    username,
    email: `${username}@example.org`,
    password: 'a long password',
    password2: 'a long password',
  };
}

async function signUp(web: WebSession, fields: Record<string, string>) {
  const _csrf = await web.csrf('/signup');
  return web.post('/signup', { _csrf, ...fields });
}

/** The newest email queued to `to` and the link in it. */
async function mailTo(to: string) {
  const email = await server.deps.db.kysely
    .selectFrom('emails')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const link = email ? /https?:\/\/\S+/.exec(email.text_body)?.[0] : undefined;
  return { email, link: link ? new URL(link) : undefined, count: await countMail(to) };
}

async function countMail(to: string) {
  const rows = await server.deps.db.kysely
    .selectFrom('emails')
    .select('id')
    .where('to_address', '=', to)
    .execute();
  return rows.length;
}

const pathOf = (url: URL) => url.pathname + url.search;

/** email_verified as GET /v3/users/me reports it, through a token of some app for the user. */
async function apiVerified(userId: string): Promise<boolean> {
  const owner = await server.account();
  const token = await issueToken(server.deps, owner.app.id, userId, ['users_read']);
  const me = await server.client.get('/v3/users/me', { token });
  expect(me.status).toBe(200);
  return me.body.email_verified;
}

async function userNamed(username: string) {
  return server.deps.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
}

describe('sign-up (SIGNUP_MODE=open, the default)', () => {
  it('creates an unverified account, says a link was sent, and emails a single-use link that verifies it', async () => {
    const web = visitor();
    const form = await web.get('/signup');
    expect(form.status).toBe(200);
    for (const label of ['Username', 'Email address', 'Password', 'Repeat the password'])
      expect(form.text).toContain(`>${label}</label>`);
    const f = fresh();
    const res = await signUp(web, f);
    expect(res.status).toBe(303);
    // Not signed in: the same answer as for an address that already has an account (no enumeration).
    expect(res.location).toBe('/signup/sent');
    expect(web.cookies.has('ss_session')).toBe(false);
    expect((await web.get('/signup/sent')).text).toContain('Check your email');
    expect((await web.signIn(f.username, f.password)).status).toBe(303);
    const account = await web.get('/account');
    expect(account.status).toBe(200);
    expect(account.text).toContain(f.username);
    expect(account.text).toContain('not confirmed yet');
    const user = await userNamed(f.username);
    expect(await apiVerified(user.id)).toBe(false);

    const { email, link } = await mailTo(f.email);
    expect(email?.subject).toBe('Confirm your email address');
    expect(link?.origin).toBe('http://localhost');
    expect(link?.pathname).toBe('/account/verify');
    // Only the token's hash is stored.
    const token = link!.searchParams.get('token')!;
    const stored = await server.deps.db.kysely.selectFrom('account_tokens').selectAll().execute();
    expect(stored.map((t) => t.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    const opened = await visitor().get(pathOf(link!));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Address confirmed');
    expect(await apiVerified(user.id)).toBe(true);
    const again = await visitor().get(pathOf(link!));
    expect(again.status, 'a link works once').toBe(404);
    expect((await web.get('/account')).text).toContain('<span class="badge ok">confirmed</span>');
  });

  it('a verification link expires after three days', async () => {
    const f = fresh();
    expect((await signUp(visitor(), f)).status).toBe(303);
    const { link } = await mailTo(f.email);
    clock.advance(3 * 86_400_000 + 60_000);
    expect((await visitor().get(pathOf(link!))).status).toBe(404);
    expect((await userNamed(f.username)).email_verified).toBe(0);
  });

  it('shows what is wrong with the form, keeping what was typed', async () => {
    const f = fresh();
    const mismatch = await signUp(visitor(), { ...f, password2: 'something else' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The two passwords are not the same.');
    expect(mismatch.text).toContain(`value="${f.username}"`);
    const short = await signUp(visitor(), { ...f, password: 'short', password2: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 8 characters');
    const bad = await signUp(visitor(), { ...f, email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('email must be an email address');
    expect((await signUp(visitor(), f)).status).toBe(303);
    const taken = await signUp(visitor(), { ...fresh(), username: f.username });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('is taken');
    // A taken address is answered as a free one (test/security/round3-accounts.test.ts).
    const sameAddress = await signUp(visitor(), { ...fresh(), email: f.email.toUpperCase() });
    expect(sameAddress.status).toBe(303);
    expect(sameAddress.location).toBe('/signup/sent');
  });

  it('of concurrent sign-ups with one username, or one address, exactly one succeeds', async () => {
    const name = fresh();
    const byName = await Promise.all(
      Array.from({ length: 6 }, () => signUp(visitor(), { ...fresh(), username: name.username })),
    );
    expect(byName.map((r) => r.status).sort()).toEqual([303, 409, 409, 409, 409, 409]);
    const address = fresh();
    const byAddress = await Promise.all(
      Array.from({ length: 6 }, () => signUp(visitor(), { ...fresh(), email: address.email })),
    );
    // Every one is told a link was sent; one account is created, its owner told of the others.
    expect(byAddress.map((r) => r.status)).toEqual([303, 303, 303, 303, 303, 303]);
    const users = await server.deps.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', address.email)
      .execute();
    expect(users).toHaveLength(1);
  });

  it('slows down sign-ups from one address after five an hour', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 5; i++) expect((await signUp(visitor(ip), fresh())).status).toBe(303);
    const slowed = await signUp(visitor(ip), fresh());
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(slowed.text).toContain('Too many sign-ups');
    expect((await signUp(visitor(), fresh())).status, 'another address is not slowed').toBe(303);
    clock.advance(61 * 60_000);
    expect((await signUp(visitor(ip), fresh())).status).toBe(303);
  });

  it('signs in to the survey list afterwards, unless next says otherwise', async () => {
    const f = fresh();
    await signUp(visitor(), f);
    const web = visitor();
    const res = await web.signIn(f.username, f.password);
    expect(res.location).toBe('/');
    const login = await web.get('/login');
    expect(login.status).toBe(303);
    const page = await visitor().get('/login');
    expect(page.text).toContain('href="/password/forgot"');
    expect(page.text).toContain('href="/signup"');
  });
});

describe('sign-up when invite-only or closed', () => {
  let other: TestServer;
  afterAll(() => other?.close());

  it('closed: the page says so and a post creates nothing', async () => {
    other = await startServer({ env: { SIGNUP_MODE: 'closed' } });
    const web = new WebSession(other.url);
    const page = await web.get('/signup');
    expect(page.status).toBe(403);
    expect(page.text).toContain('Sign-up is closed');
    expect((await web.get('/login')).text).not.toContain('href="/signup"');
    const _csrf = await web.csrf('/login');
    const res = await web.post('/signup', { _csrf, ...fresh() });
    expect(res.status).toBe(403);
    const users = await other.deps.db.kysely.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(0);
    await other.close();
  });

  it('invite-only: only an operator’s invitation link signs up, once, for its address, verified', async () => {
    other = await startServer({ env: { SIGNUP_MODE: 'invite-only' } });
    const web = new WebSession(other.url);
    const page = await web.get('/signup');
    expect(page.status).toBe(403);
    expect(page.text).toContain('Sign-up is by invitation');
    const { inviteToSignUp } = await import('../../src/domain/accounts/signup.js');
    const url = new URL(await inviteToSignUp(other.deps, 'Invited@Example.org'));
    const mail = await other.deps.db.kysely.selectFrom('emails').selectAll().executeTakeFirstOrThrow();
    expect(mail.to_address).toBe('Invited@Example.org');
    expect(mail.text_body).toContain(url.toString());
    const invite = url.searchParams.get('token')!;
    const form = await web.get(`/signup?token=${encodeURIComponent(invite)}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('value="invited@example.org" readonly');
    const _csrf = csrfToken(form.text);
    const f = fresh();
    // The address typed is ignored: the invitation is for its own.
    const res = await web.post('/signup', { _csrf, ...f, email: 'other@example.org', invite });
    expect(res.status).toBe(303);
    const user = await other.deps.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username', '=', f.username)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'invited@example.org', email_verified: 1 });
    const second = new WebSession(other.url);
    const reuse = await second.get(`/signup?token=${encodeURIComponent(invite)}`);
    expect(reuse.status, 'an invitation works once').toBe(404);
    const csrf2 = await second.csrf('/login');
    const post = await second.post('/signup', { _csrf: csrf2, ...fresh(), invite });
    expect(post.status).toBe(403);
    await other.close();
  });
});

describe('password reset', () => {
  async function requestReset(web: WebSession, email: string) {
    const _csrf = await web.csrf('/password/forgot');
    return web.post('/password/forgot', { _csrf, email });
  }

  async function reset(web: WebSession, link: URL, password: string) {
    const form = await web.get(pathOf(link));
    expect(form.status).toBe(200);
    const _csrf = csrfToken(form.text);
    return web.post('/password/reset', {
      _csrf,
      token: link.searchParams.get('token')!,
      password,
      password2: password,
    });
  }

  it('answers the same for an address with and without an account, and mails only the account', async () => {
    const a = await server.account();
    const known = await requestReset(visitor(), a.user.email);
    const unknown = await requestReset(visitor(), `nobody${n}@example.org`);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const strip = (text: string, email: string) =>
      text.replaceAll(email, 'ADDRESS').replace(/name="_csrf" value="[^"]+"/g, '');
    expect(strip(known.text, a.user.email)).toBe(strip(unknown.text, `nobody${n}@example.org`));
    expect((await mailTo(a.user.email)).email?.subject).toBe('Reset your password');
    expect(await countMail(`nobody${n}@example.org`)).toBe(0);
  });

  it('sets a new password once, ends every session, and the old password stops working', async () => {
    const a = await server.account();
    const elsewhere = visitor();
    expect((await elsewhere.signIn(a.user.username, a.password)).status).toBe(303);
    await requestReset(visitor(), a.user.email.toUpperCase());
    const { link } = await mailTo(a.user.email);
    expect(link?.pathname).toBe('/password/reset');
    const web = visitor();
    const mismatch = await web.post('/password/reset', {
      _csrf: await web.csrf(pathOf(link!)),
      token: link!.searchParams.get('token')!,
      password: 'new password one',
      password2: 'new password two',
    });
    expect(mismatch.status).toBe(400);
    const done = await reset(web, link!, 'a brand new password');
    expect(done.status).toBe(200);
    expect(done.text).toContain('Password changed');
    expect((await elsewhere.get('/account')).status, 'other sessions end').toBe(303);
    expect((await visitor().signIn(a.user.username, a.password)).status).toBe(401);
    expect((await visitor().signIn(a.user.username, 'a brand new password')).status).toBe(303);
    expect((await visitor().get(pathOf(link!))).status, 'a link works once').toBe(404);
  });

  it('a reset link expires after an hour (then it is pruned), and a newer link replaces it', async () => {
    const a = await server.account();
    await requestReset(visitor(), a.user.email);
    const first = (await mailTo(a.user.email)).link!;
    await requestReset(visitor(), a.user.email);
    const second = (await mailTo(a.user.email)).link!;
    expect((await visitor().get(pathOf(first))).status).toBe(404);
    expect((await visitor().get(pathOf(second))).status).toBe(200);
    clock.advance(61 * 60_000);
    expect((await visitor().get(pathOf(second))).status).toBe(404);
    // The worker's retention pass drops expired links.
    const links = () =>
      server.deps.db.kysely
        .selectFrom('account_tokens')
        .select('token_hash')
        .where('user_id', '=', a.user.id)
        .execute();
    expect(await links()).toHaveLength(1);
    expect((await pruneOnce(server.deps)).account_links).toBeGreaterThan(0);
    expect(await links()).toHaveLength(0);
  });

  it('is throttled per address asked for and per client address, whether or not an account exists', async () => {
    const a = await server.account();
    for (let i = 0; i < 3; i++) expect((await requestReset(visitor(), a.user.email)).status).toBe(200);
    const slowed = await requestReset(visitor(), a.user.email);
    expect(slowed.status).toBe(429);
    expect(slowed.text).toContain('Too many reset requests');
    expect(await countMail(a.user.email)).toBe(3);
    const nobody = `nobody-else${n}@example.org`;
    for (let i = 0; i < 3; i++) expect((await requestReset(visitor(), nobody)).status).toBe(200);
    expect((await requestReset(visitor(), nobody)).status, 'the same answer for no account').toBe(429);
    const ip = '203.0.113.77';
    const statuses = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await requestReset(visitor(ip), `x${i}-${n}@example.org`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});

describe('account page', () => {
  async function signedIn(username: string, password: string) {
    const web = visitor();
    expect((await web.signIn(username, password)).status).toBe(303);
    return web;
  }

  it('changes the password with the current one, ending the other sessions only', async () => {
    const a = await server.account();
    const web = await signedIn(a.user.username, a.password);
    const other = await signedIn(a.user.username, a.password);
    const _csrf = await web.csrf('/account');
    const wrong = await web.post('/account/password', {
      _csrf,
      current: 'not the password',
      password: 'another good password',
      password2: 'another good password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not correct.');
    const ok = await web.post('/account/password', {
      _csrf,
      current: a.password,
      password: 'another good password',
      password2: 'another good password',
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/account?done=password');
    expect((await web.get('/account?done=password')).text).toContain('Your password is changed');
    expect((await other.get('/account')).status).toBe(303);
    expect((await visitor().signIn(a.user.username, 'another good password')).status).toBe(303);
  });

  it('changes the address, which must be confirmed again; a taken address is refused', async () => {
    const a = await server.account();
    const b = await server.account();
    const web = await signedIn(a.user.username, a.password);
    const _csrf = await web.csrf('/account');
    const taken = await web.post('/account/email', { _csrf, email: b.user.email, current: a.password });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('already used by an account');
    const wrong = await web.post('/account/email', { _csrf, email: `new${n}@example.org`, current: 'nope' });
    expect(wrong.status).toBe(400);
    const address = `changed${++n}@example.org`;
    const ok = await web.post('/account/email', { _csrf, email: address, current: a.password });
    expect(ok.status).toBe(303);
    expect(await apiVerified(a.user.id)).toBe(false);
    const page = await web.get('/account?done=email');
    expect(page.text).toContain(address);
    expect(page.text).toContain('not confirmed yet');
    const { link } = await mailTo(address);
    // A link to the old address (sent before) no longer verifies anything; the new one does.
    expect((await visitor().get(pathOf(link!))).status).toBe(200);
    expect(await apiVerified(a.user.id)).toBe(true);
  });

  it('sends the confirmation link again on request, voiding the earlier one', async () => {
    const f = fresh();
    const web = visitor();
    await signUp(web, f);
    await web.signIn(f.username, f.password);
    const first = (await mailTo(f.email)).link!;
    const _csrf = await web.csrf('/account');
    const res = await web.post('/account/verify/resend', { _csrf });
    expect(res.location).toBe('/account?done=resent');
    const second = (await mailTo(f.email)).link!;
    expect(second.toString()).not.toBe(first.toString());
    expect((await visitor().get(pathOf(first))).status).toBe(404);
    expect((await visitor().get(pathOf(second))).status).toBe(200);
  });

  it('an address changed through the API (a team member) must be confirmed too; one in use elsewhere is 409', async () => {
    const t = await makeTeam(server);
    const stranger = await server.account();
    const path = `/v3/groups/${t.team.id}/members/${t.memberIds.regular}`;
    const taken = await server.client.patch(path, { email: stranger.user.email }, { token: t.regular.token });
    expect(taken.status).toBe(409);
    expect(taken.body.error.id).toBe('1026');
    const address = `api-changed${++n}@example.org`;
    const ok = await server.client.patch(path, { email: address }, { token: t.regular.token });
    expect(ok.status).toBe(200);
    expect(await apiVerified(t.regular.user.id)).toBe(false);
    const { link } = await mailTo(address);
    expect((await visitor().get(pathOf(link!))).status).toBe(200);
    expect(await apiVerified(t.regular.user.id)).toBe(true);
  });
});
