// No open redirect: every page parameter that names where to go next (`next` of /login, on GET and
// POST, signed in or not) only ever leads to a path on this host, whatever dot segments,
// encodings or slashes it is dressed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfToken, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const HOSTILE = [
  '/.//evil.example/x',
  '/%2e%2e//evil.example/x',
  '/%2E%2E//evil.example/x',
  '/a/..//evil.example/x',
  '/a/%2e%2e//evil.example/x',
  '/././/evil.example/x',
  '/..//evil.example/x',
  '/.%2f/evil.example/x',
  '//evil.example/x',
  '///evil.example/x',
  '/\\evil.example/x',
  '/.\\/evil.example/x',
  '/\t/evil.example/x',
  'https://evil.example/x',
  '/%09/evil.example/x',
  '/%5c/evil.example/x',
];

/** A Location stays on this host: a path that a browser resolves against the page's own origin. */
function expectLocal(location: string | null, next: string) {
  expect(location, next).toBeTruthy();
  expect(location!.startsWith('/'), `${next} -> ${location}`).toBe(true);
  expect(/^\/[/\\]/.test(location!), `${next} -> ${location}`).toBe(false);
  const origin = new URL(server.url).origin;
  expect(new URL(location!, `${origin}/login`).origin, `${next} -> ${location}`).toBe(origin);
}

describe('sign-in next', () => {
  it('a signed-in GET /login?next= redirects only to a path on this host', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    for (const next of HOSTILE) {
      const res = await web.get(`/login?next=${encodeURIComponent(next)}`);
      expect(res.status, next).toBe(303);
      expectLocal(res.location, next);
    }
    // A genuine local next still works, query included.
    const ok = await web.get(`/login?next=${encodeURIComponent('/account/apps?x=1')}`);
    expect(ok.location).toBe('/account/apps?x=1');
  });

  it('the sign-in form carries only a local next, and POST /login redirects only on this host', async () => {
    const a = await server.account();
    for (const next of HOSTILE) {
      const web = new WebSession(server.url);
      const form = await web.get(`/login?next=${encodeURIComponent(next)}`);
      const carried = /name="next" value="([^"]*)"/.exec(form.text)![1].replaceAll('&amp;', '&');
      expectLocal(carried, next);
      const _csrf = csrfToken(form.text);
      const res = await web.post('/login', { _csrf, username: a.user.username, password: a.password, next });
      expect(res.status, next).toBe(303);
      expectLocal(res.location, next);
    }
  });
});
