// The respondent's session: a random token in an HttpOnly, SameSite=Lax cookie scoped to the
// collector's path; the response row keeps only its SHA-256. Every form carries a CSRF token that
// is an HMAC of the session token, so a cross-site form cannot post into someone's response.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import { randomToken } from '../../platform/secrets.js';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

export function setCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  name: string,
  value: string,
  path: string,
  maxAge: number,
): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const cookie = `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  const prev = reply.getHeader('set-cookie');
  reply.header(
    'set-cookie',
    prev === undefined ? [cookie] : [...(Array.isArray(prev) ? prev : [String(prev)]), cookie],
  );
}

export const newSessionToken = () => randomToken(24);

export function csrfToken(deps: Deps, session: string): string {
  return deps.secrets.sign('respond-csrf', session);
}

export function csrfValid(deps: Deps, session: string | undefined, given: unknown): boolean {
  if (!session || typeof given !== 'string') return false;
  const want = Buffer.from(csrfToken(deps, session));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The value of the cookie that proves a collector's password was given. */
export function passwordProof(deps: Deps, collectorId: string, passwordHash: string): string {
  return deps.secrets.sign('respond-password', `${collectorId}:${passwordHash}`);
}
