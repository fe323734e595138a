// The other sides of single sign-on, real implementations started by the test: an OpenID Connect
// provider (panva's oidc-provider) on a loopback port, whose login interaction signs in whichever
// test person `provider.user` names, and a SAML identity provider (samlify in IdP mode) that
// answers our AuthnRequests with signed responses. A test plays the browser between them.

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider, { type Context } from 'oidc-provider';
import { type WebResponse, WebSession } from '../helpers/fixtures.js';

export interface Person {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** A free loopback port (the server's PUBLIC_URL must name its own port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OidcProvider {
  issuer: string;
  people: Map<string, Person>;
  /** the subject the next login interaction signs in */
  user: string;
  /** the ID token lifetime in seconds */
  idTokenTtl: number;
  /** rewrites the token endpoint's JSON answer (an attacker between us and the provider) */
  tamper: ((body: Record<string, unknown>) => Record<string, unknown>) | null;
  close(): Promise<void>;
}

export const CLIENT = { id: 'survey-service', secret: 'survey-service-secret-0123456789' };
export const OTHER_CLIENT = { id: 'another-app', secret: 'another-app-secret-0123456789' };

export async function startOidcProvider(redirectUri: string): Promise<OidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: OidcProvider = {
    issuer,
    people: new Map(),
    user: '',
    idTokenTtl: 3600,
    tamper: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const client = (c: typeof CLIENT) => ({
    client_id: c.id,
    client_secret: c.secret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  });
  const provider = new Provider(issuer, {
    clients: [client(CLIENT), client(OTHER_CLIENT)],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key-0123456789'] },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          use: 'sig',
        },
      ],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: Context, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { IdToken: () => state.idTokenTtl },
    findAccount: async (_ctx: Context, sub: string) => {
      const person = state.people.get(sub);
      return person ? { accountId: sub, claims: async () => ({ sub, ...person }) } : undefined;
    },
    // First-party: every client's scopes are granted without a consent screen.
    loadExistingGrant: async (ctx: Context) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.url?.startsWith('/interaction/')) {
        // The login interaction: the test's person signs in at once.
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: state.user } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      if (req.url?.startsWith('/token') && state.tamper) tamperWith(res, state.tamper);
      callback(req, res);
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  return state;
}

function tamperWith(res: ServerResponse, tamper: NonNullable<OidcProvider['tamper']>): void {
  const chunks: Buffer[] = [];
  const end = res.end.bind(res);
  res.write = ((chunk: unknown) => {
    chunks.push(Buffer.from(chunk as string));
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown) => {
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
    let body = Buffer.concat(chunks).toString();
    if (res.statusCode === 200) body = JSON.stringify(tamper(JSON.parse(body)));
    if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(body));
    return end(body);
  }) as ServerResponse['end'];
}

/**
 * A browser's way through an OIDC sign-in: starts at `start` on our server, follows the provider's
 * redirects (its cookies kept in `idp`) and returns our callback's answer.
 */
export async function oidcRoundTrip(
  sp: WebSession,
  provider: OidcProvider,
  start = '/auth/oidc/login',
  idp = new WebSession(provider.issuer),
): Promise<{ callback: string; answer: () => Promise<WebResponse> }> {
  const first = await sp.get(start);
  if (first.status !== 303 || !first.location)
    throw new Error(`sign-in did not start: ${first.status} ${first.text}`);
  let location = first.location;
  for (let hops = 0; location.startsWith(provider.issuer); hops++) {
    if (hops > 10) throw new Error('too many redirects at the provider');
    const res = await idp.get(location);
    if (!res.location) throw new Error(`the provider answered ${res.status}: ${res.text.slice(0, 300)}`);
    location = new URL(res.location, provider.issuer).href;
  }
  return { callback: location, answer: () => sp.get(location) };
}

/** An ID token of another client for the same person and nonce (what a wrong audience looks like). */
export async function idTokenOfOtherClient(
  provider: OidcProvider,
  redirectUri: string,
  nonce: string,
): Promise<string> {
  const idp = new WebSession(provider.issuer);
  const verifier = 'v'.repeat(50);
  const { createHash } = await import('node:crypto');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const auth = new URL('/auth', provider.issuer);
  auth.search = new URLSearchParams({
    client_id: OTHER_CLIENT.id,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: redirectUri,
    state: 'other',
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  let location = auth.href;
  while (location.startsWith(provider.issuer)) {
    const res = await idp.get(location);
    location = new URL(res.location!, provider.issuer).href;
  }
  const code = new URL(location).searchParams.get('code')!;
  const res = await fetch(new URL('/token', provider.issuer), {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${OTHER_CLIENT.id}:${OTHER_CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  const body = (await res.json()) as { id_token: string };
  return body.id_token;
}

// samlify is loaded untyped: its typings pull in @xmldom's, which declare the DOM library for the
// whole program (and so change Buffer and Blob in every other test file).
type Idp = {
  getMetadata(): string;
  parseLoginRequest(
    sp: Sp,
    binding: string,
    request: { query: Record<string, string> },
  ): Promise<LoginRequest>;
  createLoginResponse(
    sp: Sp,
    request: LoginRequest,
    binding: string,
    user: { email: string },
    replace?: (template: string) => { id: string; context: string },
  ): Promise<{ context: string }>;
};
type Sp = { entityMeta: { getAssertionConsumerService(binding: string): string; getEntityID(): string } };
type LoginRequest = { extract: { request: { id: string } } };
const samlify = createRequire(import.meta.url)('samlify') as {
  setSchemaValidator(v: { validate: (xml: string) => Promise<string> }): void;
  IdentityProvider(settings: object): Idp;
  ServiceProvider(settings: object): Sp;
  SamlLib: { replaceTagsByValue(template: string, values: Record<string, string>): string };
};

// samlify checks messages against the SAML schema through a validator the application chooses;
// the IdP here only parses our own AuthnRequests, so it takes them as they are.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

export interface SamlIdp {
  entityId: string;
  /** the metadata file SAML_IDP_METADATA names */
  metadataFile: string;
  idp: Idp;
  /** an IdP with the same name but another key (a forger) */
  impostor: Idp;
}

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export function startSamlIdp(): SamlIdp {
  const entityId = 'https://idp.example.test/saml';
  const settings = (key: string, cert: string) => ({
    entityID: entityId,
    privateKey: fixture(key),
    signingCert: fixture(cert),
    singleSignOnService: [{ Binding: REDIRECT, Location: 'https://idp.example.test/sso' }],
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    isAssertionEncrypted: false,
    wantAuthnRequestsSigned: false,
  });
  const idp = samlify.IdentityProvider(settings('idp-key.pem', 'idp-cert.pem'));
  const impostor = samlify.IdentityProvider(settings('impostor-key.pem', 'impostor-cert.pem'));
  const metadataFile = join(tmpdir(), `idp-metadata-${process.pid}-${Date.now()}.xml`);
  writeFileSync(metadataFile, idp.getMetadata());
  return { entityId, metadataFile, idp, impostor };
}

export interface ResponseOptions {
  email: string;
  /** the IdP that signs (default: the real one) */
  by?: Idp;
  /** our SP's metadata as the IdP sees it (another audience or consumer for the wrong-audience cases) */
  spMetadata: string;
  /** replaces template values (times, recipient, InResponseTo) */
  values?: Record<string, string>;
}

/**
 * Answers our AuthnRequest (the redirect URL our server sent the browser to) with a signed
 * response, as the IdP would POST it to our consumer.
 */
export async function samlResponse(
  saml: SamlIdp,
  redirectUrl: string,
  options: ResponseOptions,
): Promise<string> {
  const sp = samlify.ServiceProvider({ metadata: options.spMetadata });
  const idp = options.by ?? saml.idp;
  const query = Object.fromEntries(new URL(redirectUrl).searchParams);
  const request = await saml.idp.parseLoginRequest(sp, 'redirect', { query });
  const user = { email: options.email };
  if (!options.values) {
    const { context } = await idp.createLoginResponse(sp, request, 'post', user);
    return context;
  }
  const values = options.values;
  const { context } = await idp.createLoginResponse(sp, request, 'post', user, (template: string) => {
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const id = `_${Math.random().toString(36).slice(2)}`;
    const all: Record<string, string> = {
      ID: id,
      AssertionID: `_${Math.random().toString(36).slice(2)}`,
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      EntityID: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: saml.entityId,
      IssueInstant: now.toISOString(),
      AssertionConsumerServiceURL: acs,
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: user.email,
      InResponseTo: request.extract.request.id,
      AuthnStatement: '',
      AttributeStatement: '',
      ...values,
    };
    return { id, context: samlify.SamlLib.replaceTagsByValue(template, all) };
  });
  return context;
}
