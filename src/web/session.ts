// Browser sessions for every server-rendered page. Other page areas use:
//   - `await app.register(webForms)` inside their own plugin: cookies, form bodies and CSRF tokens
//     (`await csrfToken(deps, reply)` for a form's hidden `_csrf`; `preHandler: app.csrfProtection`);
//   - `const user = await requireSignedIn(deps, request, reply); if (!user) return reply;` which
//     redirects a signed-out visitor to /login?next=<this page> (or `signedInOnly(deps)`, a preHandler
//     that sets `request.sessionUser`);
//   - `currentUser(deps, request)` when a page merely varies with who is signed in.
import fastifyCookieModule, { type FastifyCookie } from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../context.js';
import { DEVICE_MS } from '../domain/accounts/devices.js';
import {
  dropSession,
  SESSION_DAYS,
  type SessionMeta,
  sessionUser,
  startSession,
} from '../domain/accounts/sessions.js';
import { mustSetUpTwoFactor, PENDING_MS } from '../domain/accounts/two-factor.js';
import type { User } from '../domain/accounts/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `signedInOnly(deps)`. */
    sessionUser: User;
  }
}

export const SESSION_COOKIE = 'ss_session';
export const CSRF_COOKIE = '_csrf';
/** The browser's device tokens (domain/accounts/devices.ts): read by sign-in, set after one. */
export const DEVICE_COOKIE = 'ss_device';
/** The proof of a right password while the second factor is asked for (two-factor.ts `pendingProof`). */
export const SECOND_FACTOR_COOKIE = 'ss_second_factor';

/** Cookies, urlencoded form bodies and CSRF protection in the scope that registers it (a
 * fastify-plugin, so the decorators and parsers apply to that scope, not a child of it). */
export const webForms = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyCookieModule);
    await app.register(formbody);
    await app.register(csrfProtection, {
      cookieKey: CSRF_COOKIE,
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
      getToken: (req) => formField(req.body, '_csrf'),
    });
  },
  { name: 'web-forms' },
);

/** A text field of a parsed form body (of a route whose schema does not type it), if it has one. */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value: unknown = Reflect.get(body, name);
  return typeof value === 'string' ? value : undefined;
}

/** The text fields of a parsed form body (lists and files left out), to show the form again. */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof body === 'object' && body !== null)
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Cookies are Secure when the request came over HTTPS or the service's public URL is https. */
export function isSecure(deps: Deps, request: FastifyRequest): boolean {
  return request.protocol === 'https' || deps.config.regionUrls.us.startsWith('https:');
}

export function sessionCookieOptions(deps: Deps, request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isSecure(deps, request) };
}

/** A CSRF token for a form on this reply (sets the secret cookie on first use). */
export async function csrfToken(deps: Deps, reply: FastifyReply): Promise<string> {
  return reply.generateCsrf({ secure: isSecure(deps, reply.request) });
}

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const parsed = (request as { cookies?: Record<string, string | undefined> }).cookies;
  if (parsed) return parsed[name];
  const header = request.headers.cookie;
  return header ? (fastifyCookieModule as unknown as FastifyCookie).parse(header)[name] : undefined;
}

/** The device cookie the browser sent, if any. */
export function deviceCookie(request: FastifyRequest): string | undefined {
  return cookieValue(request, DEVICE_COOKIE);
}

/** Remembers the browser as a device that signed in (`value` from a successful sign-in). */
export function setDeviceCookie(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
): void {
  reply.setCookie(DEVICE_COOKIE, value, { ...sessionCookieOptions(deps, request), maxAge: DEVICE_MS / 1000 });
}

export function sessionId(request: FastifyRequest): string | undefined {
  return cookieValue(request, SESSION_COOKIE);
}

const cache = new WeakMap<FastifyRequest, Promise<User | null>>();

/** The signed-in user of this request, or null. */
export function currentUser(deps: Deps, request: FastifyRequest): Promise<User | null> {
  let user = cache.get(request);
  if (!user) {
    user = sessionUser(deps, sessionId(request));
    cache.set(request, user);
  }
  return user;
}

/** Where a relative `next` may lead: a path on this site, never another host (else the survey list). */
export function safeNext(next: unknown, fallback = '/'): string {
  // Browsers drop tabs and newlines and read a backslash as a slash: "/<tab>/evil" would leave the site.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (typeof next !== 'string' || !next.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(next))
    return fallback;
  const url = new URL(next, 'http://local.invalid');
  if (url.origin !== 'http://local.invalid') return fallback;
  // The value is judged after normalisation: "/.//evil", "/%2e%2e//evil" and "/a/..//evil" all
  // become "//evil", which a browser reads as another host.
  const path = url.pathname + url.search + url.hash;
  return /^\/[/\\]/.test(path) ? fallback : path;
}

export function loginUrl(next: string): string {
  return `/login?next=${encodeURIComponent(next)}`;
}

/**
 * The signed-in user, or null after answering with a 303 to the sign-in page that returns here
 * (for a form post, back to the page the visitor came from is unknown: it returns to /account).
 */
export async function requireSignedIn(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<User | null> {
  const user = await currentUser(deps, request);
  if (user) return user;
  const next = request.method === 'GET' || request.method === 'HEAD' ? request.url : '/account';
  reply.redirect(loginUrl(next), 303);
  return null;
}

/** A preHandler form of requireSignedIn: the handler runs only for a signed-in user (request.sessionUser). */
export function signedInOnly(deps: Deps) {
  return async function signedInPreHandler(request: FastifyRequest, reply: FastifyReply) {
    const user = await requireSignedIn(deps, request, reply);
    if (user) request.sessionUser = user;
    return reply.sent ? reply : undefined;
  };
}

/** Signs the browser in as `user`: a new session (the old one, if any, dropped), the session
 * cookie and the device cookie (`device`, from the sign-in that proved the password). */
export async function beginSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  device: string,
  meta: SessionMeta,
): Promise<void> {
  const old = sessionId(request);
  if (old) await dropSession(deps, old);
  const id = await startSession(deps, user, request.ip ?? null, {
    userAgent: request.headers['user-agent'] ?? null,
    ...meta,
  });
  setDeviceCookie(deps, request, reply, device);
  reply.setCookie(SESSION_COOKIE, id, {
    ...sessionCookieOptions(deps, request),
    maxAge: SESSION_DAYS * 86_400,
  });
}

/** The pending second-factor proof the browser holds, if any. */
export function pendingCookie(request: FastifyRequest): string | undefined {
  return cookieValue(request, SECOND_FACTOR_COOKIE);
}

export function setPendingCookie(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
): void {
  reply.setCookie(SECOND_FACTOR_COOKIE, value, {
    ...sessionCookieOptions(deps, request),
    maxAge: PENDING_MS / 1000,
  });
}

export function clearPendingCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SECOND_FACTOR_COOKIE, sessionCookieOptions(deps, request));
}

/** Where an account that must still set up two-factor sign-in may go: the set-up itself, signing in
 * and out, and the password and address links. */
const SET_UP_PATHS = /^\/(account\/security|login|logout|password|account\/verify|oauth\/token)(?=[/?]|$)/;

/**
 * A preHandler of every page area under REQUIRE_2FA: a signed-in password account without a second
 * factor is sent to /account/security (and back to the page it asked for once it is set up).
 */
export function twoFactorFirst(deps: Deps) {
  return async function twoFactorFirstPreHandler(request: FastifyRequest, reply: FastifyReply) {
    if (SET_UP_PATHS.test(request.url)) return;
    const user = await currentUser(deps, request);
    if (!user || !(await mustSetUpTwoFactor(deps, user))) return;
    const next = request.method === 'GET' || request.method === 'HEAD' ? request.url : '/';
    return reply.redirect(`/account/security?next=${encodeURIComponent(next)}`, 303);
  };
}
