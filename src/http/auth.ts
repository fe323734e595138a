// Who is calling: the bearer token, its account and app, the region of the host called, the app's
// rate limit and the route's scope, checked in that order for every /v3 request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Region } from '../config.js';
import type { Deps } from '../context.js';
import { callerEpochReader, sqliteCallerEpoch } from '../db/caller-epoch.js';
import { prepareQuery } from '../db/prepared.js';
import { disabledFrom } from '../domain/accounts/apps.js';
import type { Account, Caller, CallingApp, ScopeList } from '../domain/accounts/caller.js';
import { ApiError } from '../platform/errors.js';
import { availableScopes, isPaid, type Plan } from '../platform/plans.js';
import { regionHosts } from '../platform/regions.js';
import { type Scope, scopeInfo } from '../platform/scopes.js';
import { sha256 } from '../platform/secrets.js';
import { type RateDecision, RateLimiter } from './rate-limit.js';

export interface AuthContext {
  user: Account;
  app: CallingApp;
  tokenId: string;
  granted: ReadonlySet<Scope>;
  available: ReadonlySet<Scope>;
  plan: Plan;
  paid: boolean;
}

/** Thrown for a revoked token: the spec gives it its own body, not the error envelope. */
export class RevokedTokenError extends Error {
  constructor() {
    super('Client revoked access grant');
  }
}

export const REVOKED_BODY = { status: 1, errmsg: 'Client revoked access grant' };

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;

export function createAuthenticator(deps: Deps) {
  const limiter = new RateLimiter(deps);
  const k = deps.db.kysely;
  const pgEpoch = deps.db.pg ? callerEpochReader(deps.db.pg) : null;
  const { callers, scopeLists } = deps.caches;

  /** A token's granted scopes (its stored JSON) or a plan's available ones, parsed once: there
   * are few distinct values, and every request needs one of each. */
  function scopeList(key: string): ScopeList {
    let list = scopeLists.get(key);
    if (!list) {
      const scopes = key.startsWith('[') ? (JSON.parse(key) as Scope[]) : availableScopes(key as Plan);
      const set = new Set(scopes);
      list = { set, header: [...set].join(',') };
      scopeLists.set(key, list);
    }
    return list;
  }

  // The one query every request runs: token, account and app together, only the columns a
  // request uses (each column read costs; the password hash and the app's settings are not read).
  const lookup = deps.caches.callerLookup.get(() =>
    prepareQuery(deps.db, 1, (tokenHash) =>
      k
        .selectFrom('tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .innerJoin('apps as a', 'a.id', 't.app_id')
        .select([
          't.id as token_id',
          't.status as token_status',
          't.scopes as token_scopes',
          'u.id as u_id',
          'u.username',
          'u.email',
          'u.email_verified',
          'u.first_name',
          'u.last_name',
          'u.language',
          'u.account_type',
          'u.region',
          'u.status as u_status',
          'u.sso_connections',
          'u.date_created',
          'u.date_last_login',
          'a.id as a_id',
          'a.status as a_status',
          'a.minute_limit',
          'a.day_limit',
          'a.draft_expires_at',
        ])
        // PostgreSQL: the caller epoch of the same snapshot as the rows (see callerOfPg).
        .$if(pgEpoch !== null, (q) =>
          q.select(sql<number>`(SELECT n FROM caller_epoch WHERE id = 1)`.as('epoch')),
        )
        .where('t.token_hash', '=', tokenHash),
    ),
  );

  /** Who holds a token, as the database says now, and the caller epoch it was read at (PostgreSQL). */
  async function lookUp(token: string): Promise<{ caller: Caller; epoch: number } | undefined> {
    const [row] = await lookup(sha256(token));
    if (!row) return undefined;
    const plan = row.account_type as Plan;
    const app: CallingApp = {
      id: row.a_id,
      status: row.a_status,
      minute_limit: row.minute_limit,
      day_limit: row.day_limit,
      draft_expires_at: row.draft_expires_at,
    };
    const caller: Caller = {
      tokenId: row.token_id,
      tokenActive: row.token_status === 'active',
      user: {
        id: row.u_id,
        username: row.username,
        email: row.email,
        email_verified: row.email_verified,
        first_name: row.first_name,
        last_name: row.last_name,
        language: row.language,
        account_type: row.account_type,
        region: row.region,
        status: row.u_status,
        sso_connections: row.sso_connections,
        date_created: row.date_created,
        date_last_login: row.date_last_login,
      },
      app,
      disabledFrom: disabledFrom(app),
      granted: scopeList(row.token_scopes),
      available: scopeList(plan),
      plan,
      paid: isPaid(plan),
    };
    return { caller, epoch: Number(row.epoch ?? 0) };
  }

  // Callers are remembered (deps.caches.callers) with the caller epoch they were read at
  // (db/caller-epoch.ts): the counter every update or delete of tokens, users or apps moves, in the
  // changing transaction. A remembered caller serves a request only if the epoch read after the
  // request arrived is still that value, i.e. no token, user or app changed since, in any process;
  // writes to other tables (responses) leave it alone. The cache only ever holds one epoch's callers.
  const sqliteEpoch = pgEpoch ? null : sqliteCallerEpoch(deps.db);

  /** SQLite: the remembered caller of `token` if the epoch, read now (synchronously, when the
   * connection is free), is still the one it was kept at. */
  function knownCaller(token: string): Caller | undefined {
    const now = sqliteEpoch?.() ?? null;
    if (now === null) return undefined;
    callers.at(now);
    return callers.get(token);
  }

  async function callerOf(token: string): Promise<Caller | undefined> {
    if (pgEpoch) return callerOfPg(token, pgEpoch);
    // SQLite: read synchronously; null while the connection is held (then no cache).
    const now = sqliteEpoch?.() ?? null;
    if (now !== null) {
      callers.at(now);
      const known = callers.get(token);
      if (known) return known;
    }
    const caller = (await lookUp(token))?.caller;
    // Kept under the epoch read before the lookup: its rows are at least that new, and any later
    // change moves the epoch past it.
    if (caller && now !== null && now === callers.stamp) callers.set(token, caller);
    return caller;
  }

  async function callerOfPg(token: string, epochNow: () => Promise<number>): Promise<Caller | undefined> {
    const known = callers.get(token);
    if (known) {
      // Compared with the epoch `known` was kept at: meanwhile another request may have moved the
      // cache on to the new epoch, and `known` is from before it.
      const keptAt = callers.stamp;
      const now = await epochNow();
      if (now === keptAt) return known;
      if (now > (callers.stamp ?? -1)) callers.at(now);
    }
    const found = await lookUp(token);
    if (!found) return undefined;
    // The lookup read the epoch in its own statement (the same snapshot as the rows).
    if (found.epoch > (callers.stamp ?? -1)) callers.at(found.epoch);
    if (found.epoch === callers.stamp) callers.set(token, found.caller);
    return found.caller;
  }

  /** The caller's checks after the token: status, app, region, rate limit, scope. Synchronous
   * unless the app's requests are counted. */
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: Scope | null,
    caller: Caller,
  ): void | Promise<void> {
    const { user, app, granted, available } = caller;
    if (!caller.tokenActive) throw new RevokedTokenError();
    if (user.status === 'soft_deleted') throw new ApiError(1052);
    if (user.status === 'deleted') throw new ApiError(1053);
    const now = deps.clock.now().getTime();
    if (now >= caller.disabledFrom)
      throw new ApiError(
        1012,
        'The app is disabled: its 90-day development window ended before it was deployed.',
      );

    const hostRegion: Region = regionOfHost(deps, request.host);
    if (hostRegion !== user.region) throw new ApiError(1018);

    reply.header('x-oauth-scopes-granted', granted.header);
    reply.header('x-oauth-scopes-available', available.header);

    const rate = limiter.hit(app, now);
    if (rate instanceof Promise) return rate.then((r) => admitted(request, reply, scope, caller, r));
    admitted(request, reply, scope, caller, rate);
  }

  function admitted(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: Scope | null,
    caller: Caller,
    rate: RateDecision,
  ): void {
    const { user, app, granted, available, plan, paid } = caller;
    reply.headers(rate.headers);
    if (!rate.allowed) {
      deps.metrics.rateLimited.inc();
      throw new ApiError(1040);
    }

    // Known before the scope is checked, so a refused change names its actor (http/audit.ts); a
    // handler runs only once every check below passed.
    request.auth = {
      user,
      app,
      tokenId: caller.tokenId,
      granted: granted.set,
      available: available.set,
      plan,
      paid,
    };
    if (granted.set.size === 0) throw new ApiError(1057);
    if (scope) {
      if (scopeInfo(scope).paid === 'yes' && !paid)
        throw new ApiError(1015, `The ${scope} scope needs a paid plan.`);
      if (!granted.set.has(scope)) throw new ApiError(1014, `This request needs the ${scope} scope.`);
    }
  }

  /**
   * Authenticates the request and enforces region, rate limit and the route's scope. Throws or
   * returns synchronously when every answer is at hand (a remembered caller on SQLite, an app whose
   * requests are not counted): no promise, no turn of the microtask queue; otherwise a promise.
   */
  return function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: Scope | null,
  ): void | Promise<void> {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(1010);
    const match = BEARER.exec(header);
    if (!match) throw new ApiError(1011, 'The Authorization header must be "bearer <token>".');
    const known = pgEpoch ? undefined : knownCaller(match[1]);
    if (known) return admit(request, reply, scope, known);
    return callerOf(match[1]).then((caller) => {
      if (!caller) throw new ApiError(1011);
      return admit(request, reply, scope, caller);
    });
  };
}

/** The region a request was addressed to: its Host's region, any other host the default one. */
function regionOfHost(deps: Deps, host: string | undefined): Region {
  return (
    (host && deps.caches.regionHosts.get(() => regionHosts(deps.config)).get(host.toLowerCase())) || 'us'
  );
}
