// The invitation's rough edges, read as the real SMTP server receives a test send: the survey link
// of a text message is a button named by its lead-in ("Begin Survey:") with the address below as a
// fallback, not the bare address in a coloured block; an owner without a first name is greeted
// "Hi," (never "Hi ,") in the preview; the account page sets the name the preview then uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { decoded, emailCollector } from './helpers.js';

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Surveys <surveys@example.com>' } });
  worker = new OutboxWorker(server.deps);
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await smtp?.stop();
});

describe('invitation greeting and button', () => {
  it('greets without a stray space, takes a name on the account page and sends a real button', async () => {
    const a = await server.account({ firstName: '', lastName: '' });
    await server.deps.db.kysely
      .updateTable('users')
      .set({ first_name: null, last_name: null })
      .where('id', '=', a.user.id)
      .execute();
    const t = { token: a.token };
    const { surveyId, collectorId } = await emailCollector(server.client, a.token);
    const sm = new URL(
      (await server.client.get(`/v3/surveys/${surveyId}`, t)).body.collect_url,
    ).searchParams.get('sm')!;
    const msg = await server.client.post(
      `/v3/collectors/${collectorId}/messages`,
      {
        type: 'invite',
        subject: 'Hello [FirstName]',
        body_text:
          'Hi [FirstName],\n\nWe would like your views.\n\nBegin Survey: [SurveyLink]\n\nNot for you? [OptOutLink]\n[FooterLink]',
      },
      t,
    );
    expect(msg.status, msg.text).toBe(201);
    const page = `/collect/email/${collectorId}/messages/${msg.body.id}?sm=${sm}`;
    const web = await signIn(server, a);

    let preview = (await web.get(page)).text;
    expect(preview).toContain('<pre>Hi,\n\nWe would like your views.');
    expect(preview).not.toMatch(/Hi ,/);
    expect(preview).toMatch(/<dt>Subject<\/dt><dd>Hello<\/dd>/);

    // The account page: a name too long is refused by its form; a good one is saved and used.
    let _csrf = await web.csrf('/account');
    const long = await web.post('/account/name', { _csrf, first_name: 'x'.repeat(101), last_name: '' });
    expect(long.status).toBe(400);
    expect(long.text).toContain('The first name is longer than 100 characters.');
    const saved = await web.post('/account/name', { _csrf, first_name: '  Tess ', last_name: 'Tester' });
    expect(saved.status).toBe(303);
    const account = (await web.get('/account?done=name')).text;
    expect(account).toContain('Your name is saved.');
    expect(account).toMatch(/id="name-first" name="first_name"[^>]* value="Tess"/);
    const me = await server.client.get('/v3/users/me', t);
    expect(me.body).toMatchObject({ first_name: 'Tess', last_name: 'Tester' });
    preview = (await web.get(page)).text;
    expect(preview).toContain('<pre>Hi Tess,\n');

    // A test send: the HTML part has a button named "Begin Survey" and the address as a fallback.
    _csrf = await web.csrf(page);
    const tested = await web.post(`/collect/email/${collectorId}/messages/${msg.body.id}/test?sm=${sm}`, {
      _csrf,
    });
    expect(tested.status).toBe(303);
    await worker.drain();
    const mail = smtp.messages.filter((m) => m.to.includes(a.user.email));
    expect(mail).toHaveLength(1);
    const all = decoded(mail[0].raw).replace(/\r\n/g, '\n');
    const link = /https?:\/\/[^\s"<>]+\/r\/[A-Za-z0-9]+\?[^\s"<>]+/.exec(all)![0];
    const esc = link.replace(/&/g, '&amp;').replace(/[.?*+^$()[\]{}|\\]/g, '\\$&');
    expect(all).toContain('Hi Tess,');
    expect(all).toMatch(new RegExp(`<a href="${esc}" style="display:inline-block[^"]*">Begin Survey</a>`));
    expect(all).toMatch(new RegExp(`copy this address into your browser: <a href="${esc}"[^>]*>${esc}</a>`));
    expect(all).not.toMatch(new RegExp(`style="display:inline-block[^"]*">${esc}</a>`));
    expect(all).toContain(`Begin Survey: ${link}`); // the text part keeps the plain line
  });
});
