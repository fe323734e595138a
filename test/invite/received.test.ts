// The invitation emails people receive, read as the real SMTP server got them: From the service's
// MAIL_FROM under the owner's name with Reply-To the owner, a text part and an HTML part, the
// merge fields filled in subject and body (escaped in HTML), the required placeholders enforced,
// DKIM-signed when MAIL_DKIM_* is set; and from the pages, "send a test to me" and a send
// scheduled in the owner's time zone.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { decoded, emailCollector } from './helpers.js';

/** The decoded parts of a raw email by content type, and its top headers. */
function parts(raw: string) {
  const cut = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, cut).replace(/\r?\n[ \t]+/g, ' ');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  const bodies = boundary ? raw.slice(cut).split(`--${boundary}`).slice(1, -1) : [];
  const byType = (type: string) => {
    const p = bodies.find((b) => new RegExp(`content-type:\\s*${type}`, 'i').test(b));
    if (!p) return undefined;
    const text = decoded(p.replace(/^\r?\n/, ''));
    return text.slice(text.search(/\n\n/) + 2);
  };
  return { headers, text: byType('text/plain'), html: byType('text/html') };
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) as text. */
function words(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_all, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

const header = (headers: string, name: string) => {
  const v = new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1]?.trim();
  return v === undefined ? undefined : words(v);
};

describe('invitation emails as received', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let worker: OutboxWorker;
  const clock = new TestClock('2026-06-01T12:00:00Z');

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const dir = mkdtempSync(join(tmpdir(), 'dkim-'));
    const keyFile = join(dir, 'dkim.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
    smtp = await new SmtpSink().start();
    server = await startServer({
      clock,
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Surveys <surveys@example.com>',
        MAIL_DKIM_DOMAIN: 'example.com',
        MAIL_DKIM_SELECTOR: 'mail2026',
        MAIL_DKIM_PRIVATE_KEY_FILE: keyFile,
      },
    });
    worker = new OutboxWorker(server.deps);
  });
  afterAll(async () => {
    await worker.stop();
    await server.close();
    await smtp.stop();
  });

  it('merges the fields, sends both parts from the service under the owner name, signed', async () => {
    const a = await server.account({ firstName: 'Olga', lastName: 'Owner' });
    const t = { token: a.token };
    const { collectorId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;

    const missing = await server.client.post(
      `${c}/messages`,
      { type: 'invite', body_text: 'Hi [FirstName]: [SurveyLink] / stop: [OptOutLink]' },
      t,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error.id).toBe('1002');
    expect(missing.body.error.message).toContain('[FooterLink]');

    const msg = await server.client.post(
      `${c}/messages`,
      {
        type: 'invite',
        subject: '[FirstName], your views on [CustomData1]',
        body_text:
          'Dear [FirstName] [LastName] ([Email]),\n\nTell us about [CustomData1] and [CustomData6]: [SurveyLink]\n\nNot for you? [OptOutLink]\n[FooterLink]',
      },
      t,
    );
    expect(msg.status, msg.text).toBe(201);
    const m = `${c}/messages/${msg.body.id}`;
    const ann = `ann.${a.user.id}@example.org`;
    const bulk = await server.client.post(
      `${m}/recipients/bulk`,
      {
        contacts: [
          {
            email: ann,
            first_name: 'Ann <b>',
            last_name: 'Archer & Co',
            custom_fields: { '1': 'the "canteen"', '6': 'parking' },
          },
        ],
      },
      t,
    );
    expect(bulk.status, bulk.text).toBe(200);
    expect((await server.client.post(`${m}/send`, {}, t)).status).toBe(200);
    await worker.drain();

    const got = smtp.messages.filter((x) => x.to.includes(ann));
    expect(got).toHaveLength(1);
    expect(got[0].from).toBe('surveys@example.com'); // the envelope is the service's
    const { headers, text, html } = parts(got[0].raw);
    expect(header(headers, 'From')).toMatch(/^"?Olga Owner via Survey Service"? <surveys@example\.com>$/);
    expect(header(headers, 'Reply-To')).toMatch(/^"?Olga Owner"? <.+@.+>$/);
    expect(header(headers, 'Reply-To')).toContain(`<${a.user.email}>`);
    expect(header(headers, 'Subject')).toBe('Ann <b>, your views on the "canteen"');
    expect(header(headers, 'Content-Type')).toMatch(/^multipart\/alternative/);
    const dkim = header(headers, 'DKIM-Signature');
    expect(dkim).toMatch(/d=example\.com;/);
    expect(dkim).toMatch(/s=mail2026;/);

    expect(text).toContain(`Dear Ann <b> Archer & Co (${ann}),`);
    expect(text).toContain('Tell us about the "canteen" and parking: http');
    expect(text).toMatch(/Not for you\? https?:\/\/\S+\/optout\?sm=/);
    expect(text).toContain('Sent with Survey Service');

    expect(html).toContain('<!doctype html>');
    expect(html).toContain('lang="en"');
    expect(html).toContain(`Dear Ann &lt;b&gt; Archer &amp; Co (${ann}),`);
    expect(html).not.toContain('<b>');
    expect(html).toContain('Tell us about the &quot;canteen&quot; and parking:');
    expect(html).toMatch(
      /<a href="https?:\/\/[^"]+\/r\/[A-Za-z0-9]+\?rcp=[^"]+"[^>]*style="[^"]*background:/,
    );
    expect(html).toMatch(/<a href="https?:\/\/[^"]+\/optout\?sm=[^"]+"/);
  });

  it('sends a test to the owner and schedules in the owner time zone (pages)', async () => {
    const a = await server.account({ firstName: 'Tess', lastName: 'Tester' });
    const t = { token: a.token };
    const { surveyId, collectorId } = await emailCollector(server.client, a.token);
    const survey = await server.client.get(`/v3/surveys/${surveyId}`, t);
    const sm = new URL(survey.body.collect_url).searchParams.get('sm')!;
    const msg = await server.client.post(
      `/v3/collectors/${collectorId}/messages`,
      { type: 'invite', subject: 'Hello [FirstName]' },
      t,
    );
    const page = `/collect/email/${collectorId}/messages/${msg.body.id}`;
    const web = await signIn(server, a);

    const before = smtp.messages.length;
    let _csrf = await web.csrf(`${page}?sm=${sm}`);
    const tested = await web.post(`${page}/test?sm=${sm}`, { _csrf });
    expect(tested.status).toBe(303);
    await worker.drain();
    const test = smtp.messages.slice(before).filter((x) => x.to.includes(a.user.email));
    expect(test).toHaveLength(1);
    expect(header(parts(test[0].raw).headers, 'Subject')).toBe('[Test] Hello Tess');
    const stats = await server.client.get(`/v3/collectors/${collectorId}/messages/${msg.body.id}`, t);
    expect(stats.body.status).toBe('not_sent'); // a test is not a send

    // The owner's time zone: an unknown name is refused, a known one kept.
    _csrf = await web.csrf('/account');
    const bad = await web.post('/account/time-zone', { _csrf, time_zone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('not a known time zone');
    const ok = await web.post('/account/time-zone', { _csrf, time_zone: 'Europe/Paris' });
    expect(ok.status).toBe(303);
    expect((await web.get('/account')).text).toMatch(/<option selected>Europe\/Paris<\/option>/);

    await server.client.post(
      `/v3/collectors/${collectorId}/messages/${msg.body.id}/recipients`,
      { email: `r.${a.user.id}@example.org` },
      t,
    );
    _csrf = await web.csrf(`${page}?sm=${sm}`);
    const form = await web.get(`${page}?sm=${sm}`);
    expect(form.text).toContain('Date and time (Europe/Paris)');
    const sent = await web.post(`${page}/send?sm=${sm}`, {
      _csrf,
      when: 'later',
      scheduled_date: '2026-07-01T09:30',
    });
    expect(sent.status).toBe(303);
    const after = await server.client.get(`/v3/collectors/${collectorId}/messages/${msg.body.id}`, t);
    // 09:30 in Paris in July (CEST, UTC+2) is 07:30 UTC.
    expect(after.body.scheduled_date).toMatch(/^2026-07-01T07:30:00/);
    const shown = await web.get(`${page}?sm=${sm}`);
    expect(shown.text).toContain('2026-07-01 09:30 (Europe/Paris)');
  });

  it("wears the survey's theme: its colour on the button and the frame, its font", async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { surveyId, collectorId } = await emailCollector(server.client, a.token);
    const survey = await server.client.get(`/v3/surveys/${surveyId}`, t);
    const themePage = `/create/theme?sm=${new URL(survey.body.edit_url).searchParams.get('sm')}`;
    const web = await signIn(server, a);
    const form = new FormData();
    const fields = {
      _csrf: await web.csrf(themePage),
      primary_color: '#6a1b9a',
      background_color: '#fdf8ff',
      text_color: '#211a24',
      font: 'serif',
      button_shape: 'pill',
      intent: 'save',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const saved = await fetch(`${server.url}${themePage}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(saved.status).toBe(303);

    const c = `/v3/collectors/${collectorId}`;
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    expect(msg.status, msg.text).toBe(201);
    const to = `themed.${a.user.id}@example.org`;
    await server.client.post(`${c}/messages/${msg.body.id}/recipients`, { email: to }, t);
    expect((await server.client.post(`${c}/messages/${msg.body.id}/send`, {}, t)).status).toBe(200);
    await worker.drain();
    const got = smtp.messages.filter((x) => x.to.includes(to));
    expect(got).toHaveLength(1);
    const { html } = parts(got[0].raw);
    expect(html).toContain('border-top:4px solid #6a1b9a');
    expect(html).toMatch(/<a href="[^"]+\/r\/[^"]+"[^>]*style="[^"]*background:#6a1b9a;color:#ffffff/);
    expect(html).toContain('font-family:Charter, Bitstream Charter, Sitka Text, Cambria, Georgia, serif;');
  });
});
