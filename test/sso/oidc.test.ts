// OpenID Connect sign-in against a real provider (oidc-provider on a loopback port): the sign-in
// page's button, the whole code flow with PKCE, state and nonce, the account made just in time or
// linked, and every refusal (a forged, expired or foreign-audience ID token, a replayed callback,
// another browser's callback, a foreign domain, an unverified address) with an error page and no
// change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer, WebSession } from '../helpers/fixtures.js';
import {
  CLIENT,
  freePort,
  idTokenOfOtherClient,
  type OidcProvider,
  oidcRoundTrip,
  startOidcProvider,
} from './providers.js';

let server: TestServer;
let provider: OidcProvider;
let redirectUri: string;
const clock = new TestClock();

beforeAll(async () => {
  const port = await freePort();
  redirectUri = `http://127.0.0.1:${port}/auth/oidc/callback`;
  provider = await startOidcProvider(redirectUri);
  server = await startServer({
    port,
    clock,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_NAME: 'Sign in with Example ID',
      OIDC_ALLOWED_DOMAINS: 'example.com,example.org',
      SSO_REQUIRED: 'true',
    },
  });
});

afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const identities = (userId?: string) =>
  server.deps.db.kysely
    .selectFrom('user_identities')
    .selectAll()
    .$if(!!userId, (q) => q.where('user_id', '=', userId!))
    .execute();
const userCount = async () =>
  Number(
    (
      await server.deps.db.kysely
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Signs `sub` in through the provider and returns our callback's answer and the browser. */
async function signInAs(sub: string, person: Parameters<OidcProvider['people']['set']>[1]) {
  provider.people.set(sub, person);
  provider.user = sub;
  const sp = new WebSession(server.url);
  const trip = await oidcRoundTrip(sp, provider, '/auth/oidc/login?next=%2Faccount');
  return { sp, trip, answer: await trip.answer() };
}

async function expectRefused(
  answer: { status: number; text: string },
  sp: WebSession,
  status: number,
  text: RegExp,
) {
  expect(answer.status).toBe(status);
  expect(answer.text).toContain('Single sign-on failed');
  expect(answer.text).toMatch(text);
  expect(sp.cookies.has('ss_session')).toBe(false);
}

describe('OpenID Connect sign-in', () => {
  it('shows the button on the sign-in page, carrying next', async () => {
    const page = await new WebSession(server.url).get('/login?next=%2Fcontacts');
    expect(page.text).toContain('href="/auth/oidc/login?next=%2Fcontacts">Sign in with Example ID</a>');
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const start = await new WebSession(server.url).get('/auth/oidc/login');
    expect(start.status).toBe(303);
    const url = new URL(start.location!);
    expect(url.origin).toBe(provider.issuer);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(CLIENT.id);
    expect(q.get('redirect_uri')).toBe(redirectUri);
    expect(q.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(q.get(name)?.length).toBeGreaterThan(20);
  });

  it('makes the account on first sign-in from the verified address and name, then signs in to it', async () => {
    const before = await userCount();
    const { sp, answer } = await signInAs('ada-sub', {
      email: 'ada@example.com',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/account');
    expect(sp.cookies.has('ss_session')).toBe(true);
    expect((await sp.get('/account')).status).toBe(200);
    expect(await userCount()).toBe(before + 1);
    const user = await server.deps.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'ada@example.com')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      username: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email_verified: 1,
    });
    expect(await identities(user.id)).toMatchObject([
      { protocol: 'oidc', issuer: provider.issuer, subject: 'ada-sub' },
    ]);
    const event = await server.deps.db.kysely
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'authentication_succeeded')
      .where('actor_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(String(event.data)).toContain('oidc');
    // Again: the same account, no new one.
    const again = await signInAs('ada-sub', { email: 'ada@example.com', email_verified: true });
    expect(again.answer.status).toBe(303);
    expect(await userCount()).toBe(before + 1);
  });

  it('links an existing account whose address is confirmed when the provider says it is verified', async () => {
    const account = await server.account({ username: 'grace' });
    const before = await userCount();
    const { answer } = await signInAs('grace-sub', { email: 'Grace@example.com', email_verified: true });
    expect(answer.status).toBe(303);
    expect(await userCount()).toBe(before);
    expect(await identities(account.user.id)).toMatchObject([{ subject: 'grace-sub' }]);
  });

  it('never links on an unverified address claim', async () => {
    const account = await server.account({ username: 'linus' });
    const before = await userCount();
    const { sp, answer } = await signInAs('linus-sub', { email: 'linus@example.com', email_verified: false });
    await expectRefused(answer, sp, 403, /exists, but the provider does not say this address is verified/);
    expect(await identities(account.user.id)).toEqual([]);
    expect(await userCount()).toBe(before);
  });

  it('refuses an address of a domain not allowed', async () => {
    const before = await userCount();
    const { sp, answer } = await signInAs('eve-sub', { email: 'eve@elsewhere.net', email_verified: true });
    await expectRefused(answer, sp, 403, /not of a domain allowed/);
    expect(await userCount()).toBe(before);
  });

  it('refuses a forged ID token (its claims changed after signing)', async () => {
    const before = await userCount();
    provider.tamper = (body) => {
      const [head, payload, signature] = String(body.id_token).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims.email = 'mallory@example.com';
      return {
        ...body,
        id_token: [head, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.'),
      };
    };
    try {
      const { sp, answer } = await signInAs('mallory-sub', {
        email: 'someone@example.com',
        email_verified: true,
      });
      await expectRefused(answer, sp, 400, /could not be verified/);
    } finally {
      provider.tamper = null;
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses an ID token issued to another client (wrong audience)', async () => {
    const before = await userCount();
    provider.people.set('aud-sub', { email: 'aud@example.com', email_verified: true });
    provider.user = 'aud-sub';
    const sp = new WebSession(server.url);
    const trip = await oidcRoundTrip(sp, provider);
    const nonce = await server.deps.db.kysely
      .selectFrom('sso_pending')
      .select('nonce')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const foreign = await idTokenOfOtherClient(provider, redirectUri, nonce.nonce!);
    provider.tamper = (body) => ({ ...body, id_token: foreign });
    try {
      await expectRefused(await trip.answer(), sp, 400, /aud/);
    } finally {
      provider.tamper = null;
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses an expired ID token', async () => {
    const before = await userCount();
    provider.people.set('late-sub', { email: 'late@example.com', email_verified: true });
    provider.user = 'late-sub';
    provider.idTokenTtl = 60;
    try {
      const sp = new WebSession(server.url);
      const trip = await oidcRoundTrip(sp, provider);
      clock.advance(5 * 60_000);
      await expectRefused(await trip.answer(), sp, 400, /exp/);
    } finally {
      provider.idTokenTtl = 3600;
      clock.set(new Date());
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses a replayed callback and one from another browser', async () => {
    provider.people.set('twice-sub', { email: 'twice@example.com', email_verified: true });
    provider.user = 'twice-sub';
    const sp = new WebSession(server.url);
    const trip = await oidcRoundTrip(sp, provider);
    const stranger = new WebSession(server.url);
    stranger.cookies.set('ss_sso', 'not-the-browser-that-started-it');
    await expectRefused(await stranger.get(trip.callback), stranger, 400, /another browser/);
    // The stranger's attempt used the state up: the real browser must start again too.
    await expectRefused(await trip.answer(), sp, 400, /already used/);
    const fresh = new WebSession(server.url);
    const ok = await oidcRoundTrip(fresh, provider);
    expect((await ok.answer()).status).toBe(303);
    await expectRefused(await ok.answer(), new WebSession(server.url), 400, /already used/);
  });

  it('finishes concurrent callbacks of one sign-in once', async () => {
    provider.people.set('race-sub', { email: 'race@example.com', email_verified: true });
    provider.user = 'race-sub';
    const sp = new WebSession(server.url);
    const trip = await oidcRoundTrip(sp, provider);
    const answers = await Promise.all([trip.answer(), trip.answer(), trip.answer()]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400, 400]);
  });

  it('under SSO_REQUIRED refuses the password form to everyone but operators (break glass)', async () => {
    const person = await server.account({ username: 'person', password: 'person-password' });
    const operator = await server.account({ username: 'operator', password: 'operator-password' });
    await setOperator(server.deps, operator.user.id, true);
    const page = await new WebSession(server.url).get('/login');
    expect(page.text).toContain('Password sign-in is for operators only.');
    const refused = await new WebSession(server.url).signIn('person', 'person-password');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(
      'Password sign-in is turned off on this service: sign in with single sign-on.',
    );
    expect((await new WebSession(server.url).signIn('operator', 'operator-password')).status).toBe(303);
    expect(person.user.id).toBeTruthy();
  });
});
