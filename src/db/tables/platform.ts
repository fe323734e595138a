// Tables of the platform: accounts, apps, tokens, rate-limit counters, settings, id blocks and the
// event outbox. Conventions for every table: ids and dates are TEXT (digit strings; ISO-8601 UTC
// instants), booleans are INTEGER 0/1 and structured values are JSON TEXT, so both dialects store
// and return exactly the same values.

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  email_verified: number;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  language: string;
  account_type: string;
  region: string;
  /** active | soft_deleted | deleted */
  status: string;
  sso_connections: string;
  date_created: string;
  date_last_login: string | null;
  /** The username's comparison key (db/account-keys.ts), unique; null only on a row an older release
   * wrote or one whose key another account holds (both filled by the next `migrate` that can). */
  username_key: string | null;
  /** The address's comparison key, unique; null as username_key. */
  email_key: string | null;
}

export interface AppsTable {
  id: string;
  client_id: string;
  /** Bumped to regenerate the client secret, which is derived from the server key and never stored. */
  secret_version: number;
  name: string;
  owner_id: string;
  /** draft | public | private | disabled */
  status: string;
  redirect_uris: string;
  /** JSON map scope -> required | optional | not_required */
  scopes: string;
  /** Per-app rate-limit overrides; null = the default for the app's status, 0 = no cap. */
  minute_limit: number | null;
  day_limit: number | null;
  created_at: string;
  draft_expires_at: string;
}

export interface TokensTable {
  id: string;
  token_hash: string;
  app_id: string;
  user_id: string;
  /** JSON array of granted scopes */
  scopes: string;
  /** active | revoked */
  status: string;
  created_at: string;
  revoked_at: string | null;
  /** registration (the owner's token made with the app) | oauth (issued for an authorization code) */
  origin: string;
}

export interface RateCountersTable {
  app_id: string;
  minute_window: number;
  minute_count: number;
  day_window: number;
  day_count: number;
}

export interface RateViolationsTable {
  app_id: string;
  /** e.g. "minute:29416723" or "day:20428" */
  window: string;
  created_at: string;
}

/** A fixed-window counter per key (respondent submissions): bumped by one upsert. */
export interface WindowCountersTable {
  key: string;
  /** the window's number: epoch ms / window length */
  window_start: number;
  count: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface IdBlocksTable {
  name: string;
  next_block: number;
}

/** The outbox: every domain event, written in the transaction of the change that caused it. */
export interface EventsTable {
  id: string;
  type: string;
  /** the account that owns the resource the event is about (the distribution key) */
  owner_id: string | null;
  /** the user who acted, when a person did */
  actor_id: string | null;
  resource_type: string | null;
  resource_id: string | null;
  ip: string | null;
  data: string;
  created_at: string;
}

/** A single-use emailed link (only the SHA-256 of its token is kept; used links are deleted). */
export interface AccountTokensTable {
  token_hash: string;
  /** verify_email | reset_password | signup_invite */
  purpose: string;
  user_id: string | null;
  email: string;
  created_at: string;
  expires_at: string;
}

export interface PlatformTables {
  users: UsersTable;
  account_tokens: AccountTokensTable;
  apps: AppsTable;
  tokens: TokensTable;
  rate_counters: RateCountersTable;
  rate_violations: RateViolationsTable;
  window_counters: WindowCountersTable;
  settings: SettingsTable;
  id_blocks: IdBlocksTable;
  events: EventsTable;
}
