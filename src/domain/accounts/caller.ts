// The holder of a token as every request sees it: built by http/auth.ts, kept in
// deps.caches.callers. Types only (src/caches.ts names them without importing any code).
import type { AppsTable, UsersTable } from '../../db/tables/platform.js';
import type { Plan } from '../../platform/plans.js';
import type { Scope } from '../../platform/scopes.js';

/** What a request needs of the calling app (its limits and state). */
export type CallingApp = Pick<AppsTable, 'id' | 'status' | 'minute_limit' | 'day_limit' | 'draft_expires_at'>;

/** An account as a request sees it: the user without its password hash and comparison keys. */
export type Account = Omit<UsersTable, 'password_hash' | 'username_key' | 'email_key'>;

/** A token's holder, everything a request needs to know of it (immutable: it may be shared). */
export interface Caller {
  tokenId: string;
  tokenActive: boolean;
  user: Account;
  app: CallingApp;
  /** Epoch ms from which the app is disabled (see isDisabled). */
  disabledFrom: number;
  granted: ScopeList;
  available: ScopeList;
  plan: Plan;
  paid: boolean;
}

/** The row of the one query every /v3 request runs (http/auth.ts): token, account and app
 * together, only the columns a request uses, and on PostgreSQL the caller epoch read with them. */
export type CallerRow = Omit<Account, 'id' | 'status'> &
  Pick<CallingApp, 'minute_limit' | 'day_limit' | 'draft_expires_at'> & {
    token_id: string;
    token_status: string;
    token_scopes: string;
    u_id: string;
    u_status: string;
    a_id: string;
    a_status: string;
    epoch?: number;
  };

export interface ScopeList {
  set: ReadonlySet<Scope>;
  /** The comma-separated header value. */
  header: string;
}
