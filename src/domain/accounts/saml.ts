// SAML 2.0 sign-in through @node-saml/node-saml: this service is the SP (metadata, an AuthnRequest
// by HTTP-Redirect, the assertion consumer by HTTP-POST); the IdP is read from SAML_IDP_METADATA.
// The library checks the signature (of the response or of the assertion: one is required), the
// issuer, the audience, NotBefore/NotOnOrAfter and InResponseTo against the requests kept in
// sso_pending; this module adds what it leaves out: the assertion's Recipient must be our consumer,
// the request is taken once, and each assertion ID is used once (sso_replays), across processes.
import { readFile } from 'node:fs/promises';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import type { Deps } from '../../context.js';
import {
  accountForIdentity,
  PENDING_MINUTES,
  pendingCreatedAt,
  SsoError,
  savePending,
  takePending,
  useOnce,
} from './sso.js';
import type { User } from './users.js';

export const SAML_METADATA_PATH = '/auth/saml/metadata';
export const SAML_ACS_PATH = '/auth/saml/acs';
const REFRESH_MS = 3_600_000;

/** What the IdP's metadata says: who it is, where it takes requests, which keys sign. */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  certs: string[];
}

type XmlNode = { $?: Record<string, string>; _?: string } & { [child: string]: XmlNode[] | undefined };

const children = (node: XmlNode | undefined, name: string): XmlNode[] =>
  (node?.[name] as XmlNode[] | undefined) ?? [];

const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

// The libraries load at the first SAML step (with their XML signature stack, 0.3 s of a process's
// start where no SAML provider is configured).
const nodeSaml = () => import('@node-saml/node-saml');
const xml2js = () => import('xml2js');

/** Reads an IdP's metadata XML (an EntityDescriptor, or the first IdP of an EntitiesDescriptor). */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  // Namespace prefixes dropped: IdPs write md:, saml2:, or none.
  const { parseStringPromise, processors } = await xml2js();
  const root = (await parseStringPromise(xml, { tagNameProcessors: [processors.stripPrefix] })) as Record<
    string,
    XmlNode
  >;
  const entities = root.EntityDescriptor
    ? [root.EntityDescriptor]
    : children(root.EntitiesDescriptor, 'EntityDescriptor');
  const entity = entities.find((e) => children(e, 'IDPSSODescriptor').length > 0);
  if (!entity) throw new Error('no EntityDescriptor with an IDPSSODescriptor');
  const entityId = entity.$?.entityID;
  const idp = children(entity, 'IDPSSODescriptor')[0];
  const ssoUrl = children(idp, 'SingleSignOnService').find((s) => s.$?.Binding === HTTP_REDIRECT)?.$
    ?.Location;
  const certs = children(idp, 'KeyDescriptor')
    .filter((k) => !k.$?.use || k.$.use === 'signing')
    .flatMap((k) => children(k, 'KeyInfo'))
    .flatMap((k) => children(k, 'X509Data'))
    .flatMap((d) => children(d, 'X509Certificate'))
    .map((c) => (typeof c === 'string' ? (c as string) : (c._ ?? '')).replace(/\s+/g, ''))
    .filter(Boolean);
  if (!entityId) throw new Error('the EntityDescriptor has no entityID');
  if (!ssoUrl) throw new Error('no SingleSignOnService with the HTTP-Redirect binding');
  if (certs.length === 0) throw new Error('no signing certificate (KeyDescriptor)');
  return { entityId, ssoUrl, certs };
}

/** The IdP's metadata, read once an hour per process (deps.caches.ssoProviders). */
async function idpMetadata(deps: Deps): Promise<IdpMetadata> {
  const saml = deps.config.sso.saml;
  if (!saml) throw new SsoError('not_configured', 'SAML sign-in is not set up on this service.');
  const key = `saml:${saml.idpMetadata}`;
  const cached = deps.caches.ssoProviders.get(key);
  let value = cached && performance.now() - cached.at < REFRESH_MS ? cached.value : undefined;
  if (!value) {
    const location = saml.idpMetadata;
    value = (async () => {
      const xml = /^https?:\/\//.test(location)
        ? await fetch(location, { signal: AbortSignal.timeout(10_000) }).then((r) => {
            if (!r.ok) throw new Error(`HTTP ${r.status}`);
            return r.text();
          })
        : await readFile(location, 'utf8');
      return await parseIdpMetadata(xml);
    })();
    deps.caches.ssoProviders.set(key, { at: performance.now(), value });
    value.catch(() => deps.caches.ssoProviders.delete(key));
  }
  try {
    return (await value) as IdpMetadata;
  } catch (err) {
    throw new SsoError(
      'provider_unavailable',
      `The SAML identity provider's metadata could not be read (${(err as Error).message}).`,
    );
  }
}

/** This service as a SAML SP: its entity id (the metadata's URL) and its consumer's URL. */
export function spUrls(deps: Deps): { entityId: string; acsUrl: string } {
  const base = deps.config.regionUrls.us;
  return { entityId: `${base}${SAML_METADATA_PATH}`, acsUrl: `${base}${SAML_ACS_PATH}` };
}

/** The library, with InResponseTo kept in the database and `next` stored with each request. */
async function samlFor(deps: Deps, idp: IdpMetadata | null, next = '/'): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await nodeSaml();
  const { entityId, acsUrl } = spUrls(deps);
  const cacheProvider: CacheProvider = {
    saveAsync: async (id, value) => {
      await savePending(deps, 'saml', id, null, { nonce: null, codeVerifier: null, next });
      return { value, createdAt: deps.clock.now().getTime() };
    },
    getAsync: (id) => pendingCreatedAt(deps, 'saml', id),
    // The request is taken (atomically, once) after the library's checks: finishSaml.
    removeAsync: async () => null,
  };
  return new SAML({
    callbackUrl: acsUrl,
    issuer: entityId,
    audience: entityId,
    entryPoint: idp?.ssoUrl ?? acsUrl,
    idpCert: idp?.certs ?? 'none',
    idpIssuer: idp?.entityId,
    // A signed response or a signed assertion; one of them is required either way.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: PENDING_MINUTES * 60_000,
    cacheProvider,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 30_000,
  });
}

/** The SP metadata for the IdP's administrator. */
export async function spMetadata(deps: Deps): Promise<string> {
  return (await samlFor(deps, null)).generateServiceProviderMetadata(null, null);
}

/** Starts a sign-in: the IdP's URL carrying our AuthnRequest (HTTP-Redirect binding). */
export async function startSaml(deps: Deps, next: string): Promise<string> {
  const idp = await idpMetadata(deps);
  return (await samlFor(deps, idp, next)).getAuthorizeUrlAsync('', undefined, {});
}

/** Finishes a sign-in from the consumer's POST. Throws SsoError on anything wrong. */
export async function finishSaml(deps: Deps, samlResponse: string): Promise<{ user: User; next: string }> {
  const idp = await idpMetadata(deps);
  const { acsUrl } = spUrls(deps);
  let profile: Profile | null;
  try {
    ({ profile } = await (await samlFor(deps, idp)).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (err) {
    const message = (err as Error).message ?? 'unknown error';
    if (/InResponseTo/.test(message))
      throw new SsoError(
        'expired',
        `This response answers no sign-in started here, or one already finished (${message}).`,
      );
    if (/subject confirmation|NotOnOrAfter|NotBefore|expired/i.test(message))
      throw new SsoError('expired', `The SAML assertion has expired or is not valid yet (${message}).`);
    throw new SsoError('invalid_response', `The SAML response could not be verified: ${message}.`);
  }
  if (!profile) throw new SsoError('invalid_response', 'The SAML response holds no assertion.');
  const assertion = (profile.getAssertion?.() as { Assertion?: SamlAssertion } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw new SsoError('invalid_response', 'The assertion has no ID.');
  const confirmations = assertion.Subject?.[0]?.SubjectConfirmation ?? [];
  const recipients = confirmations.flatMap(
    (c) => c.SubjectConfirmationData?.map((d) => d.$?.Recipient) ?? [],
  );
  if (!recipients.includes(acsUrl))
    throw new SsoError(
      'invalid_response',
      `The assertion is meant for another recipient (${recipients.filter(Boolean).join(', ') || 'none'}), not ${acsUrl}.`,
    );
  const notOnOrAfter = assertion.Conditions?.[0]?.$?.NotOnOrAfter;
  await useOnce(deps, profile.issuer, assertionId, notOnOrAfter ? new Date(notOnOrAfter) : deps.clock.now());
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : '';
  const pending = await takePending(deps, 'saml', inResponseTo, null);
  const text = (...names: string[]): string | null => {
    for (const name of names) {
      const v = profile[name];
      const first = Array.isArray(v) ? v[0] : v;
      if (typeof first === 'string' && first.trim()) return first.trim();
    }
    return null;
  };
  const emailFormat = profile.nameIDFormat === 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
  const email =
    text(
      'email',
      'mail',
      'urn:oid:0.9.2342.19200300.100.1.3',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    ) ?? (emailFormat ? profile.nameID : null);
  const user = await accountForIdentity(deps, {
    protocol: 'saml',
    issuer: profile.issuer,
    subject: profile.nameID,
    email,
    // The signed assertion of the configured IdP (the organisation's directory) vouches for it.
    emailVerified: true,
    firstName: text(
      'givenName',
      'firstName',
      'urn:oid:2.5.4.42',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    ),
    lastName: text(
      'sn',
      'surname',
      'lastName',
      'urn:oid:2.5.4.4',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    ),
  });
  return { user, next: pending.next };
}

/** The parts of an assertion (as xml2js reads it) this module reads. */
interface SamlAssertion {
  $?: { ID?: string };
  Subject?: Array<{
    SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }>;
  }>;
  Conditions?: Array<{ $?: { NotOnOrAfter?: string } }>;
}
