// The signed-in sessions of /account/security over HTTP: the list (browser in words, the current
// one marked, no cookie value or hash in the page), signing out one session or all the others,
// a password change ending the others, another account's session id refused as not found, and,
// under `npm run test:scale`, a session ended through one app instance signed out on the next
// request to the other.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type TestAccount, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const as = (account: TestAccount, userAgent: string) => signIn(server, account, { 'user-agent': userAgent });

/** The same browser (its cookies) talking to app instance `i` directly, not through the proxy. */
function onInstance(web: WebSession, i: number): WebSession {
  const instances = server.instances;
  const copy = new WebSession(instances[i % instances.length].url, web.extraHeaders);
  for (const [k, v] of web.cookies) copy.cookies.set(k, v);
  return copy;
}

async function signedIn(web: WebSession): Promise<boolean> {
  const res = await web.get('/account/security');
  if (res.status === 303) {
    expect(res.location).toMatch(/^\/login\?next=/);
    return false;
  }
  expect(res.status).toBe(200);
  return true;
}

/** The rows of the sessions table: device, whether it is marked current, its sign-out action. */
function rows(page: string) {
  return [
    ...page.matchAll(
      /<tr( class="current")?><td data-label="Browser"><strong>([^<]+)<\/strong>[\s\S]*?<\/tr>/g,
    ),
  ].map((m) => ({
    device: m[2],
    current: Boolean(m[1]),
    action: /action="(\/account\/security\/sessions\/[^"]+\/end)"/.exec(m[0])?.[1] ?? null,
  }));
}

describe('signed-in sessions', () => {
  it('lists the sessions with their browsers in words, the current one marked, and nothing secret', async () => {
    const a = await server.account();
    const mac = await as(a, CHROME_MAC);
    const pc = await as(a, FIREFOX_WINDOWS);
    const page = await mac.get('/account/security');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Security</h1>');
    expect(page.text).toContain('href="/account/security" aria-current="page"');
    const list = rows(page.text);
    expect(list.map((r) => [r.device, r.current])).toEqual([
      ['Chrome on macOS', true],
      ['Firefox on Windows', false],
    ]);
    expect(list[0].action).toBeNull();
    expect(list[1].action).not.toBeNull();
    expect(page.text).toContain('Sign out all other sessions');
    for (const web of [mac, pc]) {
      const cookie = web.cookies.get('ss_session')!;
      expect(page.text).not.toContain(cookie);
      expect(page.text).not.toContain(createHash('sha256').update(cookie).digest('hex'));
    }
    // The other browser sees itself as the current one.
    expect(rows((await pc.get('/account/security')).text).map((r) => [r.device, r.current])).toEqual([
      ['Firefox on Windows', true],
      ['Chrome on macOS', false],
    ]);
    // The account page links to it.
    expect((await mac.get('/account')).text).toContain('href="/account/security"');
  });

  it('signs out one session at once, on every app instance, and leaves the others', async () => {
    const a = await server.account();
    const mac = await as(a, CHROME_MAC);
    const pc = await as(a, FIREFOX_WINDOWS);
    const phone = await as(a, SAFARI_IPHONE);
    // Both instances know the session before it ends (under test:scale, two processes).
    expect(await signedIn(onInstance(pc, 0))).toBe(true);
    expect(await signedIn(onInstance(pc, 1))).toBe(true);
    const page = (await onInstance(mac, 0).get('/account/security')).text;
    const end = rows(page).find((r) => r.device === 'Firefox on Windows')!.action!;
    const res = await onInstance(mac, 0).postForm(end, {}, '/account/security');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/account/security?done=session-ended#sessions');
    // The next request of the ended session, on the other instance, is signed out.
    expect(await signedIn(onInstance(pc, 1))).toBe(false);
    expect(await signedIn(onInstance(pc, 0))).toBe(false);
    expect(await signedIn(phone)).toBe(true);
    const after = await mac.get('/account/security?done=session-ended');
    expect(after.text).toContain('The session is signed out.');
    expect(rows(after.text).map((r) => r.device)).toEqual(['Chrome on macOS', 'Safari on iOS']);
    // Ending it again: it is gone.
    expect((await mac.postForm(end, {}, '/account/security')).status).toBe(404);
  });

  it('signs out all the other sessions, on every app instance', async () => {
    const a = await server.account();
    const mac = await as(a, CHROME_MAC);
    const others = [await as(a, FIREFOX_WINDOWS), await as(a, SAFARI_IPHONE)];
    for (const web of others) expect(await signedIn(onInstance(web, 1))).toBe(true);
    const res = await onInstance(mac, 0).postForm(
      '/account/security/sessions/end-others',
      {},
      '/account/security',
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/account/security?done=others-ended&n=2#sessions');
    for (const web of others) expect(await signedIn(onInstance(web, 1))).toBe(false);
    const after = await mac.get('/account/security?done=others-ended&n=2');
    expect(after.text).toContain('2 other sessions are signed out.');
    expect(rows(after.text).map((r) => [r.device, r.current])).toEqual([['Chrome on macOS', true]]);
    expect(after.text).not.toContain('Sign out all other sessions');
    expect(after.text).toContain('No other browser is signed in.');
  });

  it('ends the other sessions when the password changes', async () => {
    const a = await server.account();
    const mac = await as(a, CHROME_MAC);
    const pc = await as(a, FIREFOX_WINDOWS);
    const res = await mac.postForm(
      '/account/password',
      { current: a.password, password: 'a new long password', password2: 'a new long password' },
      '/account',
    );
    expect(res.status).toBe(303);
    expect(await signedIn(onInstance(pc, 1))).toBe(false);
    expect(await signedIn(mac)).toBe(true);
    expect(rows((await mac.get('/account/security')).text).map((r) => r.device)).toEqual(['Chrome on macOS']);
  });

  it("answers not found for another account's session, which stays signed in", async () => {
    const a = await server.account();
    const b = await server.account();
    const mine = await as(a, CHROME_MAC);
    const theirs = await as(b, CHROME_MAC);
    await as(b, FIREFOX_WINDOWS);
    const end = rows((await theirs.get('/account/security')).text).find((r) => !r.current)!.action!;
    const res = await mine.postForm(end, {}, '/account/security');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Not found');
    const list = rows((await theirs.get('/account/security')).text);
    expect(list.map((r) => r.device)).toEqual(['Chrome on macOS', 'Firefox on Windows']);
    // A malformed id is not found either, never a 500.
    expect((await mine.postForm('/account/security/sessions/%00/end', {}, '/account/security')).status).toBe(
      404,
    );
    // Without the form's token nothing happens (the form is refused before it is read).
    expect((await mine.post(end, {})).status).toBe(400);
    expect(await signedIn(theirs)).toBe(true);
  });

  it('sends a signed-out visitor to the sign-in page', async () => {
    const res = await new WebSession(server.url).get('/account/security');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?next=%2Faccount%2Fsecurity');
  });
});
