// Who is calling: the bearer token, its account and app, the region of the host called, the app's
// rate limit and the route's scope, checked in that order for every /v3 request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Region } from '../config.js';
import type { Deps } from '../context.js';
import { prepareQuery } from '../db/prepared.js';
import { type App, isDisabled } from '../domain/accounts/apps.js';
import type { User } from '../domain/accounts/users.js';
import { ApiError } from './errors.js';
import { availableScopes, isPaid, type Plan } from './plans.js';
import { RateLimiter } from './rate-limit.js';
import { regionOfHost } from './regions.js';
import { type Scope, scopeInfo } from './scopes.js';
import { sha256 } from './secrets.js';

export interface AuthContext {
  user: User;
  app: App;
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

  // The one query every request runs: token, account and app together.
  const lookup = prepareQuery(deps.db, 1, (tokenHash) =>
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
        'u.password_hash',
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
        'a.client_id',
        'a.secret_version',
        'a.name as a_name',
        'a.owner_id',
        'a.status as a_status',
        'a.redirect_uris',
        'a.scopes as a_scopes',
        'a.minute_limit',
        'a.day_limit',
        'a.created_at',
        'a.draft_expires_at',
      ])
      .where('t.token_hash', '=', tokenHash),
  );

  /** Authenticates the request and enforces region, rate limit and the route's scope. */
  return async function authenticate(request: FastifyRequest, reply: FastifyReply, scope: Scope | null) {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(1010);
    const match = BEARER.exec(header);
    if (!match) throw new ApiError(1011, 'The Authorization header must be "bearer <token>".');
    const [row] = await lookup(sha256(match[1]));
    if (!row) throw new ApiError(1011);
    if (row.token_status !== 'active') throw new RevokedTokenError();
    if (row.u_status === 'soft_deleted') throw new ApiError(1052);
    if (row.u_status === 'deleted') throw new ApiError(1053);
    const user: User = {
      id: row.u_id,
      username: row.username,
      email: row.email,
      email_verified: row.email_verified,
      password_hash: row.password_hash,
      first_name: row.first_name,
      last_name: row.last_name,
      language: row.language,
      account_type: row.account_type,
      region: row.region,
      status: row.u_status,
      sso_connections: row.sso_connections,
      date_created: row.date_created,
      date_last_login: row.date_last_login,
    };
    const app: App = {
      id: row.a_id,
      client_id: row.client_id,
      secret_version: row.secret_version,
      name: row.a_name,
      owner_id: row.owner_id,
      status: row.a_status,
      redirect_uris: row.redirect_uris,
      scopes: row.a_scopes,
      minute_limit: row.minute_limit,
      day_limit: row.day_limit,
      created_at: row.created_at,
      draft_expires_at: row.draft_expires_at,
    };
    if (isDisabled(app, deps.clock.now()))
      throw new ApiError(
        1012,
        'The app is disabled: its 90-day development window ended before it was deployed.',
      );

    const hostRegion: Region = regionOfHost(deps.config, request.host);
    if (hostRegion !== user.region) throw new ApiError(1018);

    const plan = user.account_type as Plan;
    const granted = new Set(JSON.parse(row.token_scopes) as Scope[]);
    const available = new Set(availableScopes(plan));
    reply.header('X-OAuth-Scopes-Granted', [...granted].join(','));
    reply.header('X-OAuth-Scopes-Available', [...available].join(','));

    const rate = await limiter.hit(app);
    reply.headers(rate.headers);
    if (!rate.allowed) throw new ApiError(1040);

    if (granted.size === 0) throw new ApiError(1057);
    const paid = isPaid(plan);
    if (scope) {
      if (scopeInfo(scope).paid === 'yes' && !paid)
        throw new ApiError(1015, `The ${scope} scope needs a paid plan.`);
      if (!granted.has(scope)) throw new ApiError(1014, `This request needs the ${scope} scope.`);
    }
    const auth: AuthContext = { user, app, tokenId: row.token_id, granted, available, plan, paid };
    request.auth = auth;
  };
}
