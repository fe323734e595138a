// Shared results' expiry in the owner's time zone: the owner enters
// the last day the link works; it stops when that day ends in the zone of the owner's account
// settings, and the owner's page shows the day (and the instant) in that zone. Zones far from UTC
// on both sides, under a test clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { seedOfficeMove } from './fixtures.js';

const clock = new TestClock('2026-03-10T09:00:00Z');
let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let sm: string;
let floor: string;

beforeAll(async () => {
  server = await startServer({ clock });
  owner = await server.account({ plan: 'advantage' });
  const seeded = await seedOfficeMove(server, owner, { questions: ['floor'], responses: 2 });
  floor = seeded.q.floor;
  sm = seeded.analyze.split('/').pop()!;
  web = await signIn(server, owner);
});
afterAll(async () => {
  await server?.close();
});

const sharePage = () => `/analyze/share?sm=${sm}`;

async function setZone(zone: string) {
  const _csrf = await web.csrf('/account');
  expect((await web.post('/account/time-zone', { _csrf, time_zone: zone })).status).toBe(303);
}

async function save(expires: string) {
  const _csrf = await web.csrf(sharePage());
  return web.post(sharePage(), { _csrf, state: 'on', q: [floor], filter: 'none', expires });
}

async function linkPath(): Promise<string> {
  const page = await web.get(sharePage());
  const m = /id="share-link"[^>]*value="([^"]+)"/.exec(page.text);
  expect(m, page.text).not.toBeNull();
  return new URL(m![1]).pathname;
}

const visit = async (path: string) => (await fetch(new URL(path, server.url))).status;

describe('shared results expiry in the owner time zone', () => {
  it('ends at midnight in a zone ahead of UTC (UTC+14), shown in that zone', async () => {
    await setZone('Pacific/Kiritimati');
    // 09:00 UTC is 23:00 on 2026-03-10 in Kiritimati: the day ends at 10:00 UTC.
    expect((await save('2026-03-10')).status).toBe(303);
    const path = await linkPath();
    const page = (await web.get(sharePage())).text;
    expect(page).toContain(
      'through 2026-03-10 (Pacific/Kiritimati time: until <time datetime="2026-03-10T10:00:00.000Z">2026-03-11 00:00</time>)',
    );
    expect(page).toMatch(/id="share-expires"[^>]*value="2026-03-10"/);
    expect(page).toContain('in your time zone, Pacific/Kiritimati');
    clock.set('2026-03-10T09:59:59Z');
    expect(await visit(path)).toBe(200);
    clock.set('2026-03-10T10:00:00Z');
    expect(await visit(path)).toBe(404);
    expect((await web.get(sharePage())).text).toContain('The link has expired');
    // Its day is over there, though not in UTC: refused as past.
    const past = await save('2026-03-10');
    expect(past.status).toBe(400);
    expect(past.text).toContain('The expiry date has passed');
  });

  it('ends at midnight in a zone behind UTC (UTC-11); a change of zone only moves how it is shown', async () => {
    await setZone('Pacific/Pago_Pago');
    clock.set('2026-03-10T10:00:00Z');
    // 10:00 UTC is 23:00 on 2026-03-09 in Pago Pago: that day is still open, and ends at 11:00 UTC.
    expect((await save('2026-03-09')).status).toBe(303);
    const path = await linkPath();
    expect((await web.get(sharePage())).text).toContain(
      'through 2026-03-09 (Pacific/Pago_Pago time: until <time datetime="2026-03-10T11:00:00.000Z">2026-03-10 00:00</time>)',
    );
    // The same instant, seen from Tokyo (UTC+9): 20:00 on 2026-03-10.
    await setZone('Asia/Tokyo');
    expect((await web.get(sharePage())).text).toContain(
      'through 2026-03-10 (Asia/Tokyo time: until <time datetime="2026-03-10T11:00:00.000Z">2026-03-10 20:00</time>)',
    );
    clock.set('2026-03-10T10:59:00Z');
    expect(await visit(path)).toBe(200);
    clock.set('2026-03-10T11:00:00Z');
    expect(await visit(path)).toBe(404);
  });
});
