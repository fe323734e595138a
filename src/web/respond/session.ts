// The respondent's session: a random token in an HttpOnly, SameSite=Lax cookie scoped to the
// collector's path (parsed and set by @fastify/cookie, which the respond pages register); the
// response row keeps only its SHA-256. Every form carries a CSRF token that is an HMAC of the
// session token, so a cross-site form cannot post into someone's response.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import { isSecure } from '../session.js';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[name];
}

/**
 * Sets a respondent cookie: HttpOnly, SameSite=Lax, Secure by the same rule as every cookie. For a
 * collector other sites may frame (`embeddable`), over https: SameSite=None and Partitioned
 * (CHIPS), so the session and its CSRF work inside the frame, kept apart per embedding site.
 */
export function setCookie(
  deps: Deps,
  reply: FastifyReply,
  name: string,
  value: string,
  path: string,
  maxAge: number,
  embeddable = false,
): void {
  const secure = isSecure(deps, reply.request);
  const framed = embeddable && secure;
  reply.setCookie(name, value, {
    path,
    maxAge,
    httpOnly: true,
    sameSite: framed ? 'none' : 'lax',
    secure,
    ...(framed ? { partitioned: true } : {}),
  });
}

/** A new session: 122 random bits from the entropy Node keeps for UUIDs (a call of its own to the
 * system's generator per new visitor cost 3% of the page). */
export const newSessionToken = () => randomUUID().replaceAll('-', '');

export function csrfToken(deps: Deps, session: string): string {
  return deps.secrets.sign('respond-csrf', session);
}

export function csrfValid(deps: Deps, session: string | undefined, given: unknown): boolean {
  if (!session || typeof given !== 'string') return false;
  const want = Buffer.from(csrfToken(deps, session));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** How long a respondent's password (given once) holds. */
export const PASSWORD_PROOF_MS = 24 * 60 * 60_000;

/** The value of the cookie that proves a collector's password was given now (for PASSWORD_PROOF_MS). */
export function passwordProof(deps: Deps, collectorId: string, passwordHash: string): string {
  return deps.secrets.signAt(
    'respond-password',
    `${collectorId}:${passwordHash}`,
    deps.clock.now().getTime(),
  );
}

/** Whether `proof` shows the collector's password (as it is now) was given within PASSWORD_PROOF_MS. */
export function passwordProven(
  deps: Deps,
  collectorId: string,
  passwordHash: string,
  proof: unknown,
): boolean {
  const now = deps.clock.now().getTime();
  return deps.secrets.verifyAt(
    'respond-password',
    `${collectorId}:${passwordHash}`,
    proof,
    now,
    PASSWORD_PROOF_MS,
  );
}
