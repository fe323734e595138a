// OpenID Connect sign-in through openid-client (panva's certified relying party): discovery from
// OIDC_ISSUER, the authorization code flow with PKCE (S256), state and nonce, and the ID token's
// signature, issuer, audience, expiry and nonce verified by the library. The flow's state, nonce and
// PKCE verifier wait in sso_pending (sso.ts), keyed by the state's hash and bound to the browser
// that started it, so any process can finish what another started.
import type * as Client from 'openid-client';
import type { Deps } from '../../context.js';
import { randomToken } from '../../platform/secrets.js';
import { accountForIdentity, type Pending, SsoError, savePending, takePending } from './sso.js';
import type { User } from './users.js';

export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
const SCOPE = 'openid email profile';
const REFRESH_MS = 3_600_000;
/** The client loads with the first sign-in through the provider, not with every process. */
const openid = () => import('openid-client');

interface Discovered {
  server: Client.ServerMetadata;
  jwks?: Client.ExportedJWKSCache;
}

/** http is allowed only for an issuer on this machine (a local provider, the tests' one). */
function insecureAllowed(issuer: string): boolean {
  const { protocol, hostname } = new URL(issuer);
  return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

/** The provider's metadata, discovered once an hour per process (deps.caches.ssoProviders). */
async function discovered(deps: Deps): Promise<{ config: Client.Configuration; entry: Discovered }> {
  const oidc = deps.config.sso.oidc;
  if (!oidc) throw new SsoError('not_configured', 'OpenID Connect sign-in is not set up on this service.');
  const client = await openid();
  const key = `oidc:${oidc.issuer}`;
  const cached = deps.caches.ssoProviders.get(key);
  let value = cached && performance.now() - cached.at < REFRESH_MS ? cached.value : undefined;
  if (!value) {
    value = client
      .discovery(new URL(oidc.issuer), oidc.clientId, oidc.clientSecret, undefined, {
        execute: insecureAllowed(oidc.issuer) ? [client.allowInsecureRequests] : [],
        timeout: 10,
      })
      .then((config): Discovered => ({ server: config.serverMetadata() }));
    deps.caches.ssoProviders.set(key, { at: performance.now(), value });
    value.catch(() => deps.caches.ssoProviders.delete(key));
  }
  let entry: Discovered;
  try {
    entry = (await value) as Discovered;
  } catch (err) {
    throw new SsoError(
      'provider_unavailable',
      `The sign-in provider could not be reached (${(err as Error).message}). Try again later.`,
    );
  }
  // A Configuration per sign-in: its clock follows deps.clock (the ID token's expiry is judged by
  // it), and the provider's keys are kept between sign-ins.
  const config = new client.Configuration(
    entry.server,
    oidc.clientId,
    {
      client_secret: oidc.clientSecret,
      [client.clockSkew]: Math.round((deps.clock.now().getTime() - Date.now()) / 1000),
    },
    client.ClientSecretBasic(oidc.clientSecret),
  );
  if (insecureAllowed(oidc.issuer)) client.allowInsecureRequests(config);
  // The ID token's signature is checked against the provider's keys even though it came straight
  // from the token endpoint (OIDC allows trusting TLS there; this does not).
  client.enableNonRepudiationChecks(config);
  if (entry.jwks) client.setJwksCache(config, entry.jwks);
  return { config, entry };
}

/** Starts a sign-in: where to send the browser, and the browser's binding cookie to set. */
export async function startOidc(
  deps: Deps,
  redirectUri: string,
  next: string,
): Promise<{ url: string; browser: string }> {
  const { config } = await discovered(deps);
  const client = await openid();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browser = randomToken(24);
  await savePending(deps, 'oidc', state, browser, { nonce, codeVerifier, next });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, browser };
}

/**
 * Finishes a sign-in from the callback's full URL: takes its pending state (once), exchanges the
 * code, verifies the ID token and applies the account rules. Throws SsoError on anything wrong.
 */
export async function finishOidc(
  deps: Deps,
  callbackUrl: URL,
  browser: string | null,
): Promise<{ user: User; next: string }> {
  const params = callbackUrl.searchParams;
  const state = params.get('state');
  if (!state) throw new SsoError('invalid_response', "The provider's answer has no state.");
  const pending: Pending = await takePending(deps, 'oidc', state, browser);
  const error = params.get('error');
  if (error)
    throw new SsoError(
      'invalid_response',
      `The provider refused the sign-in: ${params.get('error_description') ?? error}.`,
    );
  const { config, entry } = await discovered(deps);
  const client = await openid();
  let claims: Client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier ?? undefined,
      expectedState: state,
      expectedNonce: pending.nonce ?? undefined,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    entry.jwks = client.getJwksCache(config);
  } catch (err) {
    throw new SsoError('invalid_response', `The sign-in could not be verified: ${describe(err)}`);
  }
  if (!claims) throw new SsoError('invalid_response', 'The provider sent no ID token.');
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const user = await accountForIdentity(deps, {
    protocol: 'oidc',
    issuer: claims.iss,
    subject: claims.sub,
    email: str(claims.email),
    // Entra ID sends no email_verified; its optional claim xms_edov says the address's domain is
    // verified as the tenant's.
    emailVerified:
      claims.email_verified === true || [true, 1, '1', 'true'].some((v) => v === claims.xms_edov),
    firstName: str(claims.given_name) ?? str(claims.name),
    lastName: str(claims.family_name),
  });
  return { user, next: pending.next };
}

/** The library's reason, without the stack, for the error page. */
function describe(err: unknown): string {
  const e = err as { message?: string; error_description?: string };
  // oauth4webapi names the claim that failed in the error's cause (openid-client may wrap it once more).
  let claim = '';
  for (let c: unknown = err; c && typeof c === 'object' && !claim; c = (c as { cause?: unknown }).cause)
    if (typeof (c as { claim?: unknown }).claim === 'string')
      claim = ` (the "${(c as { claim: string }).claim}" claim)`;
  return `${e.error_description ?? e.message ?? 'unknown error'}${claim}.`;
}
