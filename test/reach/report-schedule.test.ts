// The scheduled summary's settings over HTTP: the API extension (/v3/surveys/{id}/report_schedule)
// and the page's form (/analyze/<token>/schedule) set the same schedule; wrong input is 400/1002
// naming the field; another account's survey is 404; the page works without script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { seedSurvey, signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const clock = new TestClock('2026-03-18T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(async () => {
  await server?.close();
});

describe('scheduled summary settings', () => {
  it('sets, reads and stops a schedule through the API', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const s = await seedSurvey(server, a, { kind: 'simple' });
    const url = `/v3/surveys/${s.id}/report_schedule`;
    expect((await server.client.get(url, t)).status).toBe(404);
    const put = await server.client.put(
      url,
      { frequency: 'weekly', weekday: 1, hour: 9, time_zone: 'Europe/Berlin' },
      t,
    );
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      frequency: 'weekly',
      weekday: 1,
      day_of_month: null,
      hour: 9,
      time_zone: 'Europe/Berlin',
      next_send_at: '2026-03-23T08:00:00+00:00',
      last_sent_at: null,
    });
    expect((await server.client.get(url, t)).body.next_send_at).toBe('2026-03-23T08:00:00+00:00');
    for (const [body, field] of [
      [{ frequency: 'daily', hour: 9, time_zone: 'UTC' }, 'frequency'],
      [{ frequency: 'weekly', hour: 9, time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ frequency: 'monthly', hour: 9, time_zone: 'UTC' }, 'day_of_month'],
      [{ frequency: 'weekly', weekday: 1, hour: 24, time_zone: 'UTC' }, 'hour'],
    ] as const) {
      const bad = await server.client.put(url, body, t);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.id).toBe('1002');
      expect(JSON.stringify(bad.body)).toContain(field);
    }
    const other = await server.account();
    expect((await server.client.get(url, { token: other.token })).status).toBe(404);
    expect((await server.client.delete(url, t)).status).toBe(204);
    expect((await server.client.get(url, t)).status).toBe(404);
  });

  it('sets a monthly schedule through the page form, without script', async () => {
    const a = await server.account();
    const s = await seedSurvey(server, a, { kind: 'simple' });
    const web = await signIn(server, a);
    const analyze = new URL(s.survey.analyze_url ?? s.details.analyze_url).pathname;
    expect((await web.get(analyze)).text).toContain(`href="${analyze}/schedule"`);
    const page = `${analyze}/schedule`;
    const _csrf = await web.csrf(page);
    const base = { _csrf, weekday: '1', day_of_month: '31', hour: '8', time_zone: 'America/New_York' };
    const bad = await web.post(page, { ...base, frequency: 'monthly', time_zone: 'Nowhere' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('time_zone: an IANA time zone name');
    expect((await web.post(page, { ...base, frequency: 'monthly' })).status).toBe(303);
    const shown = await web.get(`${page}?done=1`);
    expect(shown.text).toContain('The summary is saved.');
    expect(shown.text).toContain('Next summary: <strong>2026-03-31 08:00</strong> (America/New_York)');
    expect(shown.text).toMatch(/id="summary-monthly" name="frequency" value="monthly" checked/);
    const api = await server.client.get(`/v3/surveys/${s.id}/report_schedule`, { token: a.token });
    expect(api.body).toMatchObject({ frequency: 'monthly', day_of_month: 31, hour: 8 });
    expect((await web.post(page, { ...base, frequency: 'off' })).status).toBe(303);
    expect((await server.client.get(`/v3/surveys/${s.id}/report_schedule`, { token: a.token })).status).toBe(
      404,
    );
  });
});
