// The security headers of every answer (pages, API, docs, errors), set in this one place:
// nosniff, no framing, no referrer, a Content-Security-Policy, and HSTS on what is served over
// https (directly, or behind a proxy that says so in X-Forwarded-Proto when TRUST_PROXY is set).
// Framing is refused except by the origins a collector lists (`allowFraming`).
//
// The policy allows scripts and styles from this site only, plus the inline <script> and <style>
// blocks the pages declare with `allowInline` (by their SHA-256, so they cannot be changed or
// added to by injected markup). There is no 'unsafe-inline' and no style attribute anywhere.
// When the operator configures a CAPTCHA, its provider's origins are allowed too (`thirdParty`).
// Not @fastify/helmet: it calls helmet(options) anew on every request (about 30 µs, more than a
// whole GET /v3/users/me costs), and helmet's HSTS ignores the scheme; these headers are fixed
// strings, computed once.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

const inline = { script: new Set<string>(), style: new Set<string>() };

/** Lets the policy run this exact inline script or style block (call once, at module load). */
export function allowInline(kind: 'script' | 'style', text: string): void {
  inline[kind].add(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
}

/** `thirdParty`: the origins of a widget the operator configured (the respondent pages' CAPTCHA),
 * allowed to run scripts, frames, styles and requests; none by default. */
function policy(thirdParty: readonly string[]): string {
  const extra = thirdParty.join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${extra} ${[...inline.script].join(' ')}`.replace(/ +/g, ' ').trim(),
    "script-src-attr 'none'",
    `style-src 'self' ${extra} ${[...inline.style].join(' ')}`.replace(/ +/g, ' ').trim(),
    ...(extra ? [`frame-src 'self' ${extra}`, `connect-src 'self' ${extra}`] : []),
    // Survey and email images may live anywhere.
    "img-src 'self' data: https: http:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    // No form-action: a survey's finish may redirect to the owner's site, and OAuth consent
    // redirects to the app's registered URI, both of which the directive would block.
  ].join('; ');
}

/**
 * Lets the listed origins (and only those) frame this answer: a weblink collector's embed_origins
 * on its respondent pages. X-Frame-Options goes, since it cannot name an origin.
 */
export function allowFraming(reply: FastifyReply, origins: readonly string[]): void {
  if (!origins.length) return;
  const current = String(reply.getHeader('content-security-policy') ?? '');
  reply.header(
    'content-security-policy',
    current.replace(/frame-ancestors [^;]*/, `frame-ancestors ${origins.join(' ')}`),
  );
  reply.removeHeader('x-frame-options');
}

const HSTS = 'max-age=31536000; includeSubDomains';

/** The plugin's name, which every page plugin lists among its dependencies. */
export const SECURITY_HEADERS = 'security-headers';

/** Adds the headers to every answer of the scope that registers it (the root, before any route);
 * a fastify-plugin, so its hook is the root's and not a child scope's. */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: { thirdParty?: readonly string[] }) => {
    const thirdParty = options.thirdParty ?? [];
    let headers: Record<string, string> | undefined;
    let inlineCount = -1;
    app.addHook('onRequest', (request, reply, done) => {
      // Built on first use (every page module has declared its inline blocks by then), rebuilt only
      // if a block is declared later.
      const count = inline.script.size + inline.style.size;
      if (!headers || count !== inlineCount) {
        inlineCount = count;
        headers = {
          'content-security-policy': policy(thirdParty),
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
        };
      }
      reply.headers(headers);
      // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY is set.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      done();
    });
  },
  { name: SECURITY_HEADERS },
);
