// Device cookies: guessing an account's password from elsewhere locks it for unknown browsers, but
// a browser that has signed in to that account before (its device cookie) still gets in with the
// right password. A device cookie is counted on its own, and one that fails as often as the lock
// allows is refused from then on. A device cookie of another account, or a forged one, does not help.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DEVICE = 'ss_device';
const clock = new TestClock('2026-06-01T12:00:00Z');
let server: TestServer;
let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter}`;

beforeAll(async () => {
  server = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
});
afterAll(() => server?.close());

const tally = (statuses: number[]) => {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
};

/** A browser at a new address, carrying `device` as its device cookie if given. */
function browser(device?: string, ip = nextIp()): WebSession {
  const web = new WebSession(server.url, { 'x-forwarded-for': ip });
  if (device) web.cookies.set(DEVICE, device);
  return web;
}

/** Signs in from a fresh browser and returns the device cookie it was given. */
async function deviceOf(username: string, password: string, device?: string): Promise<string> {
  const web = browser(device);
  expect((await web.signIn(username, password)).status).toBe(303);
  const cookie = web.cookies.get(DEVICE);
  expect(cookie).toBeTruthy();
  return cookie!;
}

/** Locks `username` for unknown browsers: ten wrong passwords spread over three addresses, each
 * after the slowdown's wait, as the outside guesser did. */
async function lock(username: string) {
  const guessers = [browser(), browser(), browser()];
  for (let i = 0; i < 10; i++) {
    expect((await guessers[i % 3].signIn(username, `guess ${i}`)).status, `guess ${i}`).toBe(401);
    clock.advance(61_000);
  }
  // Locked now: six more at once from the three addresses are all refused.
  const more = await Promise.all(guessers.flatMap((g) => [g.signIn(username, 'x'), g.signIn(username, 'y')]));
  expect(tally(more.map((r) => r.status))).toEqual({ 429: 6 });
}

describe('device cookies', () => {
  it('a username locked from 3 addresses still lets its owner in from a known browser, and no one else', async () => {
    const a = await server.account();
    const b = await server.account();
    const ownerDevice = await deviceOf(a.user.username, a.password);
    const otherDevice = await deviceOf(b.user.username, b.password);
    await lock(a.user.username);
    // A browser without a device cookie is locked out, right password and all.
    const unknown = await browser().signIn(a.user.username, a.password);
    expect(unknown.status).toBe(429);
    expect(unknown.text).toContain('locked');
    // The owner's browser gets in, from any address.
    const owner = browser(ownerDevice);
    const signedIn = await owner.signIn(a.user.username, a.password);
    expect(signedIn.status).toBe(303);
    expect((await owner.get('/account')).status).toBe(200);
    // The sign-in page of the OAuth consent flow is the same page: the owner returns to the consent.
    const next =
      '/oauth/authorize?response_type=code&client_id=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb';
    const consent = browser(ownerDevice);
    const _csrf = await consent.csrf(`/login?next=${encodeURIComponent(next)}`);
    const back = await consent.post('/login', {
      _csrf,
      username: a.user.username,
      password: a.password,
      next,
    });
    expect(back.status).toBe(303);
    expect(back.location).toBe(next);
    // Another account's device cookie does not help, nor does a forged one.
    expect((await browser(otherDevice).signIn(a.user.username, a.password)).status).toBe(429);
    const [id, , issued, mac] = ownerDevice.split('.');
    const forged = `${id}.${'A'.repeat(24)}.${issued}.${mac}`;
    expect((await browser(forged).signIn(a.user.username, a.password)).status).toBe(429);
    // A browser that signed in to both accounts: the owner's token is found among them.
    expect((await browser(`${otherDevice}~${ownerDevice}`).signIn(a.user.username, a.password)).status).toBe(
      303,
    );
    clock.advance(20 * 60_000);
  });

  it("a device cookie's guesses are its own: 20 at once check exactly 3, and the account stays open", async () => {
    const a = await server.account();
    const device = await deviceOf(a.user.username, a.password);
    const guesser = browser(device);
    const _csrf = await guesser.csrf('/login');
    const statuses = await Promise.all(
      Array.from(
        { length: 20 },
        async (_, i) =>
          (await guesser.post('/login', { _csrf, username: a.user.username, password: `g${i}` })).status,
      ),
    );
    expect(tally(statuses)).toEqual({ 401: 3, 429: 17 });
    // Those failures were the device's: an unknown browser with the right password is not slowed.
    expect((await browser().signIn(a.user.username, a.password)).status).toBe(303);
    clock.advance(20 * 60_000);
  });

  it('a device cookie that keeps failing is refused, and its browser is held by the lock like any other', async () => {
    const a = await server.account();
    const device = await deviceOf(a.user.username, a.password);
    const spare = await deviceOf(a.user.username, a.password);
    for (let i = 0; i < 10; i++) {
      expect((await browser(device).signIn(a.user.username, `guess ${i}`)).status, `guess ${i}`).toBe(401);
      clock.advance(61_000);
    }
    // The account was not counted: an unknown browser signs in.
    expect((await browser().signIn(a.user.username, a.password)).status).toBe(303);
    await lock(a.user.username);
    // The worn-out device cookie no longer lets its browser past the lock; a good one still does.
    expect((await browser(device).signIn(a.user.username, a.password)).status).toBe(429);
    expect((await browser(spare).signIn(a.user.username, a.password)).status).toBe(303);
    clock.advance(20 * 60_000);
  });
});
