// Password throttles hold under concurrency: N concurrent attempts never check more passwords than
// the same attempts one at a time would (sign-in and collector passwords); a collector's guessers
// are throttled, not its other respondents; respondents cannot flood a collector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptUrl } from '../../src/domain/teams/invitations.js';
import { addMember } from '../../src/domain/teams/teams.js';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, openEnded, seedSurvey } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam } from '../teams/fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  server = await startServer({
    clock,
    env: {
      TRUST_PROXY: 'true',
      RESPONSES_PER_MINUTE_PER_ADDRESS: '5',
      RESPONSES_PER_MINUTE_PER_COLLECTOR: '8',
    },
  });
});
afterAll(() => server.close());

/** A sign-in form opened from `ip`; `post` submits it (concurrently, as often as asked). */
async function loginForm(ip: string) {
  const page = await fetch(`${server.url}/login`, { headers: { 'x-forwarded-for': ip } });
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = csrfToken(await page.text());
  return async (username: string, password: string) => {
    const res = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, username, password }).toString(),
      redirect: 'manual',
    });
    await res.text();
    return res.status;
  };
}

const tally = (statuses: number[]) => {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
};

async function failedEvents(username: string) {
  const rows = await server.deps.db.kysely
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'authentication_failed')
    .execute();
  return rows.filter((r) => JSON.parse(r.data).username === username).length;
}

describe('sign-in throttling under concurrency', () => {
  it('50 concurrent wrong passwords for one account check exactly 3 (the slowdown point)', async () => {
    const a = await server.account();
    const post = await loginForm(nextIp());
    const statuses = await Promise.all(Array.from({ length: 50 }, () => post(a.user.username, 'wrong')));
    expect(tally(statuses)).toEqual({ 401: 3, 429: 47 });
    expect(await failedEvents(a.user.username)).toBe(3);
  });

  it('50 concurrent attempts from one address on 50 accounts check exactly 10', async () => {
    const post = await loginForm(nextIp());
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`nobody${i}x`, 'wrong')));
    expect(tally(statuses)).toEqual({ 401: 10, 429: 40 });
  });

  it('at the lock point, one of 20 concurrent attempts is checked and no sign-in gets past the lock', async () => {
    const a = await server.account();
    for (let i = 1; i <= 9; i++) {
      expect(await (await loginForm(nextIp()))(a.user.username, 'wrong'), `failure ${i}`).toBe(401);
      clock.advance(61_000);
    }
    // the 10th attempt is the last one allowed: it locks the account whatever its password
    const post = await loginForm(nextIp());
    const statuses = await Promise.all(Array.from({ length: 20 }, () => post(a.user.username, 'wrong')));
    expect(tally(statuses)).toEqual({ 401: 1, 429: 19 });
    const locked = await Promise.all(
      Array.from({ length: 10 }, async () => (await loginForm(nextIp()))(a.user.username, a.password)),
    );
    expect(tally(locked)).toEqual({ 429: 10 });
    clock.advance(15 * 60_000);
  });
});

/** A weblink collector (with a password if given), on a one-question survey. */
async function protectedCollector(password?: string) {
  const a = await server.account();
  const s = await seedSurvey(server, a, {
    title: 'Protected',
    questions: { why: openEnded('Why?') },
    collector: { type: 'weblink', ...(password && { password }), allow_multiple_responses: true },
  });
  return `${server.url}${new URL(s.collector.url).pathname}`;
}

/** The password form of a protected collector opened from `ip`; `post` submits it. */
async function passwordForm(link: string, ip: string) {
  const page = await fetch(link, { headers: { 'x-forwarded-for': ip } });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = csrfToken(await page.text(), 'csrf');
  return async (password: string) => {
    const res = await fetch(`${link}/password`, {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, password }).toString(),
      redirect: 'manual',
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };
}

describe('team invitation password throttling', () => {
  it('20 concurrent wrong passwords on the accept page check exactly 3, then the right one waits', async () => {
    const t = await makeTeam(server, {}, 'Throttled');
    const guest = await server.account();
    const inv = await addMember(
      server.deps,
      t.team.id,
      { username: guest.user.username, type: 'regular', pending: true },
      { userId: t.owner.user.id },
    );
    const url = new URL(acceptUrl(server.deps, inv, 'us'));
    const token = url.searchParams.get('token')!;
    const ip = nextIp();
    const post = async (password: string) => {
      const res = await fetch(`${server.url}${url.pathname}`, {
        method: 'POST',
        headers: { 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, password }).toString(),
      });
      await res.text();
      return res.status;
    };
    const statuses = await Promise.all(Array.from({ length: 20 }, () => post('wrong')));
    expect(tally(statuses)).toEqual({ 401: 3, 429: 17 });
    expect(await failedEvents(guest.user.username)).toBe(3);
    // The slowdown holds for the right password too, until its wait is over.
    expect(await post(guest.password)).toBe(429);
    clock.advance(5 * 60_000);
    expect(await post(guest.password)).toBe(200);
  });
});

describe('collector password throttling', () => {
  it('50 concurrent guesses from one address check exactly 5; others still get in', async () => {
    const link = await protectedCollector('open sesame');
    const post = await passwordForm(link, nextIp());
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`guess ${i}`)));
    expect(tally(results.map((r) => r.status))).toEqual({ 403: 5, 429: 45 });
    const refused = results.find((r) => r.status === 429)!;
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.text).toContain('Please wait');
    // even the right password waits at this address
    expect((await post('open sesame')).status).toBe(429);
    // another respondent is not locked out
    expect((await (await passwordForm(link, nextIp()))('open sesame')).status).toBe(303);
  });

  it('a guess flood from ten addresses throttles the guessers, not respondents elsewhere', async () => {
    const link = await protectedCollector('open sesame');
    const guessers = await Promise.all(Array.from({ length: 10 }, () => passwordForm(link, nextIp())));
    const results = await Promise.all(
      guessers.flatMap((post, g) => Array.from({ length: 8 }, (_, i) => post(`guess ${g}.${i}`))),
    );
    // each address has its own five checks: 50 wrong passwords in all
    expect(tally(results.map((r) => r.status))).toEqual({ 403: 50, 429: 30 });
    // a respondent from another address gets in at once with the right password ...
    expect((await (await passwordForm(link, nextIp()))('open sesame')).status).toBe(303);
    // ... while every guessing address still waits, the right password included
    const again = await Promise.all(guessers.map((post) => post('open sesame')));
    expect(again.map((r) => r.status)).toEqual(Array(10).fill(429));
  });

  it('locks an address after 20 wrong passwords, one at a time', async () => {
    const link = await protectedCollector('open sesame');
    const post = await passwordForm(link, nextIp());
    for (let i = 1; i <= 20; i++) {
      expect((await post(`guess ${i}`)).status, `guess ${i}`).toBe(403);
      clock.advance(61_000);
    }
    const locked = await post('open sesame');
    expect(locked.status).toBe(429);
    // locked for 15 minutes from the 20th guess (a minute ago)
    expect(Number(locked.retryAfter)).toBe(15 * 60 - 61);
    clock.advance(15 * 60_000);
  });
});

/** A respondent from `ip` who opened the survey at `link`; `submit` answers its one page. */
async function respondent(link: string, ip: string) {
  const page = await fetch(link, { headers: { 'x-forwarded-for': ip } });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const text = await page.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(text)?.[1] ?? '';
  const question = /name="(q_[0-9]+)"/.exec(text)![1];
  return async () => {
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: field('csrf'),
        p: field('p'),
        nav: 'next',
        [question]: 'hi',
      }).toString(),
      redirect: 'manual',
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };
}

describe('respondents cannot flood a collector', () => {
  it('one address gets its per-minute allowance, the collector its total; the rest a try-again page', async () => {
    const link = await protectedCollector();
    const token = new URL(link).pathname.split('/').pop()!;
    const stored = async () => {
      const c = await server.deps.db.kysely
        .selectFrom('collectors')
        .select('response_count')
        .where('url_token', '=', token)
        .executeTakeFirstOrThrow();
      return Number(c.response_count);
    };
    const a = nextIp();
    const flood = await Promise.all(Array.from({ length: 30 }, () => respondent(link, a)));
    const results = await Promise.all(flood.map((submit) => submit()));
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 5, 429: 25 });
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.text).toContain('class="try-again"');
    expect(refused.text).toContain('Please wait');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(await stored()).toBe(5);

    // other addresses share what is left of the collector's 8 a minute
    const others = await Promise.all(Array.from({ length: 6 }, () => respondent(link, nextIp())));
    const second = await Promise.all(others.map((submit) => submit()));
    expect(tally(second.map((r) => r.status))).toEqual({ 200: 3, 429: 3 });
    expect(await stored()).toBe(8);

    // the next minute, the first address may answer again
    clock.advance(60_000);
    expect((await (await respondent(link, a))()).status).toBe(200);
    expect(await stored()).toBe(9);
  });
});

describe('with the default settings', () => {
  it('a collector takes every respondent it gets: no cap per collector, only the one per address', async () => {
    // A launch mails the link to thousands at once: the collector is not capped in total by
    // default (RESPONSES_PER_MINUTE_PER_COLLECTOR=0); each address keeps its 60 pages a minute.
    const plain = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
    try {
      const s = await seedSurvey(plain, await plain.account(), {
        title: 'Launch',
        questions: { why: openEnded('Why?') },
        collector: { type: 'weblink' },
      });
      const link = `${plain.url}${new URL(s.collector.url).pathname}`;
      const crowd = await Promise.all(Array.from({ length: 3 }, () => respondent(link, nextIp())));
      const results = await Promise.all(crowd.map((submit) => submit()));
      expect(tally(results.map((r) => r.status))).toEqual({ 200: 3 });
      // only per-address windows were counted: no collector-wide counter row exists
      const keys = (
        await plain.deps.db.kysely
          .selectFrom('window_counters')
          .select('key')
          .where('key', 'like', 'respond:%')
          .execute()
      ).map((r) => r.key);
      expect(keys).toHaveLength(3);
      expect(keys.every((k) => k.includes(':ip:'))).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
