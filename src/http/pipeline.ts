// The HTTP conventions every /v3 endpoint shares: request ids, JSON parsing, validation with the
// route's TypeBox schemas, the error envelope, 404/405, HEAD/OPTIONS/CORS and authentication.
// Route files only declare `config.scope`; everything else happens here, once.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import secureJson from 'secure-json-parse';
import type { Deps } from '../context.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { ApiError, errorBody } from '../platform/errors.js';
import type { Scope } from '../platform/scopes.js';
import { type AuthContext, createAuthenticator, REVOKED_BODY, RevokedTokenError } from './auth.js';
import { lenientValue, type Schema } from './lenient.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a /v3 route needs; null = any valid token. */
    scope?: Scope | null;
    /** 'none' for /v3 routes that need no token (the OpenAPI document). */
    auth?: 'none';
  }
  interface FastifyRequest {
    auth: import('./auth.js').AuthContext;
  }
}

export const API_PREFIX = '/v3';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'sm-request-id, x-request-id, x-oauth-scopes-granted, x-oauth-scopes-available, x-ratelimit-app-global-day-limit, x-ratelimit-app-global-day-remaining, x-ratelimit-app-global-day-reset, x-ratelimit-app-global-minute-limit, x-ratelimit-app-global-minute-remaining, x-ratelimit-app-global-minute-reset',
};

/** Every /v3 answer's fixed headers: CORS, and never cached. */
const API_HEADERS = {
  ...CORS_HEADERS,
  'cache-control': 'no-store, no-cache, max-age=0, private, must-revalidate',
};

/** What an incoming X-Request-Id may be to be taken as the request's id (a proxy's or a client's,
 * so one id follows a request through every log); anything else is replaced by a fresh one. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: a well-formed incoming X-Request-Id, else a new UUID. Echoed in the answer. */
export function newRequestId(req?: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req?.headers['x-request-id'];
  return typeof given === 'string' && INCOMING_ID.test(given) ? given : randomUUID();
}

/** ajv-formats' plugin: its CommonJS default export, typed as the module it is not. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function ajvFor(part: 'body' | 'other'): Ajv {
  // Bodies are strict (a string is not a number); query strings and paths arrive as text and are
  // coerced. Unknown body fields are an error, not silently dropped.
  const ajv = new Ajv({
    coerceTypes: part === 'body' ? false : 'array',
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  return addFormats(ajv);
}

/** The path of the first string or key holding a NUL character (PostgreSQL cannot store one). */
function nulAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], `${path}[${i}]`);
      if (at !== null) return at;
    }
    return null;
  }
  if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      const name = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return name;
      const at = nulAt(v, name);
      if (at !== null) return at;
    }
  return null;
}

/**
 * A validator compiled on its first call. An app declares some 400 schemas and compiling them all
 * was most of a process's start-up (seconds of CPU for `serve`, `worker` and every command); a
 * route compiles its own when first asked, a few milliseconds once. Fastify hands Ajv's validators
 * their parent (so coercion can replace a root value) when they have a `schemaEnv`: the compiled
 * one's is answered.
 */
function compiledOnFirstCall(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    compiled ??= compile();
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  Object.defineProperty(validate, 'schemaEnv', {
    get: () => {
      compiled ??= compile();
      return compiled.schemaEnv;
    },
  });
  return validate;
}

/** A query validator that first refuses NUL characters, as a validation error naming the field. */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown) => {
    const at = nulAt(data, '');
    if (at === null) {
      const valid = validate(data);
      wrapped.errors = validate.errors;
      return valid;
    }
    wrapped.errors = [
      {
        instancePath: `/${at}`,
        keyword: 'nul',
        params: {},
        schemaPath: '',
        message: 'may not contain NUL characters',
      },
    ];
    return false;
  }) as ValidateFunction;
  return wrapped;
}

function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const params: Record<string, unknown> = first.params;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field =
    text(params.missingProperty) ??
    text(params.additionalProperty) ??
    (path || err.validationContext || 'value');
  const where = path && (params.missingProperty || params.additionalProperty) ? `${path}.${field}` : field;
  if (params.additionalProperty) return `'${where}' is not a known field.`;
  if (params.missingProperty) return `'${where}' is required.`;
  return `'${where}' ${first.message}.`;
}

/** Maps any error to the catalogue: [status, body], its docs under `publicUrl`. Unexpected errors
 * become 500/1050. */
export function toErrorResponse(err: unknown, request: FastifyRequest, publicUrl: string): [number, unknown] {
  if (err instanceof RevokedTokenError) return [401, REVOKED_BODY];
  if (err instanceof ApiError) return [err.status, errorBody(publicUrl, err.code, err.detail)];
  const e = err as FastifyError;
  if (e.validation) {
    switch (e.validationContext) {
      case 'body':
        return [400, errorBody(publicUrl, 1002, describeValidation(e))];
      case 'params':
        return [404, errorBody(publicUrl, 1020)];
      case 'headers':
        return [400, errorBody(publicUrl, 1004, describeValidation(e))];
      default:
        return [400, errorBody(publicUrl, 1003, describeValidation(e))];
    }
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return [400, errorBody(publicUrl, 1001)];
    case 'FST_ERR_BAD_URL': // a path that does not decode (e.g. a lone surrogate): no such resource
      return [404, errorBody(publicUrl, 1020, 'The path is not valid percent-encoded UTF-8.')];
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, errorBody(publicUrl, 1030, 'The request body is too large.')];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [400, errorBody(publicUrl, 1004, 'Content-Type must be application/json.')];
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return [400, errorBody(publicUrl, 1004, 'The Content-Type or Content-Length header is invalid.')];
  }
  if (isDatabaseUnavailable(err)) return [503, errorBody(publicUrl, 1051)];
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return [400, errorBody(publicUrl, 1000, e.message)];
  request.log.error({ err, reqId: request.id }, 'unexpected error');
  return [500, errorBody(publicUrl, 1050, `Request id: ${request.id}.`)];
}

/** The error handler: answers an error with its catalogue body (docs under `publicUrl`); also Fastify's `frameworkErrors` (bad URLs), which
 * are raised before routing and would otherwise get Fastify's own body. */
export function errorSender(publicUrl: string) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const [status, body] = toErrorResponse(err, request, publicUrl);
    if (request.url.startsWith(API_PREFIX)) reply.headers(CORS_HEADERS);
    reply.code(status).type('application/json').send(body);
  };
}

/** Whether route pattern `a` is more specific than `b` at their first differing segment (a static
 * segment beats a parameter, a parameter beats a wildcard), as find-my-way ranks them. */
function moreSpecific(a: string, b: string): boolean {
  const rank = (segment: string) => (segment.startsWith(':') ? 1 : segment === '*' ? 2 : 0);
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return rank(x[i]) < rank(y[i]);
  return false;
}

/** Whether `a` matches some path `b` also matches, and is more specific there (…/bulk vs …/:id). */
function shadows(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  if (x.length !== y.length || a === b) return false;
  return x.every((s, i) => s === y[i] || y[i].startsWith(':') || s.startsWith(':')) && moreSpecific(a, b);
}

/** The header naming an internal read (its value is a one-time random key, see readOnlyEcho). */
const INTERNAL_READ = 'x-survey-service-internal-read';
/** Headers an internal read keeps, so hrefs are built on the host the client called. */
const FORWARDED_HEADERS = ['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for'];

function pick(headers: Record<string, unknown>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const value = headers[n];
    if (typeof value === 'string') out[n] = value;
  }
  return out;
}

export function installHttpConventions(
  app: FastifyInstance,
  deps: Deps,
  options: {
    /** The answer for unknown paths outside the API (a page); without it, the JSON 404/1020. */
    pageNotFound?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  } = {},
): void {
  const docs = deps.config.regionUrls.us; // where error bodies point (PUBLIC_URL)
  // Compiled on a route's first request, once per schema text in the process
  // (deps.caches.validators, .serializers): apps built from this code declare the same schemas.
  const { validators, serializers } = deps.caches;
  const ajvs: Partial<Record<'body' | 'other', Ajv>> = {};
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart === 'body' ? 'body' : 'other';
    const key = `${part} ${JSON.stringify(schema)}`;
    const validate = compiledOnFirstCall(() => {
      let compiled = validators.get(key);
      if (!compiled) {
        ajvs[part] ??= ajvFor(part);
        compiled = ajvs[part].compile(schema);
        validators.set(key, compiled);
      }
      return compiled;
    });
    return httpPart === 'querystring' ? refusingNul(validate) : validate;
  });
  // Fastify's own serializer compiler (fast-json-stringify, no shared schemas), remembered, and
  // likewise built on a route's first answer.
  app.setSerializerCompiler(({ schema }) => {
    const key = JSON.stringify(schema);
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      if (!serialize) {
        serialize = serializers.get(key);
        if (!serialize) {
          serialize = fastJsonStringify(schema, {});
          serializers.set(key, serialize);
        }
      }
      return serialize(data);
    };
  });

  // JSON bodies: an empty body is "no body" (clients send Content-Type on bodiless DELETEs);
  // anything else must parse, with prototype poisoning refused.
  // Only JSON is parsed here (pages add form parsing in their own plugins); any other body type
  // is refused as a bad header (400/1004) before validation.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (typeof body === 'string' ? body : body.toString('utf8')).trim();
    if (text === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(new ApiError(1001), undefined);
    }
    // JSON can only carry a NUL as the escape \u0000, so most bodies skip the walk.
    const at = text.includes('\\u0000') ? nulAt(parsed, '') : null;
    if (at !== null)
      return done(new ApiError(1002, `'${at || 'body'}' may not contain NUL characters.`), undefined);
    done(null, parsed);
  });

  // Which methods each path has, for 405s and OPTIONS (Fastify's own router only answers 404).
  // The same path rules as the app's router (app.ts routerOptions), so OPTIONS and 405 agree with it.
  const internalReads = new Map<string, AuthContext>();
  const routes = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  const authenticate = createAuthenticator(deps);
  app.addHook('onRoute', (route) => {
    // A parameter route (…/:id) may be shadowed by a more specific one (…/bulk) for the methods
    // only it has: such a request is a 405, answered before authentication. Only parameter routes
    // carry the check, bound to their own pattern (no per-request read of the route's options).
    if (route.url.includes('/:')) {
      const pattern = route.url;
      const own = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [
        ...own,
        (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
          const path = request.url.split('?')[0];
          if (mayBeShadowed(pattern, path) && ownPattern(matches(path)) !== pattern) {
            methodNotAllowed(reply, allowedMethods(request.url));
            return;
          }
          done();
        },
      ];
    }
    // Each /v3 route authenticates in its own onRequest hook, bound to its scope here once, so a
    // request pays no lookup of its route's config. (A new array: Fastify copies GET options for
    // the HEAD route before this hook runs, and HEAD gets its own pass.)
    if (route.url.startsWith(API_PREFIX) && route.method !== 'OPTIONS' && route.config?.auth !== 'none') {
      const scope = route.config?.scope ?? null;
      const own = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [
        ...own,
        (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
          // The stored representation read for a PUT/PATCH (below) runs as that request's caller.
          const key = request.headers[INTERNAL_READ];
          const auth = typeof key === 'string' ? internalReads.get(key) : undefined;
          if (auth) {
            request.auth = auth;
            return done();
          }
          // Synchronous when authentication needs no query (auth.ts): then no promise at all.
          let pending: void | Promise<void>;
          try {
            pending = authenticate(request, reply, scope);
          } catch (err) {
            return done(err instanceof Error ? err : new Error(String(err)));
          }
          if (pending) pending.then(() => done(), done);
          else done();
        },
      ];
    }
    // What real clients send for booleans and ids (http/lenient.ts), rewritten before validation;
    // on PUT and PATCH, the read-only fields of the resource's own representation (readOnlyEcho).
    const query = route.schema?.querystring as object | undefined;
    const body = route.schema?.body as Schema | undefined;
    if (route.url.startsWith(API_PREFIX) && (query || body)) {
      const own = route.preValidation ? [route.preValidation].flat() : [];
      const rewrite = route.method === 'PUT' || route.method === 'PATCH';
      route.preValidation = [
        ...own,
        async (request: FastifyRequest) => {
          if (query) lenientValue(request.query, query);
          if (body) request.body = lenientValue(request.body, body);
          if (rewrite && body?.properties) await dropReadOnlyEcho(request, body.properties);
        },
      ];
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'OPTIONS' || route.url === '*' || route.url === '/*') continue;
      try {
        routes.on(m as 'GET', route.url, () => {}, route.url);
        patterns.add(route.url);
      } catch {
        // the same method and path registered twice is Fastify's error to report, not ours
      }
    }
  });
  const patterns = new Set<string>();
  // A path such as /responses/bulk also matches /responses/:id for the methods only the latter
  // has; the path's own methods are those of the most specific pattern that matches it, as the
  // router itself would pick if every method were registered there.
  const matches = (path: string) =>
    METHODS.map((m) => {
      // The store of every route is its pattern (routes.on above).
      const pattern: string | undefined = routes.find(m, path)?.store;
      return { method: m, pattern };
    });
  const ownPattern = (found: Array<{ pattern?: string }>) => {
    let best: string | undefined;
    for (const { pattern } of found) if (pattern && (!best || moreSpecific(pattern, best))) best = pattern;
    return best;
  };
  /** Clients GET a resource, change a field and send it all back: the fields the body schema does
   * not take are the server's own (id, href, dates, counts, type). Each is dropped when it equals
   * the stored representation (read with a GET of the same URL as the same caller), and refused
   * (400/1002, naming it) when it differs; a field the GET does not show is left to validation. */
  const dropReadOnlyEcho = async (request: FastifyRequest, accepted: Record<string, unknown>) => {
    const sent = request.body;
    if (!sent || typeof sent !== 'object' || Array.isArray(sent)) return;
    const extra = Object.keys(sent).filter((k) => !(k in accepted));
    if (extra.length === 0) return;
    const key = randomUUID();
    internalReads.set(key, request.auth);
    let stored: Record<string, unknown>;
    try {
      const res = await app.inject({
        method: 'GET',
        url: request.url,
        headers: { ...pick(request.headers, FORWARDED_HEADERS), [INTERNAL_READ]: key },
      });
      if (res.statusCode !== 200) return;
      stored = res.json();
    } finally {
      internalReads.delete(key);
    }
    for (const k of extra) {
      if (!(k in stored)) continue;
      if (!isDeepStrictEqual(Reflect.get(sent, k), stored[k]))
        throw new ApiError(
          1002,
          `'${k}' is read-only; send it unchanged (${JSON.stringify(stored[k])}) or leave it out.`,
        );
      Reflect.deleteProperty(sent, k);
    }
  };

  const allowedMethods = (url: string) => {
    const found = matches(url.split('?')[0]);
    const own = ownPattern(found);
    return found.filter((f) => f.pattern !== undefined && f.pattern === own).map((f) => f.method);
  };
  // Patterns a more specific one can shadow (…/:id beside …/bulk), each with the segments of the
  // patterns that shadow it, computed once the routes are known: only a request whose path fits one
  // of those pays the check (the parameter routes' hook above), not every /r/<token> beside
  // /r/theme-preview.css.
  let shadowed: Map<string, string[][]> | null = null;
  const mayBeShadowed = (pattern: string, path: string) => {
    shadowed ??= new Map(
      [...patterns].map((p) => [p, [...patterns].filter((q) => shadows(q, p)).map((q) => q.split('/'))]),
    );
    const by = shadowed.get(pattern);
    if (!by?.length) return false;
    // an escaped path is left to the router itself; slashes as the router reads them
    if (path.includes('%')) return true;
    const segments = path
      .replace(/\/{2,}/g, '/')
      .replace(/(.)\/$/, '$1')
      .split('/');
    return by.some(
      (q) => q.length === segments.length && q.every((s, i) => s.startsWith(':') || s === segments[i]),
    );
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('sm-request-id', request.id);
    reply.header('x-request-id', request.id);
    if (request.url.startsWith(API_PREFIX)) reply.headers(API_HEADERS);
    done();
  });
  const methodNotAllowed = (reply: FastifyReply, allowed: string[]) => {
    reply.header('allow', [...allowed, 'OPTIONS'].join(', '));
    return reply.code(405).send(errorBody(docs, 1061, `Allowed methods: ${allowed.join(', ')}.`));
  };

  app.setErrorHandler(errorSender(docs));

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(request.url);
    // A route of this very method that called for "not found" itself (a static file that is not
    // there) is a 404, not a 405.
    if (allowed.length > 0 && !allowed.some((m) => m === request.method))
      return methodNotAllowed(reply, allowed);
    if (options.pageNotFound && !request.url.startsWith(API_PREFIX))
      return options.pageNotFound(request, reply);
    return reply
      .code(404)
      .send(errorBody(docs, 1020, `No resource at ${request.method} ${request.url.split('?')[0]}.`));
  });

  // OPTIONS on any path: the methods it answers (also the CORS preflight answer).
  app.options('*', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const allowed = allowedMethods(request.url);
    if (allowed.length === 0) return reply.code(404).send(errorBody(docs, 1020));
    const list = [...allowed, 'OPTIONS'].join(', ');
    reply
      .headers(CORS_HEADERS)
      .header('allow', list)
      .header('access-control-allow-methods', list)
      .header('access-control-allow-headers', 'Authorization, Content-Type, Accept')
      .header('access-control-max-age', '86400');
    return reply.code(200).send({ methods: [...allowed, 'OPTIONS'] });
  });
}
