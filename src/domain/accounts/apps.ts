// Apps: registration (a draft with an access token for its owner), settings and their limits.
import type { Deps } from '../../context.js';
import type { AppsTable } from '../../db/tables/platform.js';
import { ApiError } from '../../platform/errors.js';
import { availableScopes, type Plan } from '../../platform/plans.js';
import { SCOPE_NAMES, type Scope } from '../../platform/scopes.js';
import { randomToken } from '../../platform/secrets.js';
import { issueToken } from './tokens.js';
import type { User } from './users.js';

export type App = AppsTable;
export type ScopeRequirement = 'required' | 'optional' | 'not_required';
export const DRAFT_WINDOW_DAYS = 90;

export interface NewApp {
  name: string;
  redirectUris?: string[];
  /** Scopes the app requests. Omitted: every scope, each optional. */
  scopes?: Partial<Record<Scope, ScopeRequirement>>;
  minuteLimit?: number | null;
  dayLimit?: number | null;
}

export interface CreatedApp {
  app: App;
  clientSecret: string;
  accessToken: string;
}

export function requestedScopes(app: Pick<App, 'scopes'>): Scope[] {
  const map = JSON.parse(app.scopes) as Record<string, ScopeRequirement>;
  return SCOPE_NAMES.filter((s) => map[s] === 'required' || map[s] === 'optional');
}

/** An account acts through apps only once its address is confirmed, so whoever signs up with
 * someone else's address holds no token when the owner later takes the account back. */
export function requireConfirmed(user: Pick<User, 'email_verified'>): void {
  if (!user.email_verified)
    throw new ApiError(1058, 'Confirm your email address first: open the link we emailed you.');
}

/** Registers a draft app and its owner's token; the owner's address must be confirmed (403/1058). */
export async function createApp(deps: Deps, owner: User, input: NewApp): Promise<CreatedApp> {
  requireConfirmed(owner);
  const name = input.name.trim();
  if (!name || name.length > 100) throw new ApiError(1002, 'name must be 1-100 characters');
  checkRedirectUris(input.redirectUris ?? []);
  for (const limit of [input.minuteLimit, input.dayLimit])
    if (limit != null && (!Number.isInteger(limit) || limit < 0 || limit > 2147483647))
      throw new ApiError(1002, 'rate limits must be whole numbers from 0 (no cap) to 2147483647');
  const scopes = input.scopes ?? Object.fromEntries(SCOPE_NAMES.map((s) => [s, 'optional' as const]));
  const now = deps.clock.now();
  const app: App = {
    id: await deps.ids.one(),
    client_id: randomToken(18),
    secret_version: 1,
    name,
    owner_id: owner.id,
    status: 'draft',
    redirect_uris: JSON.stringify(input.redirectUris ?? []),
    scopes: JSON.stringify(scopes),
    minute_limit: input.minuteLimit ?? null,
    day_limit: input.dayLimit ?? null,
    created_at: now.toISOString(),
    draft_expires_at: new Date(now.getTime() + DRAFT_WINDOW_DAYS * 86_400_000).toISOString(),
  };
  await deps.db.kysely.insertInto('apps').values(app).execute();
  const available = new Set(availableScopes(owner.account_type as Plan));
  const granted = requestedScopes(app).filter((s) => available.has(s));
  const accessToken = await issueToken(deps, app.id, owner.id, granted);
  return { app, clientSecret: clientSecret(deps, app), accessToken };
}

/** Redirect URIs are absolute http(s) URLs or reverse-domain app schemes, without fragments. */
export function checkRedirectUris(uris: string[]): void {
  if (uris.length > 20) throw new ApiError(1002, 'At most 20 redirect URIs.');
  for (const uri of uris) {
    let parsed: URL;
    try {
      parsed = new URL(uri);
    } catch {
      throw new ApiError(1002, `The redirect URI is not an absolute URL: ${uri}`);
    }
    if (parsed.hash) throw new ApiError(1002, `A redirect URI may not have a fragment: ${uri}`);
    if (
      !['http:', 'https:'].includes(parsed.protocol) &&
      !/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(parsed.protocol)
    )
      throw new ApiError(1002, `A redirect URI must be http(s) or a reverse-domain app scheme: ${uri}`);
  }
}

export function clientSecret(deps: Deps, app: Pick<App, 'client_id' | 'secret_version'>): string {
  return deps.secrets.clientSecret(app.client_id, app.secret_version);
}

export function findAppById(deps: Deps, id: string): Promise<App | undefined> {
  return deps.db.kysely.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A draft whose 90-day window has passed is disabled, whether or not anyone has marked it so. */
export function isDisabled(app: Pick<App, 'status' | 'draft_expires_at'>, now: Date): boolean {
  return now.getTime() >= disabledFrom(app);
}

/** The epoch ms from which the app is disabled: always, at its draft window's end, or never. */
export function disabledFrom(app: Pick<App, 'status' | 'draft_expires_at'>): number {
  if (app.status === 'disabled') return Number.NEGATIVE_INFINITY;
  return app.status === 'draft' ? Date.parse(app.draft_expires_at) : Number.POSITIVE_INFINITY;
}
