// Link passwords (a collector's, a shared results page's) guessed from many addresses: past a cap of
// failures on the link, addresses that have failed there wait, while someone with the right password
// from an address that has not failed gets in at once. IPv6 clients are counted by /64. An unlock
// (results page or collector) is refused by the server a day after it was given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, seedSurvey, signIn, singleChoice, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const VIEWS_PER_MINUTE = 20;
/** The 100-address floods make several hundred requests: room for a loaded machine. */
const FLOOD_TIMEOUT = 300_000;
const clock = new TestClock('2026-06-01T12:00:00Z');
let server: TestServer;
let ipCounter = 0;
/** A new IPv4 address each call (the server trusts X-Forwarded-For in this test). */
const nextIp = () => `198.51.${100 + (++ipCounter >> 8)}.${ipCounter & 255}`;

beforeAll(async () => {
  server = await startServer({
    clock,
    env: { TRUST_PROXY: 'true', RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS: String(VIEWS_PER_MINUTE) },
  });
});
afterAll(() => server?.close());

/** `n` rounds of one guess from every guesser at once (100 concurrent requests a round). */
async function rounds(guessers: Array<{ post(password: string): Promise<number> }>, n: number) {
  const statuses: number[] = [];
  for (let r = 0; r < n; r++)
    statuses.push(...(await Promise.all(guessers.map((g, i) => g.post(`round ${r} guess ${i}`)))));
  return statuses;
}

const tally = (statuses: number[]) => {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
};

async function makeSurvey(token: string) {
  const questions = { floor: singleChoice('Which floor?', ['Ground', 'Top']) };
  return (await seedSurvey(server, { token }, { title: 'Guarded', questions })).details;
}

/** A weblink collector with a password, as a link on the test server. */
async function protectedCollector(password: string) {
  const a = await server.account();
  const s = await makeSurvey(a.token);
  const c = await server.client.post(
    `/v3/surveys/${s.id}/collectors`,
    { type: 'weblink', password, allow_multiple_responses: true },
    { token: a.token },
  );
  expect(c.status, c.text).toBe(201);
  return `${server.url}${new URL(c.body.url).pathname}`;
}

/** A collector's password form opened from `ip`; `post` submits it, `open` loads the survey. */
async function collectorVisitor(link: string, ip: string) {
  const page = await fetch(link, { headers: { 'x-forwarded-for': ip } });
  let cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = csrfToken(await page.text(), 'csrf');
  return {
    async post(password: string) {
      const res = await fetch(`${link}/password`, {
        method: 'POST',
        headers: { 'x-forwarded-for': ip, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, password }).toString(),
        redirect: 'manual',
      });
      const unlock = res.headers.getSetCookie().map((c) => c.split(';')[0]);
      if (unlock.length) cookie = [cookie, ...unlock].join('; ');
      await res.text();
      return res.status;
    },
    async open() {
      const res = await fetch(link, { headers: { 'x-forwarded-for': ip, cookie } });
      return res.text();
    },
  };
}

/** A shared results page with a password, on a paid owner's survey; returns its path. */
async function protectedResults(password: string) {
  const owner = await server.account({ plan: 'advantage' });
  const s = await makeSurvey(owner.token);
  const sm = new URL(s.analyze_url).pathname.split('/').pop()!;
  const web = await signIn(server, owner, { 'x-forwarded-for': nextIp() });
  const path = `/analyze/share?sm=${sm}`;
  const _csrf = await web.csrf(path);
  const saved = await web.post(path, {
    _csrf,
    state: 'on',
    q: [s.pages[0].questions[0].id],
    filter: 'none',
    password,
  });
  expect(saved.status, saved.text).toBe(303);
  const m = /id="share-link"[^>]*value="([^"]+)"/.exec((await web.get(path)).text);
  return new URL(m![1]).pathname;
}

/** A visitor of a results page from `ip`: its password form read; `post` submits it. */
async function resultsVisitor(path: string, ip: string) {
  const web = new WebSession(server.url, { 'x-forwarded-for': ip });
  const page = await web.get(path);
  expect(page.status, page.text).toBe(200);
  const _csrf = csrfToken(page.text);
  return {
    web,
    post: async (password: string) => (await web.post(`${path}/unlock`, { _csrf, password })).status,
  };
}

describe('collector passwords guessed from many addresses', () => {
  it(
    '100 addresses: after the cap, every address that has failed waits; the right password from a fresh one gets in',
    async () => {
      const link = await protectedCollector('open sesame');
      const guessers = await Promise.all(Array.from({ length: 100 }, () => collectorVisitor(link, nextIp())));
      // One guess from each address at once: each is checked (an address that has not failed keeps its try).
      const first = await Promise.all(guessers.map((g, i) => g.post(`guess ${i}`)));
      expect(tally(first)).toEqual({ 403: 100 });
      // 100 failures on the link, over the cap: five more rounds from all of them are all refused.
      const flood = await rounds(guessers, 5);
      expect(tally(flood)).toEqual({ 429: 500 });
      // A respondent from an address that has not failed is not held.
      const respondent = await collectorVisitor(link, nextIp());
      expect(await respondent.post('open sesame')).toBe(303);
      expect(await respondent.open()).toContain('Which floor?');
      // A guessing address is held even with the right password, until the window ends.
      expect(await guessers[0].post('open sesame')).toBe(429);
      clock.advance(61 * 60_000);
      expect(await guessers[0].post('open sesame')).toBe(303);
    },
    FLOOD_TIMEOUT,
  );

  it('below the cap an address that mistyped once gets in with the right password', async () => {
    const link = await protectedCollector('open sesame');
    const visitor = await collectorVisitor(link, nextIp());
    expect(await visitor.post('open sesme')).toBe(403);
    expect(await visitor.post('open sesame')).toBe(303);
  });

  it('two IPv6 addresses in one /64 share a bucket; another /64 does not', async () => {
    const link = await protectedCollector('open sesame');
    const a = await collectorVisitor(link, '2001:db8:1:2::1');
    const b = await collectorVisitor(link, '2001:db8:1:2:ffff:ffff:ffff:fffe');
    const c = await collectorVisitor(link, '2001:db8:1:3::1');
    // Five guesses are free per address (the slowdown starts after them) ...
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => a.post(`guess ${n}`)))).toEqual(Array(5).fill(403));
    // ... and the /64's neighbour has none left; an address of another /64 still has its own.
    expect(await b.post('open sesame')).toBe(429);
    expect(await c.post('guess 6')).toBe(403);
    clock.advance(61 * 60_000);
  });
});

describe('shared results passwords guessed from many addresses', () => {
  it(
    '100 addresses: after the cap, every address that has failed waits; the right password from a fresh one gets in',
    async () => {
      clock.advance(60_000);
      const path = await protectedResults('right horse');
      const guessers = await Promise.all(Array.from({ length: 100 }, () => resultsVisitor(path, nextIp())));
      const first = await Promise.all(guessers.map((g, i) => g.post(`guess ${i}`)));
      expect(tally(first)).toEqual({ 403: 100 });
      const flood = await rounds(guessers, 5);
      expect(tally(flood)).toEqual({ 429: 500 });
      const visitor = await resultsVisitor(path, nextIp());
      expect(await visitor.post('right horse')).toBe(303);
      expect((await visitor.web.get(path)).text).toContain('Which floor?');
      expect(await guessers[1].post('right horse')).toBe(429);
      clock.advance(61 * 60_000);
    },
    FLOOD_TIMEOUT,
  );

  it('two IPv6 addresses in one /64 share the per-address view allowance', async () => {
    clock.advance(60_000);
    const path = await protectedResults('right horse');
    const view = async (ip: string) =>
      (await fetch(new URL(path, server.url), { headers: { 'x-forwarded-for': ip } })).status;
    const first = await Promise.all(Array.from({ length: VIEWS_PER_MINUTE }, () => view('2001:db8:9:9::a')));
    expect(tally(first)).toEqual({ 200: VIEWS_PER_MINUTE });
    expect(await view('2001:db8:9:9:1234::b')).toBe(429);
    expect(await view('2001:db8:9:a::a')).toBe(200);
  });
});

describe('unlocks expire on the server', () => {
  it("a results page's unlock is refused a day after it was given", async () => {
    clock.advance(60_000);
    const path = await protectedResults('right horse');
    const visitor = await resultsVisitor(path, nextIp());
    expect(await visitor.post('right horse')).toBe(303);
    expect((await visitor.web.get(path)).text).toContain('Which floor?');
    clock.advance(23 * 60 * 60_000);
    expect((await visitor.web.get(path)).text).toContain('Which floor?');
    // The browser still sends the cookie (a client need not honour Max-Age): the server refuses it.
    clock.advance(60 * 60_000 + 1000);
    const later = await visitor.web.get(path);
    expect(later.text).toContain('protected by a password');
    expect(later.text).not.toContain('Which floor?');
  });

  it("a collector's unlock is refused a day after it was given", async () => {
    const link = await protectedCollector('open sesame');
    const visitor = await collectorVisitor(link, nextIp());
    expect(await visitor.post('open sesame')).toBe(303);
    expect(await visitor.open()).toContain('Which floor?');
    clock.advance(24 * 60 * 60_000 + 1000);
    const later = await visitor.open();
    expect(later).toContain('protected by a password');
    expect(later).not.toContain('Which floor?');
  });
});
