// Migration 0070: single sign-on identities, pending sign-ins and used SAML assertions.

/** One identity provider's person, linked to one account. */
export interface UserIdentitiesTable {
  /** oidc | saml */
  protocol: string;
  /** the OIDC issuer or the SAML IdP's entity id */
  issuer: string;
  /** the ID token's `sub` or the assertion's NameID */
  subject: string;
  user_id: string;
  /** the address the provider last gave */
  email: string | null;
  created_at: string;
  last_used_at: string;
}

/** A sign-in sent to a provider and not yet answered: used once, then deleted. */
export interface SsoPendingTable {
  /** OIDC: the SHA-256 of `state`; SAML: the AuthnRequest's ID */
  id: string;
  protocol: string;
  /** OIDC: the SHA-256 of the browser cookie that started it (a callback in another browser is refused) */
  browser_hash: string | null;
  nonce: string | null;
  code_verifier: string | null;
  /** where the browser goes once signed in */
  next: string;
  created_at: string;
  expires_at: string;
}

/** A SAML assertion already consumed, kept until it expires. */
export interface SsoReplaysTable {
  /** SHA-256 of the issuer and the assertion's ID */
  id: string;
  expires_at: string;
}

export interface SsoTables {
  user_identities: UserIdentitiesTable;
  sso_pending: SsoPendingTable;
  sso_replays: SsoReplaysTable;
}
