// Shared steps of the OAuth tests: reading a form's fields, running the authorize step over HTTP
// with a signed-in WebSession, and exchanging a code at /oauth/token.
import type { WebSession } from '../helpers/fixtures.js';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);
}

/** The hidden fields of the first form posting to `action`. */
export function hiddenFields(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[m[1]] = decodeEntities(m[2]);
  return out;
}

export interface AuthorizeOptions {
  clientId: string;
  redirectUri: string;
  state?: string;
  decision?: 'approve' | 'deny';
  /** optional scopes to keep checked (default: all offered) */
  scopes?: string[];
  extra?: Record<string, string>;
}

export function authorizePath(o: AuthorizeOptions): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    ...(o.state !== undefined ? { state: o.state } : {}),
    ...o.extra,
  });
  return `/oauth/authorize?${q}`;
}

/** Opens the consent page and decides; returns the redirect's URL. */
export async function authorize(web: WebSession, o: AuthorizeOptions): Promise<URL> {
  const consent = await web.get(authorizePath(o));
  if (consent.status !== 200)
    throw new Error(`consent page answered ${consent.status}: ${consent.text.slice(0, 500)}`);
  const fields = hiddenFields(consent.text, '/oauth/authorize');
  const offered = [...consent.text.matchAll(/type="checkbox" name="scope" value="([^"]+)"/g)].map(
    (m) => m[1],
  );
  const res = await web.post('/oauth/authorize', {
    ...fields,
    decision: o.decision ?? 'approve',
    scope: o.scopes ?? offered,
  });
  if (res.status !== 302 || !res.location)
    throw new Error(`decision answered ${res.status}: ${res.text.slice(0, 300)}`);
  return new URL(res.location);
}

export async function exchange(
  baseUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(new URL('/oauth/token', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
