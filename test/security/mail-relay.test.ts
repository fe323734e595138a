// The default install is not an open mail relay: with open sign-up and every feature, a new
// account may mail 100 recipients a day (2,000 after its first week), a send past the cap is
// refused whole with the quota error and nothing of it reaches the outbox, the operators are
// emailed once per account a day, and the cap holds under concurrent sends. Invitations leave as
// "<owner> via Survey Service" (never an address or a domain in the display name) with
// List-Unsubscribe and the operator's abuse contact; the operator raises one account's cap on
// /operator/accounts or with `user update --send-limit`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import { createUser, setOperator } from '../../src/domain/accounts/users.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { runCliJsonAsync } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded, emailCollector } from '../invite/helpers.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

// The 3,000-recipient steps write thousands of rows; on a busy machine's PostgreSQL that is minutes.
const SLOW = 300_000;

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;
let operator: TestAccount;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({
    clock,
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Surveys <surveys@example.com>',
      ABUSE_CONTACT: 'abuse@example.com',
    },
  });
  worker = new OutboxWorker(server.deps);
  operator = await server.account({ firstName: 'Olive', lastName: 'Operator' });
  await setOperator(server.deps, operator.user.id, true);
});
afterAll(async () => {
  await worker.stop();
  await server.close();
  await smtp.stop();
});

/** An invite message of a new email collector of `a`, addressed to `n` recipients. */
async function invitation(a: TestAccount, n: number, tag: string) {
  const t = { token: a.token };
  const { collectorId } = await emailCollector(server.client, a.token);
  const c = `/v3/collectors/${collectorId}`;
  const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
  expect(msg.status, msg.text).toBe(201);
  const m = `${c}/messages/${msg.body.id}`;
  const contacts = Array.from({ length: n }, (_, i) => ({ email: `${tag}${i}.${a.user.id}@example.net` }));
  const bulk = await server.client.post(`${m}/recipients/bulk`, { contacts }, t);
  expect(bulk.status, bulk.text).toBe(200);
  expect(bulk.body.succeeded).toHaveLength(n);
  return { m, messageId: msg.body.id as string, send: () => server.client.post(`${m}/send`, {}, t) };
}

const counted = async (ownerId: string) =>
  Number(
    (
      await server.deps.db.kysely
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const alertsAbout = (userId: string) =>
  server.deps.db.kysely
    .selectFrom('emails')
    .selectAll()
    .where('purpose', '=', 'send_cap_alert')
    .where('ref_id', '=', userId)
    .execute();

/** The top headers of a raw email, folded lines joined. */
const headersOf = (raw: string) => raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(headersOf(raw))?.[1]?.trim();

describe('a new account from open sign-up', () => {
  let spammer: TestAccount;
  let big: Awaited<ReturnType<typeof invitation>>;

  it(
    'cannot mail 3,000 addresses: the send is refused whole and nothing is queued',
    async () => {
      // what open sign-up gives a stranger: every feature, a name of their choosing, their own
      // (confirmed) mailbox
      const user = await createUser(server.deps, {
        username: 'security@paypal.com',
        email: 'mallory@example.org',
        password: 'correct horse battery',
        plan: server.config.defaultPlan,
        region: 'us',
        firstName: 'security@paypal.com',
        lastName: 'PayPal.com',
      });
      const app = await createApp(server.deps, user, {
        name: 'Mail',
        redirectUris: ['http://localhost:9/cb'],
      });
      spammer = { user, app: app.app, token: app.accessToken, clientSecret: app.clientSecret, password: '' };
      big = await invitation(spammer, 3000, 'victim');
      const refused = await big.send();
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error).toMatchObject({
        id: '1017',
        name: 'Permission Error',
        http_status_code: 403,
      });
      expect(refused.body.error.message).toContain('daily send cap of 100 recipients');
      expect(await counted(spammer.user.id)).toBe(0);
      const msg = await server.client.get(big.m, { token: spammer.token });
      expect(msg.body.status).toBe('not_sent');
    },
    SLOW,
  );

  it(
    'tells the operators once a day (through the outbox, marked automatic) and counts each refusal',
    async () => {
      expect((await big.send()).status).toBe(403); // a second refusal the same day
      const alerts = await alertsAbout(spammer.user.id);
      expect(alerts.map((e) => e.to_address)).toEqual([operator.user.email]);
      // counted per process: summed over the instances (two under scale-out)
      let refused = 0;
      for (const { deps } of server.instances)
        refused += (await deps.metrics.registry.getSingleMetric('survey_mail_sends_refused_total')!.get())
          .values[0].value;
      expect(refused).toBe(2);
      await worker.drain();
      const got = smtp.messages.filter((m) => m.to.includes(operator.user.email));
      expect(got).toHaveLength(1);
      expect(header(got[0].raw, 'Subject')).toBe('Send cap reached by account security@paypal.com');
      expect(header(got[0].raw, 'Auto-Submitted')).toBe('auto-generated');
      expect(decoded(got[0].raw)).toContain('/operator/accounts?q=security%40paypal.com');
    },
    SLOW,
  );

  it(
    'mails up to its cap, as "... via Survey Service" with List-Unsubscribe and the abuse contact',
    async () => {
      const within = await invitation(spammer, 100, 'ok');
      const sent = await within.send();
      expect(sent.status, sent.text).toBe(200);
      expect(await counted(spammer.user.id)).toBe(100);
      const one = await invitation(spammer, 1, 'over');
      expect((await one.send()).status).toBe(403);
      expect(await counted(spammer.user.id)).toBe(100);

      const before = smtp.messages.length;
      await worker.drain();
      const got = smtp.messages.slice(before).filter((m) => m.to[0]?.startsWith('ok'));
      expect(got).toHaveLength(100);
      const raw = got[0].raw;
      // username and names all look like addresses or domains: nothing of them is left
      expect(header(raw, 'From')).toBe('Survey Service <surveys@example.com>');
      expect(header(raw, 'List-Unsubscribe')).toMatch(
        /^<mailto:abuse@example\.com\?subject=unsubscribe>, <http:\/\/localhost\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+>$/,
      );
      expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(header(raw, 'Auto-Submitted')).toBeUndefined();
      expect(decoded(raw)).toContain('Report abuse: abuse@example.com');
    },
    SLOW,
  );

  it('sends as "<name> via Survey Service", with any address or domain taken out of the name', async () => {
    const ana = await server.account({ firstName: 'Ana', lastName: 'Lima' });
    const posing = await server.account({ firstName: 'Billing paypal.com', lastName: '<it@paypal.com>' });
    for (const [a, want] of [
      [ana, 'Ana Lima via Survey Service'],
      [posing, 'Billing via Survey Service'],
    ] as const) {
      expect((await (await invitation(a, 1, 'name')).send()).status).toBe(200);
      const before = smtp.messages.length;
      await worker.drain();
      const got = smtp.messages.slice(before).filter((m) => m.to[0]?.endsWith(`.${a.user.id}@example.net`));
      expect(got).toHaveLength(1);
      const from = header(got[0].raw, 'From')!;
      expect(from.replace(/"/g, '')).toBe(`${want} <surveys@example.com>`);
      expect(from.replace(/<[^>]*>$/, '')).not.toMatch(/@|\.com/);
    }
  });

  it(
    'is raised by the operator on /operator/accounts, and the 3,000-recipient run then goes out',
    async () => {
      const web = await signIn(server, operator);
      const list = `/operator/accounts?q=${encodeURIComponent(spammer.user.username)}`;
      const _csrf = await web.csrf(list);
      const form = { _csrf, plan: 'enterprise', state: 'active', operator: 'no', q: spammer.user.username };
      const wrong = await web.post(`/operator/accounts/${spammer.user.id}`, { ...form, send_limit: 'lots' });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toMatch(/role="alert">[^<]*not a daily send cap/);
      const saved = await web.post(`/operator/accounts/${spammer.user.id}`, { ...form, send_limit: '3100' });
      expect(saved.status, saved.text).toBe(303);
      expect(new URL(saved.location ?? '', server.url).searchParams.get('done')).toBe('daily send cap 3100');
      expect((await web.get(list)).text).toContain(
        'name="send_limit" inputmode="numeric" pattern="[0-9]*" placeholder="default" value="3100"',
      );

      const sent = await big.send();
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.recipients).toHaveLength(3000);
      expect(await counted(spammer.user.id)).toBe(3100);
      const more = await invitation(spammer, 1, 'after');
      expect((await more.send()).status).toBe(403); // 3,100 is the operator's cap, exactly
    },
    SLOW,
  );

  it(
    'is set by `user update --send-limit`, and cleared back to the defaults',
    async () => {
      const a = await server.account();
      const env = { DATABASE_URL: server.config.databaseUrl };
      const set = await runCliJsonAsync(
        ['user', 'update', '--username', a.user.username, '--send-limit', '0'],
        env,
      );
      expect(set.send_limit).toBe(0);
      expect((await (await invitation(a, 150, 'cli')).send()).status).toBe(200); // 0: no cap
      const back = await runCliJsonAsync(
        ['user', 'update', '--username', a.user.username, '--send-limit', 'default'],
        env,
      );
      expect(back.send_limit).toBeNull();
      expect((await (await invitation(a, 1, 'cli2')).send()).status).toBe(403);
    },
    SLOW,
  );

  it('gets the higher cap after its first week', async () => {
    const a = await server.account();
    const run = await invitation(a, 150, 'week');
    expect((await run.send()).status).toBe(403); // 100 a day in the first week
    clock.advance(8 * 86_400_000);
    try {
      expect((await run.send()).status).toBe(200); // 2,000 a day after it
    } finally {
      clock.advance(-8 * 86_400_000);
    }
  });
});

describe('the cap under concurrency', () => {
  it(
    'lets exactly the sends that fit through when they race',
    async () => {
      const a = await server.account();
      const runs = await Promise.all(Array.from({ length: 5 }, (_, i) => invitation(a, 30, `race${i}x`)));
      const answers = await Promise.all(runs.map((r) => r.send()));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403]);
      expect(await counted(a.user.id)).toBe(90);
      // and the 10 left fit, the 11th does not
      expect((await (await invitation(a, 10, 'fill')).send()).status).toBe(200);
      expect((await (await invitation(a, 1, 'full')).send()).status).toBe(403);
      expect(await counted(a.user.id)).toBe(100);
    },
    SLOW,
  );
});
