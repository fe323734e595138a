// SAML 2.0 sign-in against a real IdP (samlify in IdP mode, signing with its key): our SP metadata,
// the AuthnRequest by redirect, the signed response POSTed to our consumer, the account rules, and
// every refusal (a forged or unsigned response, a wrong audience or recipient, an expired or
// replayed assertion, an answer to no request of ours, a foreign domain) with an error page and
// no change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, WebSession } from '../helpers/fixtures.js';
import { freePort, type ResponseOptions, type SamlIdp, samlResponse, startSamlIdp } from './providers.js';

let server: TestServer;
let saml: SamlIdp;
let spMetadata: string;

beforeAll(async () => {
  const port = await freePort();
  saml = startSamlIdp();
  server = await startServer({
    port,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SAML_IDP_METADATA: saml.metadataFile,
      SAML_NAME: 'Sign in with Example SAML',
      OIDC_ALLOWED_DOMAINS: 'example.com',
    },
  });
  spMetadata = (await new WebSession(server.url).get('/auth/saml/metadata')).text;
});

afterAll(() => server?.close());

const userCount = async () =>
  Number(
    (
      await server.deps.db.kysely
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Starts a sign-in in a new browser: the browser and the IdP URL our server sent it to. */
async function start(next = '/account') {
  const sp = new WebSession(server.url);
  const res = await sp.get(`/auth/saml/login?next=${encodeURIComponent(next)}`);
  expect(res.status).toBe(303);
  return { sp, redirect: res.location! };
}

async function post(sp: WebSession, response: string) {
  return sp.post('/auth/saml/acs', { SAMLResponse: response });
}

async function refused(answer: { status: number; text: string }, sp: WebSession, text: RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.text).toContain('Single sign-on failed');
  expect(answer.text).toMatch(text);
  expect(sp.cookies.has('ss_session')).toBe(false);
}

async function respond(redirect: string, options: Partial<ResponseOptions> & { email: string }) {
  return samlResponse(saml, redirect, { spMetadata, ...options });
}

describe('SAML sign-in', () => {
  it('publishes SP metadata naming our entity and the POST consumer, and the sign-in page shows the button', async () => {
    expect(spMetadata).toContain(`entityID="${server.config.regionUrls.us}/auth/saml/metadata"`);
    expect(spMetadata).toContain(`Location="${server.config.regionUrls.us}/auth/saml/acs"`);
    expect(spMetadata).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    const login = await new WebSession(server.url).get('/login');
    expect(login.text).toContain('>Sign in with Example SAML</a>');
  });

  it('signs in with a signed response, making the account just in time, and refuses it replayed', async () => {
    const before = await userCount();
    const { sp, redirect } = await start();
    expect(redirect.startsWith('https://idp.example.test/sso?SAMLRequest=')).toBe(true);
    const response = await respond(redirect, { email: 'hopper@example.com' });
    const answer = await post(sp, response);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/account');
    expect((await sp.get('/account')).status).toBe(200);
    expect(await userCount()).toBe(before + 1);
    const identity = await server.deps.db.kysely
      .selectFrom('user_identities')
      .selectAll()
      .where('subject', '=', 'hopper@example.com')
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ protocol: 'saml', issuer: saml.entityId });
    // The same response again, from another browser: refused.
    const other = new WebSession(server.url);
    await refused(await post(other, response), other, /already used|answers no sign-in/);
    // Signing in again with a new response: the same account.
    const again = await start();
    expect(
      (await post(again.sp, await respond(again.redirect, { email: 'hopper@example.com' }))).status,
    ).toBe(303);
    expect(await userCount()).toBe(before + 1);
  });

  it('refuses concurrent posts of one response but once', async () => {
    const { redirect } = await start();
    const response = await respond(redirect, { email: 'race@example.com' });
    const answers = await Promise.all([1, 2, 3].map(() => post(new WebSession(server.url), response)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400, 400]);
  });

  it('refuses a response signed by another key', async () => {
    const before = await userCount();
    const { sp, redirect } = await start();
    await refused(
      await post(sp, await respond(redirect, { email: 'forger@example.com', by: saml.impostor })),
      sp,
      /could not be verified/,
    );
    expect(await userCount()).toBe(before);
  });

  it('refuses a response changed after signing', async () => {
    const { sp, redirect } = await start();
    const xml = Buffer.from(await respond(redirect, { email: 'honest@example.com' }), 'base64').toString();
    const forged = Buffer.from(xml.replaceAll('honest@example.com', 'boss@example.com')).toString('base64');
    await refused(await post(sp, forged), sp, /could not be verified/);
  });

  it('refuses a wrong audience, a wrong recipient and an expired assertion', async () => {
    const before = await userCount();
    let { sp, redirect } = await start();
    await refused(
      await post(
        sp,
        await respond(redirect, {
          email: 'a@example.com',
          values: { Audience: 'https://another-sp.example/' },
        }),
      ),
      sp,
      /audience/,
    );
    ({ sp, redirect } = await start());
    await refused(
      await post(
        sp,
        await respond(redirect, {
          email: 'a@example.com',
          values: { SubjectRecipient: 'https://another-sp.example/acs' },
        }),
      ),
      sp,
      /another recipient/,
    );
    ({ sp, redirect } = await start());
    const past = new Date(Date.now() - 3600_000);
    const expired = {
      IssueInstant: past.toISOString(),
      ConditionsNotBefore: past.toISOString(),
      ConditionsNotOnOrAfter: new Date(past.getTime() + 300_000).toISOString(),
      SubjectConfirmationDataNotOnOrAfter: new Date(past.getTime() + 300_000).toISOString(),
    };
    await refused(
      await post(sp, await respond(redirect, { email: 'a@example.com', values: expired })),
      sp,
      /assertion has expired/,
    );
    expect(await userCount()).toBe(before);
  });

  it('refuses a response to no request of ours', async () => {
    const { sp, redirect } = await start();
    const answer = await post(
      sp,
      await respond(redirect, { email: 'a@example.com', values: { InResponseTo: '_not-ours' } }),
    );
    await refused(answer, sp, /answers no sign-in/);
  });

  it('applies the account rules: a foreign domain is refused, an existing confirmed address linked', async () => {
    let { sp, redirect } = await start();
    const foreign = await post(sp, await respond(redirect, { email: 'x@elsewhere.net' }));
    expect(foreign.status).toBe(403);
    expect(foreign.text).toMatch(/not of a domain allowed/);
    const account = await server.account({ username: 'turing' });
    ({ sp, redirect } = await start());
    expect((await post(sp, await respond(redirect, { email: 'turing@example.com' }))).status).toBe(303);
    const linked = await server.deps.db.kysely
      .selectFrom('user_identities')
      .select('user_id')
      .where('subject', '=', 'turing@example.com')
      .executeTakeFirstOrThrow();
    expect(linked.user_id).toBe(account.user.id);
  });
});
