// What retention and erasure leave on disk and in the events table: `worker --once` prunes events
// past RETAIN_EVENTS_DAYS once the webhook fan-out has read them, and removes the .eml files of the
// emails it prunes; `erase --email` removes the .eml files of the emails it erases.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueEmail } from '../../src/db/outbox-queue.js';
import { pruneOnce } from '../../src/outbox/retention.js';
import { runCliAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let mailDir: string;
beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'ss-mail-'));
  server = await startServer({ env: { MAIL_DIR: mailDir } });
});
afterAll(async () => {
  await server.close();
});

const OLD = '2001-01-01T00:00:00.000Z';
const env = () => ({ DATABASE_URL: server.config.databaseUrl, MAIL_DIR: mailDir, SMTP_URL: '' });

/** A verb with --json, run without blocking this process (a long spawnSync starves vitest's RPC). */
async function cli(args: string[], extra: Record<string, string> = {}) {
  const r = await runCliAsync([...args, '--json'], { ...env(), ...extra });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function event(id: string, type: string, createdAt: string) {
  await server.deps.db.kysely
    .insertInto('events')
    .values({ id, type, owner_id: null, data: '{}', created_at: createdAt })
    .execute();
}

async function eventIds(prefix: string) {
  const rows = await server.deps.db.kysely
    .selectFrom('events')
    .select('id')
    .where('id', 'like', `${prefix}%`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

it('worker --once prunes old events the fan-out has read and keeps recent ones', async () => {
  const now = new Date().toISOString();
  await event('810000001', 'survey_created', OLD);
  await event('810000002', 'contact_created', OLD); // no consumer reads this type
  await event('810000003', 'survey_created', now);
  const done = await cli(['worker', '--once'], { RETAIN_EVENTS_DAYS: '30' });
  expect(done.pruned.events).toBe(2);
  expect(await eventIds('81000000')).toEqual(['810000003']);
}, 180_000);

it('an old event the webhook fan-out has not reached yet is kept', async () => {
  const k = server.deps.db.kysely;
  // The fan-out's watermark stands before the event: it has not been read.
  const mark = { key: 'outbox:fanout_since', value: '2000-06-01T00:00:00.000Z' };
  await k
    .insertInto('settings')
    .values(mark)
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: mark.value }))
    .execute();
  await event('820000001', 'response_completed', OLD);
  await event('820000002', 'contact_created', OLD);
  const days = { ...server.deps.config.retention, events: 30 };
  const pruned = await pruneOnce({ ...server.deps, config: { ...server.deps.config, retention: days } });
  expect(pruned.events).toBe(1);
  expect(await eventIds('82000000')).toEqual(['820000001']);
});

async function email(id: string, to: string) {
  await server.deps.db.kysely.transaction().execute(async (trx) => {
    await queueEmail(server.deps, trx, { id, ownerId: null, to, subject: 's', text: 't' });
  });
}

it('retention removes the .eml files of the emails it prunes', async () => {
  await email('830000001', 'old@example.org');
  await email('830000002', 'new@example.org');
  await cli(['worker', '--once']); // sends both into MAIL_DIR
  expect(readdirSync(mailDir)).toEqual(expect.arrayContaining(['830000001.eml', '830000002.eml']));
  await server.deps.db.kysely
    .updateTable('emails')
    .set({ created_at: OLD })
    .where('id', '=', '830000001')
    .execute();
  const done = await cli(['worker', '--once'], { RETAIN_EMAILS_DAYS: '30' });
  expect(done.pruned.emails).toBe(1);
  expect(existsSync(join(mailDir, '830000001.eml'))).toBe(false);
  expect(existsSync(join(mailDir, '830000002.eml'))).toBe(true);
}, 180_000);

it('erase --email removes the .eml files of the emails to the address', async () => {
  await email('840000001', 'Erase Me <erase.me@example.org>');
  await email('840000002', 'keep.me@example.org');
  await cli(['worker', '--once']);
  expect(readdirSync(mailDir)).toEqual(expect.arrayContaining(['840000001.eml', '840000002.eml']));
  const report = await cli(['erase', '--email', 'erase.me@example.org']);
  expect(report.emails).toBe(1);
  expect(existsSync(join(mailDir, '840000001.eml'))).toBe(false);
  expect(existsSync(join(mailDir, '840000002.eml'))).toBe(true);
}, 180_000);
