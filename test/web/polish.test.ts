// Small things a switching user noticed, over HTTP: /favicon.ico answers with the icon; the email
// collector's page has each id once (two message composers on one page); the web link's copy
// field reads naturally; a new reminder starts from the invitation it follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emailCollector } from '../invite/helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const duplicateIds = (page: string) => {
  const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
};

describe('polish', () => {
  it('serves /favicon.ico', async () => {
    const res = await fetch(`${server.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toContain('<svg');
  });

  it('names the web link field naturally', async () => {
    const a = await server.account();
    const s = await server.client.post('/v3/surveys', { title: 'Links' }, { token: a.token });
    await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, { token: a.token });
    const web = await signIn(server, a);
    const page = await web.get(new URL(s.body.collect_url).pathname + new URL(s.body.collect_url).search);
    expect(page.text).toMatch(/<label for="c-\d+-url">Copy the link of Web Link 1<\/label>/);
    expect(page.text).not.toContain('to copy</label>');
  });

  it('keeps ids unique on the email collector page and starts a reminder from the invitation', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { surveyId, collectorId } = await emailCollector(server.client, a.token);
    const sm = new URL(
      (await server.client.get(`/v3/surveys/${surveyId}`, t)).body.collect_url,
    ).searchParams.get('sm')!;
    const c = `/v3/collectors/${collectorId}`;
    const body = 'Dear colleague,\n\nYour ideas, please: [SurveyLink]\n\nNo more: [OptOutLink]\n[FooterLink]';
    const msg = await server.client.post(
      `${c}/messages`,
      { type: 'invite', subject: 'Canteen ideas', body_text: body },
      t,
    );
    expect(msg.status, msg.text).toBe(201);
    await server.client.post(`${c}/messages/${msg.body.id}/recipients`, { email: 'ann@example.org' }, t);
    expect((await server.client.post(`${c}/messages/${msg.body.id}/send`, {}, t)).status).toBe(200);

    const web = await signIn(server, a);
    const page = (await web.get(`/collect/email/${collectorId}?sm=${sm}`)).text;
    expect(page).toContain('id="reminder-subject"'); // both composers are on the page
    expect(page).toContain('id="invite-subject"');
    expect(duplicateIds(page)).toEqual([]);
    expect(page).toContain(
      'id="reminder-subject" name="subject" type="text" maxlength="500" required value="Reminder: Canteen ideas"',
    );
    expect(page).toMatch(
      /<textarea id="reminder-body"[^>]*>Dear colleague,\n\nYour ideas, please: \[SurveyLink\]/,
    );
  });
});
