// Tables of sign-in and OAuth: browser sessions, sign-in throttling, authorization codes, the
// operator's app reviews and the operator flag. Same conventions as tables/platform.ts.

export interface SessionsTable {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  session_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  ip: string | null;
  /** The browser's User-Agent header at sign-in (cut to 512 characters), if it sent one. */
  user_agent: string | null;
  /** When a request last used the session: moved at most once per LAST_SEEN_EVERY_MS (migration 0072). */
  last_seen_at: string | null;
  /** Names the session in the security page's forms; random, not secret (migration 0072). */
  public_id: string | null;
}

/** Failed sign-ins per key ("user:<username>" or "ip:<address>"), for slowdown and lockout. */
export interface SignInFailuresTable {
  key: string;
  failures: number;
  first_failure_at: string;
  last_failure_at: string;
  locked_until: string | null;
}

export interface AuthCodesTable {
  /** SHA-256 of the code. */
  code_hash: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  /** JSON array of the scopes the user approved */
  scopes: string;
  /** PKCE S256 challenge, if the client sent one */
  code_challenge: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The token issued for this code (revoked if the code is replayed). */
  token_id: string | null;
}

export interface AppReviewsTable {
  app_id: string;
  /** pending | approved | rejected */
  review_status: string;
  /** 1 when the operator approved surveys_write and responses_write for the public app */
  write_scopes_approved: number;
  requested_at: string;
  decided_at: string | null;
  decided_by: string | null;
  note: string | null;
}

/** A public app's change of name, redirect URIs or scopes waiting for review (one per app). */
export interface AppRevisionsTable {
  app_id: string;
  name: string;
  /** JSON array, as apps.redirect_uris */
  redirect_uris: string;
  /** JSON object, as apps.scopes */
  scopes: string;
  requested_at: string;
}

export interface OperatorsTable {
  user_id: string;
  created_at: string;
}

export interface OauthTables {
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  auth_codes: AuthCodesTable;
  app_reviews: AppReviewsTable;
  app_revisions: AppRevisionsTable;
  operators: OperatorsTable;
}
