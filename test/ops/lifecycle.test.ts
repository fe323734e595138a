// Data lifecycle: `worker --once` prunes rows past their retention (and keeps recent and pending
// ones), as the running worker does on its own every RETENTION_INTERVAL_SECONDS; a permanent SMTP
// refusal marks the address's contact bounced; `erase` removes one address's data and refuses
// anything but one address.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueEmail } from '../../src/db/outbox-queue.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { runCliAsync, runCliJson } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

const OLD = '2001-01-01T00:00:00.000Z';

async function email(
  id: string,
  status: string,
  createdAt: string,
  ownerId: string | null,
  to = 'a@example.org',
) {
  await server.deps.db.kysely.transaction().execute(async (trx) => {
    await queueEmail(server.deps, trx, { id, ownerId, to, subject: 's', text: 't' });
    await trx.updateTable('emails').set({ status, created_at: createdAt }).where('id', '=', id).execute();
  });
}

it('worker --once prunes old finished emails, sign-in failures and expired sessions, and keeps the rest', async () => {
  const k = server.deps.db.kysely;
  const { user } = await server.account();
  const now = new Date().toISOString();
  await email('800000001', 'sent', OLD, null);
  await email('800000002', 'failed', OLD, null);
  await email('800000003', 'sent', now, null); // recent
  await email('800000004', 'pending', OLD, null); // never pruned while pending
  await k
    .insertInto('sign_in_failures')
    .values([
      { key: 'old', failures: 3, first_failure_at: OLD, last_failure_at: OLD, locked_until: null },
      { key: 'new', failures: 1, first_failure_at: now, last_failure_at: now, locked_until: null },
    ])
    .execute();
  await k
    .insertInto('sessions')
    .values([
      { session_hash: 'expired', user_id: user.id, created_at: OLD, expires_at: OLD, ip: null },
      {
        session_hash: 'live',
        user_id: user.id,
        created_at: now,
        expires_at: '2999-01-01T00:00:00.000Z',
        ip: null,
      },
    ])
    .execute();
  await k
    .updateTable('emails')
    .set({ next_attempt_at: '2999-01-01T00:00:00.000Z' })
    .where('id', '=', '800000004')
    .execute();

  const done = runCliJson(['worker', '--once'], {
    DATABASE_URL: server.config.databaseUrl,
    SMTP_URL: smtp.url,
    RETAIN_EMAILS_DAYS: '30',
  });
  expect(done.pruned).toMatchObject({ emails: 2, sign_in_failures: 1, sessions: 1, deliveries: 0 });
  const ids = (await k.selectFrom('emails').select('id').orderBy('id').execute()).map((r) => r.id);
  expect(ids).toEqual(['800000003', '800000004']);
  expect((await k.selectFrom('sign_in_failures').select('key').execute()).map((r) => r.key)).toEqual(['new']);
  expect(
    (await k.selectFrom('sessions').select('session_hash').execute()).map((r) => r.session_hash),
  ).toEqual(['live']);
});

it('the running worker prunes as a scheduled job, once every RETENTION_INTERVAL_SECONDS', async () => {
  const clock = new TestClock('2026-06-01T12:00:00Z');
  const hourly = await startServer({ clock, env: { RETENTION_INTERVAL_SECONDS: '3600' } });
  const k = hourly.deps.db.kysely;
  const failure = (key: string) =>
    k
      .insertInto('sign_in_failures')
      .values({ key, failures: 3, first_failure_at: OLD, last_failure_at: OLD, locked_until: null })
      .execute();
  const keys = async () => (await k.selectFrom('sign_in_failures').select('key').execute()).map((r) => r.key);
  const worker = new OutboxWorker(hourly.deps, { pollMs: 5 });
  try {
    await failure('before-start');
    worker.start();
    // Due at once when the worker starts.
    await expect.poll(keys, { timeout: 20_000 }).toEqual([]);
    await failure('a-minute-later');
    clock.advance(61_000);
    await sleep(500); // rounds go on, the job is not due yet
    expect(await keys()).toEqual(['a-minute-later']);
    clock.advance(3600_000);
    await expect.poll(keys, { timeout: 20_000 }).toEqual([]);
  } finally {
    await worker.stop();
    await hourly.close();
  }
});

it('a permanent SMTP refusal marks the contact bounced', async () => {
  const { token, user } = await server.account({ plan: 'premier' });
  const contact = await server.client.post(
    '/v3/contacts',
    { email: 'Gone@Example.org', first_name: 'Gone' },
    { token },
  );
  expect(contact.status, contact.text).toBe(201);
  smtp.refuse.add('gone@example.org');
  await email('800000010', 'pending', new Date().toISOString(), user.id, '"Gone Person" <gone@example.org>');
  const worker = new OutboxWorker(server.deps);
  await worker.drain();
  await worker.stop();
  const after = await server.client.get(`/v3/contacts/${contact.body.id}`, { token });
  expect(after.body.status).toBe('bounced');
});

it('erase --email --owner removes the contact and the responses given under the address, keeping counts', async () => {
  const { token, user } = await server.account({ plan: 'premier' });
  const t = { token };
  const contact = await server.client.post('/v3/contacts', { email: 'erase.me@example.org' }, t);
  expect(contact.status).toBe(201);
  const survey = await server.client.post('/v3/surveys', { title: 'Erase' }, t);
  const collector = await server.client.post(
    `/v3/surveys/${survey.body.id}/collectors`,
    { type: 'weblink' },
    t,
  );
  // A response through an email invitation carries the recipient's address; set it directly here.
  const post = async (address: string) => {
    const r = await server.client.post(`/v3/collectors/${collector.body.id}/responses`, {}, t);
    expect(r.status).toBe(201);
    await server.deps.db.kysely
      .updateTable('responses')
      .set({ email_address: address })
      .where('id', '=', r.body.id)
      .execute();
    return r;
  };
  const mine = await post('Erase.Me@example.org');
  const other = await post('keep@example.org');

  const report = runCliJson(['erase', '--email', 'erase.me@example.org', '--owner', user.username], {
    DATABASE_URL: server.config.databaseUrl,
  });
  expect(report).toMatchObject({
    email: 'erase.me@example.org',
    contacts: 1,
    recipients: 0,
    responses: 1,
    surveys: 1,
    emails: 0,
  });
  expect((await server.client.get(`/v3/contacts/${contact.body.id}`, t)).status).toBe(404);
  expect((await server.client.get(`/v3/surveys/${survey.body.id}/responses/${mine.body.id}`, t)).status).toBe(
    404,
  );
  expect(
    (await server.client.get(`/v3/surveys/${survey.body.id}/responses/${other.body.id}`, t)).status,
  ).toBe(200);
  expect((await server.client.get(`/v3/surveys/${survey.body.id}`, t)).body.response_count).toBe(1);
});

it('erase refuses an empty, blank or malformed address and erases nothing: anonymous responses never match', async () => {
  const owners = [await server.account(), await server.account()];
  const anonymous = [];
  for (const { token } of owners) {
    const survey = await server.client.post('/v3/surveys', { title: 'Anonymous' }, { token });
    const collector = await server.client.post(
      `/v3/surveys/${survey.body.id}/collectors`,
      { type: 'weblink' },
      { token },
    );
    const r = await server.client.post(`/v3/collectors/${collector.body.id}/responses`, {}, { token });
    expect(r.status).toBe(201);
    expect(r.body.email_address).toBe('');
    anonymous.push({ token, path: `/v3/surveys/${survey.body.id}/responses/${r.body.id}` });
  }
  const env = { DATABASE_URL: server.config.databaseUrl };
  const cases = [
    ['--email', ''],
    ['--email', '   ', '--owner', owners[0].user.username],
    ['--email', 'a b@example'],
  ];
  const results = await Promise.all(cases.map((args) => runCliAsync(['erase', ...args, '--json'], env)));
  for (const [i, r] of results.entries()) {
    expect(r.status, cases[i].join(' ')).toBe(1);
    expect(r.stderr).toContain('is not an email address');
    expect(r.stdout).toBe('');
  }
  for (const { token, path } of anonymous)
    expect((await server.client.get(path, { token })).status).toBe(200);
}, 180_000);

it('erase removes emails addressed to "Name <address>" when the address has an underscore', async () => {
  const { user } = await server.account();
  await email('800000101', 'sent', new Date().toISOString(), user.id, 'Erase Me <erase_me@example.org>');
  await email('800000102', 'sent', new Date().toISOString(), user.id, 'Keep <erasexme@example.org>');
  const report = runCliJson(['erase', '--email', 'erase_me@example.org', '--owner', user.username], {
    DATABASE_URL: server.config.databaseUrl,
  });
  expect(report.emails).toBe(1);
  const left = await server.deps.db.kysely
    .selectFrom('emails')
    .select('id')
    .where('owner_id', '=', user.id)
    .execute();
  expect(left.map((e) => e.id)).toEqual(['800000102']);
});
