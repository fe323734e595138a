// Every mutating route (POST, PUT, PATCH, DELETE: the API's and the pages' forms) runs its handler
// inside an audit scope (deps.audit): the actor, how they came (a token of an app, a session), the
// client address, the action (method and route pattern) and its target (the route's last
// parameter). The database driver adds the scope's row to the first commit that writes; a request
// that ends without one gets it before the answer is sent: `denied` for a 403 or 404 (a refusal),
// `failed` for another error, `ok` for a success that committed nothing through a write of its own.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Deps } from '../context.js';
import { type AuditActor, type AuditScope, newScope } from '../domain/audit/context.js';
import { auditAfter } from '../domain/audit/log.js';
import { API_PREFIX } from './pipeline.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit scope of a mutating request, once its handler is about to run. */
    auditScope?: AuditScope;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes that change nothing of an owner's: respondents' answers (the API's response submission,
 * the respondent pages, opt-outs), shared results' password, the token endpoint, and the sign-in
 * form, whose rows come from the sign-in itself (domain/accounts: startSession and signIn).
 */
export const UNAUDITED: readonly RegExp[] = [
  /^POST \/v3\/collectors\/:collector_id\/responses$/,
  /^POST \/login$/,
  /^POST \/oauth\/token$/,
  /^POST \/optout$/,
  /^POST \/unsubscribe\//,
  /^\w+ \/r\//,
  /^\w+ \/results\//,
];

/** The action of a route: its method and pattern as the OpenAPI document writes it. */
export function actionOf(method: string, url: string): string {
  return `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;
}

/** A path's id as the row keeps it: as sent, but at most 100 characters and no NUL (which PostgreSQL
 * cannot store; a refused request with one still gets its row). */
function storedId(id: string): string {
  return id.replaceAll('\u0000', '\uFFFD').slice(0, 100);
}

/** The target a route names: the resource of its last parameter (`surveys/:survey_id` → survey),
 * else of its last segment (`POST /v3/surveys` → survey, no id). */
export function targetOf(url: string): { type: string | null; param: string | null } {
  const parts = url.split('/').filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    if (!parts[i].startsWith(':')) continue;
    const param = parts[i].slice(1);
    const noun = i > 0 && !parts[i - 1].startsWith(':') ? parts[i - 1] : param.replace(/_?[iI]d$/, '');
    return { type: singular(noun), param };
  }
  const last = parts.filter((p) => p !== 'v3').at(-1);
  return { type: last ? singular(last) : null, param: null };
}

function singular(noun: string): string {
  const n = noun.replace(/-/g, '_').toLowerCase();
  if (n.endsWith('ies')) return `${n.slice(0, -3)}y`;
  if (n.endsWith('ses')) return n.slice(0, -2);
  return n.endsWith('s') && !n.endsWith('ss') ? n.slice(0, -1) : n;
}

export interface AuditOptions {
  /** The signed-in user of a page request (the pages' session), or null. */
  pageActor(request: FastifyRequest): Promise<AuditActor | null>;
}

export function installAudit(app: FastifyInstance, deps: Deps, options: AuditOptions): void {
  if (!deps.config.auditLog) return;
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) =>
      MUTATING.has(m),
    );
    if (methods.length === 0 || route.url === '*' || route.url === '/*') return;
    const method = methods[0];
    const action = actionOf(method, route.url);
    if (UNAUDITED.some((r) => r.test(`${method} ${route.url}`))) return;
    const api = route.url.startsWith(API_PREFIX);
    const target = targetOf(route.url);

    const scopeOf = (request: FastifyRequest, actor: AuditActor | null): AuditScope => {
      const params = request.params;
      const id =
        target.param && params && typeof params === 'object' ? Reflect.get(params, target.param) : undefined;
      return newScope({
        actorId: actor?.id ?? null,
        actorName: actor?.username ?? null,
        via: api ? 'token' : 'session',
        appId: api ? (request.auth?.app.id ?? null) : null,
        address: request.ip,
        action,
        targetType: target.type,
        targetId: typeof id === 'string' || typeof id === 'number' ? storedId(String(id)) : null,
      });
    };
    const actorOf = (request: FastifyRequest): Promise<AuditActor | null> | AuditActor | null => {
      if (!api) return options.pageActor(request);
      const user = request.auth?.user;
      return user ? { id: user.id, username: user.username } : null;
    };

    // Last of the route's preHandlers (after CSRF and sign-in checks): the handler runs in the scope.
    const own = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [
      ...own,
      (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
        const enter = (actor: AuditActor | null) => {
          const scope = scopeOf(request, actor);
          request.auditScope = scope;
          deps.audit.run(scope, done);
        };
        const actor = actorOf(request);
        if (actor instanceof Promise) actor.then(enter, done);
        else enter(actor);
      },
    ];
    const sends = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [
      ...sends,
      async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        let scope = request.auditScope;
        const status = reply.statusCode;
        if (!scope) {
          // Refused before the handler (authentication, scope, validation): the actor if known.
          const actor = await actorOf(request);
          if (!actor) return payload;
          scope = scopeOf(request, actor);
        }
        if (scope.state !== 'pending') return payload;
        // A signed-out visitor sent to the sign-in page did nothing.
        if (!scope.actorId && status < 400) return payload;
        const outcome = status === 403 || status === 404 ? 'denied' : status >= 400 ? 'failed' : 'ok';
        await auditAfter(deps, scope, outcome, status >= 400 ? status : null);
        return payload;
      },
    ];
  });
}
