// The single sign-on part of the configuration (config.ts reads it with ssoOf): the OIDC client,
// the SAML IdP's metadata, the allowed domains and SSO_REQUIRED, checked together.

import { Type } from './env-schema.js';

const text = (fallback: string | undefined, description: string, extra: object = {}) =>
  Type.String({ minLength: 1, default: fallback, description, ...extra });

/** The variables (config.ts's ENV_SCHEMA spreads them in). */
export const SSO_ENV = {
  OIDC_ISSUER: Type.String({
    format: 'uri',
    pattern: '^https?://[^/?#\\s]+',
    description:
      'OpenID Connect issuer for single sign-on (discovery from its /.well-known/openid-configuration)',
  }),
  OIDC_CLIENT_ID: text(undefined, "this service's client id at the OpenID Connect provider"),
  OIDC_CLIENT_SECRET: text(undefined, "this service's client secret at the OpenID Connect provider", {
    secret: true,
  }),
  OIDC_NAME: text('Single sign-on', 'the label of the OpenID Connect button on the sign-in page', {
    maxLength: 60,
  }),
  OIDC_ALLOWED_DOMAINS: text(
    '',
    'email domains single sign-on (OIDC and SAML) admits, comma-separated (empty = any)',
    {
      minLength: 0,
      pattern: '^$|^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$',
    },
  ),
  SAML_IDP_METADATA: text(undefined, "the SAML identity provider's metadata: a file path or an http(s) URL"),
  SAML_NAME: text('Single sign-on (SAML)', 'the label of the SAML button on the sign-in page', {
    maxLength: 60,
  }),
  SSO_REQUIRED: Type.Boolean({
    default: false,
    description: 'password sign-in only for operators; everyone else signs in through single sign-on',
  }),
};

export type SsoVariable =
  | 'OIDC_ISSUER'
  | 'OIDC_CLIENT_ID'
  | 'OIDC_CLIENT_SECRET'
  | 'OIDC_NAME'
  | 'OIDC_ALLOWED_DOMAINS'
  | 'SAML_IDP_METADATA'
  | 'SAML_NAME';

export interface SsoConfig {
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME; null = no OpenID Connect. */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  /** SAML_IDP_METADATA and SAML_NAME; null = no SAML. */
  saml: { idpMetadata: string; name: string } | null;
  /** OIDC_ALLOWED_DOMAINS, lower-cased; empty = any domain. */
  allowedDomains: string[];
  /** SSO_REQUIRED: password sign-in for operators only. */
  required: boolean;
}

/** The single sign-on settings: the three OIDC variables go together, and SSO_REQUIRED needs a provider. */
export function ssoOf(
  s: (name: SsoVariable) => string | undefined,
  required: boolean,
  fail: (message: string) => Error,
): SsoConfig {
  const issuer = s('OIDC_ISSUER');
  const clientId = s('OIDC_CLIENT_ID');
  const clientSecret = s('OIDC_CLIENT_SECRET');
  const some = issuer || clientId || clientSecret;
  if (some && !(issuer && clientId && clientSecret))
    throw fail('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three or none');
  const idpMetadata = s('SAML_IDP_METADATA');
  const oidc =
    issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name: s('OIDC_NAME')! } : null;
  const saml = idpMetadata ? { idpMetadata, name: s('SAML_NAME')! } : null;
  if (required && !oidc && !saml)
    throw fail(
      'SSO_REQUIRED=true needs a single sign-on provider: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or SAML_IDP_METADATA',
    );
  const allowedDomains = (s('OIDC_ALLOWED_DOMAINS') ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  return { oidc, saml, allowedDomains, required };
}
