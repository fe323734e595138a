// Tables of two-factor sign-in (migration 0071). Same conventions as tables/platform.ts.

/** An account's second factors; a row exists while any is on. */
export interface UserTwoFactorTable {
  user_id: string;
  /** The authenticator app's secret, sealed under the server key (ServerSecrets.seal); null = no app. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** The last TOTP time step (30 s) accepted: a code of that step or earlier is refused. */
  totp_last_step: number | null;
  /** A secret shown for enrolment, sealed, until a first code confirms it. */
  totp_pending_secret: string | null;
  /** Issue time (ISO) of the last passkey sign-in challenge used: older challenges are refused. */
  passkey_last_challenge_at: string | null;
  created_at: string;
}

/** Unused recovery codes: HMAC of the code under the server key; using one deletes its row. */
export interface TwoFactorRecoveryCodesTable {
  user_id: string;
  code_hash: string;
}

/** WebAuthn credentials used as a second factor. */
export interface PasskeysTable {
  /** The credential id (base64url). */
  id: string;
  user_id: string;
  name: string;
  /** The COSE public key (base64url). */
  public_key: string;
  counter: number;
  /** JSON array of transport hints. */
  transports: string;
  created_at: string;
  last_used_at: string | null;
}

export interface TwoFactorTables {
  user_two_factor: UserTwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  passkeys: PasskeysTable;
}
