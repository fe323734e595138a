// One outbox worker's throughput per kind, run by hand (not part of `npm run bench`): queues N
// webhook deliveries and/or N emails on a fresh database, starts one worker loop as `survey-service
// worker` runs it (OutboxWorker.start(), default OUTBOX_POLL_MS and OUTBOX_BATCH), and times until
// everything is delivered to a real HTTP receiver and a real SMTP server on loopback, which run in a
// child process of their own (as they would on other machines) so that they do not share the
// worker's event loop.
//   npx tsx bench/worker-throughput.ts [--n 600] [--only webhooks|emails|mixed]
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/worker-throughput.ts
// Prints one JSON line per scenario: items per second per kind, and the worker's CPU per item.
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

if (process.argv.includes('--sinks')) {
  // The child: an HTTP receiver answering 200 and an SMTP server accepting everything.
  const http = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  process.send?.({
    http: (http.address() as AddressInfo).port,
    smtp: (smtp.server.address() as AddressInfo).port,
  });
} else {
  await main();
}

async function main() {
  const { values: args } = parseArgs({
    options: { n: { type: 'string', default: '600' }, only: { type: 'string' } },
  });
  const N = Number(args.n);
  const [
    { createDeps },
    { loadConfig },
    { migrateToLatest },
    { queueEmail },
    { OutboxWorker },
    { createAccount },
  ] = await Promise.all([
    import('../src/compose.js'),
    import('../src/config.js'),
    import('../src/db/migrate.js'),
    import('../src/db/outbox-queue.js'),
    import('../src/outbox/worker.js'),
    import('../test/helpers/accounts.js'),
  ]);

  const sinks = fork(new URL(import.meta.url).pathname, ['--sinks'], { execArgv: process.execArgv });
  const ports = await new Promise<{ http: number; smtp: number }>((r) => sinks.once('message', r as never));

  const scenarios = (['webhooks', 'emails', 'mixed'] as const).filter((s) => !args.only || s === args.only);
  for (const scenario of scenarios) {
    const database = await freshDatabase();
    const deps = await createDeps(
      loadConfig({
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
        SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
        SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        SCRYPT_LOG_N: '10',
      }),
    );
    await migrateToLatest(deps.db);
    const a = await createAccount(deps, {});
    const now = deps.clock.now().toISOString();
    const retryUntil = new Date(Date.now() + 86_400_000).toISOString();
    const k = deps.db.kysely;
    const hooks = scenario !== 'emails' ? N : 0;
    const mails = scenario !== 'webhooks' ? N : 0;
    if (hooks) {
      const webhookId = await deps.ids.one();
      await k
        .insertInto('webhooks')
        .values({
          id: webhookId,
          owner_id: a.user.id,
          app_id: '',
          name: 'bench',
          event_type: 'response_completed',
          object_type: 'survey',
          object_ids: '[]',
          subscription_url: `http://127.0.0.1:${ports.http}/hook`,
          authorization: null,
          created_at: now,
          updated_at: now,
        } as never)
        .execute();
      const body = JSON.stringify({ name: 'bench', event_type: 'response_completed', object_id: '1' });
      for (let i = 0; i < hooks; i += 200) {
        const ids = await Promise.all(Array.from({ length: Math.min(200, hooks - i) }, () => deps.ids.one()));
        await k
          .insertInto('webhook_deliveries')
          .values(
            ids.map((id) => ({
              id,
              owner_id: a.user.id,
              webhook_id: webhookId,
              event_id: id,
              body,
              status: 'pending',
              attempts: 0,
              next_attempt_at: now,
              retry_until: retryUntil,
              claimed_until: null,
              claim_token: null,
              last_status_code: null,
              last_error: null,
              created_at: now,
              delivered_at: null,
            })),
          )
          .execute();
      }
    }
    for (let i = 0; i < mails; i++) {
      const id = await deps.ids.one();
      await k.transaction().execute((trx) =>
        queueEmail(deps, trx, {
          id,
          ownerId: a.user.id,
          to: `r${i}@example.org`,
          subject: 'We want your opinion',
          text: 'Take the survey: http://localhost/r/abc',
          html: '<p>Take the <a href="http://localhost/r/abc">survey</a></p>',
          purpose: 'invite',
          refId: String(i),
        }),
      );
    }

    const left = async (table: 'webhook_deliveries' | 'emails') =>
      Number(
        (
          await k
            .selectFrom(table as 'emails')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const worker = new OutboxWorker(deps);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const done: Record<string, number> = {};
    worker.start();
    while (Object.keys(done).length < (hooks ? 1 : 0) + (mails ? 1 : 0)) {
      await new Promise((r) => setTimeout(r, 100));
      if (hooks && done.webhooks === undefined && (await left('webhook_deliveries')) === 0)
        done.webhooks = performance.now() - t0;
      if (mails && done.emails === undefined && (await left('emails')) === 0)
        done.emails = performance.now() - t0;
    }
    const cpu = process.cpuUsage(cpu0);
    await worker.stop();
    const out: Record<string, unknown> = { scenario, dialect: deps.db.dialect, n: N };
    if (hooks) out.webhooks_per_s = Math.round((hooks / done.webhooks) * 10_000) / 10;
    if (mails) out.emails_per_s = Math.round((mails / done.emails) * 10_000) / 10;
    out.worker_cpu_ms_per_item = Math.round(((cpu.user + cpu.system) / 1000 / (hooks + mails)) * 100) / 100;
    console.log(JSON.stringify(out));
    await deps.db.close();
    await database.drop();
  }
  sinks.kill();
}

/** A fresh SQLite file, or a new database on BENCH_DATABASE_URL's PostgreSQL server. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin)
    return {
      url: `sqlite:${join(mkdtempSync(join(tmpdir(), 'worker-bench-')), 'db.sqlite')}`,
      drop: async () => {},
    };
  const name = `worker_bench_${process.pid}_${Date.now()}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
