// Email from the outbox: real SMTP (smtp-server) and the local .eml outbox with its page.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/context.js';
import { type NewEmail, queueEmail } from '../../src/db/outbox-queue.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from './helpers/smtp.js';

async function queue(deps: Deps, email: Omit<NewEmail, 'id'>): Promise<string> {
  const id = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await queueEmail(deps, trx, { id, ...email });
  });
  return id;
}

async function row(deps: Deps, id: string) {
  return deps.db.kysely.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function attempts(deps: Deps, id: string) {
  return deps.db.kysely
    .selectFrom('email_attempts')
    .selectAll()
    .where('email_id', '=', id)
    .orderBy('attempt')
    .execute();
}

describe('over SMTP (SMTP_URL set)', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let worker: OutboxWorker;
  const clock = new TestClock('2026-06-01T12:00:00Z');

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    server = await startServer({
      clock,
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Surveys <surveys@example.com>',
        OUTBOX_RETRY_BASE_SECONDS: '60',
      },
    });
    worker = new OutboxWorker(server.deps);
  });
  afterAll(async () => {
    await worker.stop();
    await server.close();
    await smtp.stop();
  });

  it('sends a queued email to the SMTP server', async () => {
    const a = await server.account();
    const id = await queue(server.deps, {
      ownerId: a.user.id,
      to: 'ann@example.org',
      subject: 'We want your opinion',
      text: 'Take the survey: http://localhost/r/abc',
      html: '<p>Take the <a href="http://localhost/r/abc">survey</a></p>',
      purpose: 'invite',
      refId: '123',
    });
    const before = smtp.messages.length;
    expect((await worker.drain()).emails).toBe(1);
    const got = smtp.messages.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].from).toBe('surveys@example.com');
    expect(got[0].to).toEqual(['ann@example.org']);
    expect(got[0].raw).toMatch(/^Subject: We want your opinion$/m);
    expect(got[0].raw).toContain('http://localhost/r/abc');
    expect(got[0].raw).toMatch(new RegExp(`^X-Survey-Service-Mail-Id: ${id}\\r?$`, 'im'));
    const r = await row(server.deps, id);
    expect(r).toMatchObject({
      status: 'sent',
      attempts: 1,
      purpose: 'invite',
      ref_id: '123',
      last_error: null,
    });
    expect(r.transport_id).toMatch(/@/);
    expect((await attempts(server.deps, id)).map((x) => x.outcome)).toEqual(['sent']);
    // Nothing is sent twice.
    expect((await worker.drain()).emails).toBe(0);
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('retries with backoff while the SMTP server is down and sends once it is back', async () => {
    const port = smtp.port;
    await smtp.stop();
    const id = await queue(server.deps, {
      ownerId: null,
      to: 'bob@example.org',
      subject: 'Later',
      text: 'hello',
    });
    await worker.drain();
    let r = await row(server.deps, id);
    expect(r).toMatchObject({ status: 'pending', attempts: 1 });
    expect(r.last_error).toMatch(/ECONNREFUSED/);
    expect(new Date(r.next_attempt_at).getTime() - clock.now().getTime()).toBe(60_000);
    clock.advance(60_000);
    await worker.drain();
    r = await row(server.deps, id);
    expect(r.attempts).toBe(2);
    expect(new Date(r.next_attempt_at).getTime() - clock.now().getTime()).toBe(120_000);

    await smtp.start(port);
    clock.advance(119_000);
    expect((await worker.drain()).emails).toBe(0); // not due yet
    clock.advance(1_000);
    await worker.drain();
    r = await row(server.deps, id);
    expect(r.status).toBe('sent');
    expect((await attempts(server.deps, id)).map((x) => x.outcome)).toEqual(['retry', 'retry', 'sent']);
    expect(smtp.messages.filter((m) => m.to.includes('bob@example.org'))).toHaveLength(1);
  });

  it('gives up at once on a permanent refusal (550)', async () => {
    smtp.refuse.add('gone@example.org');
    const id = await queue(server.deps, { ownerId: null, to: 'gone@example.org', subject: 'x', text: 'x' });
    await worker.drain();
    const r = await row(server.deps, id);
    expect(r.status).toBe('failed');
    expect(r.last_error).toMatch(/550|Mailbox unavailable/);
    expect(await attempts(server.deps, id)).toHaveLength(1);
  });

  it('holds a scheduled email until its time', async () => {
    const id = await queue(server.deps, {
      ownerId: null,
      to: 'cy@example.org',
      subject: 'Scheduled',
      text: 'x',
      notBefore: new Date(clock.now().getTime() + 3_600_000),
    });
    await worker.drain();
    expect((await row(server.deps, id)).status).toBe('pending');
    clock.advance(3_600_000);
    await worker.drain();
    expect((await row(server.deps, id)).status).toBe('sent');
  });
});

describe('the local .eml outbox (no SMTP_URL) and its page', () => {
  let server: TestServer;
  let dir: string;
  let worker: OutboxWorker;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ss-mail-'));
    server = await startServer({ env: { MAIL_DIR: dir } });
    worker = new OutboxWorker(server.deps);
  });
  afterAll(async () => {
    await worker.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes each email as an .eml file named by its id', async () => {
    const id = await queue(server.deps, {
      ownerId: null,
      to: 'dee@example.org',
      subject: 'Grüße & <hello>',
      text: 'Plain body',
      html: '<p>HTML <b>body</b></p><script>alert(1)</script>',
    });
    await worker.drain();
    const file = join(dir, `${id}.eml`);
    expect(existsSync(file)).toBe(true);
    const raw = readFileSync(file, 'utf8');
    expect(raw).toMatch(/^To: dee@example.org$/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(raw).toContain('Plain body');
    expect(await row(server.deps, id)).toMatchObject({ status: 'sent', transport_id: `${id}.eml` });
  });

  it('shows the outbox to local callers only, escaping what it shows', async () => {
    const id = await queue(server.deps, {
      ownerId: null,
      to: 'eve@example.org',
      subject: '<img src=x onerror=alert(1)>',
      text: 'Text with <tags>',
      html: '<p>hi</p>',
    });
    await worker.drain();
    const list = await server.client.get('/outbox/mail');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toMatch(/text\/html/);
    expect(list.text).toContain('eve@example.org');
    expect(list.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(list.text).not.toContain('<img src=x');
    expect(list.text).toContain(`href="/outbox/mail/${id}"`);

    const one = await server.client.get(`/outbox/mail/${id}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain('Text with &lt;tags&gt;');
    expect(one.text).toContain('sandbox=""');
    expect(one.text).toContain('srcdoc="&lt;p&gt;hi&lt;/p&gt;"');
    const raw = await server.client.get(`/outbox/mail/${id}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('message/rfc822');
    expect(raw.text).toContain('eve@example.org');

    for (const path of ['/outbox/mail', `/outbox/mail/${id}`, `/outbox/mail/${id}/raw`]) {
      const proxied = await server.client.get(path, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.status, path).toBe(404);
      expect(proxied.text).not.toContain('eve@example.org');
    }
    expect((await server.client.get('/outbox/mail/999999999')).status).toBe(404);
    expect((await server.client.get('/outbox/mail/..%2F..%2Fetc%2Fpasswd/raw')).status).toBe(404);
  });
});
