// Accounts: the last-operator rule counts only active operators (by the
// operator pages, the command line and under concurrent requests); usernames and addresses are
// compared by one normalised key on both databases (a look-alike of a taken name is the taken
// name; the migration reports existing clashes); the operator search matches % and _ as
// themselves; embed_origins refuses port 0.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, migrationStatus } from '../../src/db/migrate.js';
import { down as undo0058 } from '../../src/db/migrations/0058_name_keys.js';
import { createUser, setOperator } from '../../src/domain/accounts/users.js';
import { runCliAsync } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/database.js';
import { csrfToken, openEnded, seedSurvey, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ipCounter = 0;
let n = 0;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
});
afterAll(() => server.close());

/** A browser-like session from its own client address (no test meets another's throttle). */
const visitor = (url = server.url) =>
  new WebSession(url, { 'x-forwarded-for': `203.0.113.${++ipCounter % 250}` });

const active = async (s: TestServer) =>
  (
    await s.deps.db.kysely
      .selectFrom('operators as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .select('u.id')
      .where('u.status', '=', 'active')
      .execute()
  ).length;

/** Two operators on a server of their own, each signed in to the operator pages. */
async function operatorPair(s: TestServer) {
  const pair = [];
  for (const _ of [0, 1]) {
    const op = await s.account();
    await setOperator(s.deps, op.user.id, true);
    const web = visitor(s.url);
    expect((await web.signIn(op.user.username, op.password)).status).toBe(303);
    pair.push({ op, web, csrf: await web.csrf('/operator/accounts') });
  }
  return pair;
}

type Operator = Awaited<ReturnType<typeof operatorPair>>[number];
const change = (from: Operator, to: Operator, body: Record<string, string>) =>
  from.web.post(`/operator/accounts/${to.op.user.id}`, {
    _csrf: from.csrf,
    plan: 'premier',
    state: 'active',
    operator: 'yes',
    ...body,
  });

describe('item 1: the last active operator', () => {
  it('an operator who suspended the other cannot then drop their own flag', async () => {
    const s = await startServer();
    try {
      const [a, b] = await operatorPair(s);
      expect((await change(a, b, { state: 'soft_deleted' })).status).toBe(303);
      const drop = await change(a, a, { operator: 'no' });
      expect(drop.status).toBe(400);
      expect(drop.text.match(/role="alert">[^<]*/)?.[0]).toContain(
        'is the last active operator: make another account an operator first.',
      );
      expect(await active(s)).toBe(1);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('of two operators suspending and demoting each other at once, one stays active', async () => {
    const s = await startServer();
    try {
      for (let round = 0; round < 3; round++) {
        const [a, b] = await operatorPair(s);
        // Only these two are active operators in this round.
        for (const other of await s.deps.db.kysely.selectFrom('operators').select('user_id').execute())
          if (other.user_id !== a.op.user.id && other.user_id !== b.op.user.id)
            await s.deps.db.kysely.deleteFrom('operators').where('user_id', '=', other.user_id).execute();
        const results = await Promise.all([
          change(a, b, { state: 'soft_deleted' }),
          change(b, a, { operator: 'no' }),
        ]);
        expect(results.map((r) => r.status)).toContain(303);
        expect(await active(s), `round ${round}`).toBe(1);
      }
    } finally {
      await s.close();
    }
  }, 120_000);

  it('the command line refuses to suspend or unflag the last active operator', async () => {
    const s = await startServer();
    try {
      const [a, b] = await operatorPair(s);
      expect((await change(a, b, { state: 'soft_deleted' })).status).toBe(303);
      const env = { DATABASE_URL: s.config.databaseUrl };
      const unflag = await runCliAsync(
        ['user', 'update', '--username', a.op.user.username, '--no-operator'],
        env,
      );
      expect(unflag.status).not.toBe(0);
      expect(unflag.stderr).toContain('is the last active operator');
      const suspend = await runCliAsync(
        ['user', 'update', '--username', a.op.user.username, '--state', 'soft_deleted'],
        env,
      );
      expect(suspend.status).not.toBe(0);
      expect(suspend.stderr).toContain('is the last active operator');
      expect(await active(s)).toBe(1);
      // With the other back, either may go.
      const back = await runCliAsync(
        ['user', 'update', '--username', b.op.user.username, '--state', 'active'],
        env,
      );
      expect(back.status, back.stderr).toBe(0);
      const now = await runCliAsync(
        ['user', 'update', '--username', a.op.user.username, '--no-operator'],
        env,
      );
      expect(now.status, now.stderr).toBe(0);
      expect(await active(s)).toBe(1);
    } finally {
      await s.close();
    }
  }, 120_000);
});

// Look-alikes of a username `kiss<tag>` and its address: the Kelvin sign, fullwidth letters,
// capital I with a dot, dotless i, sharp s, and plain upper case.
const lookalikes = (name: string) => [
  name.replace('k', '\u212A'),
  name.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41)),
  name.replace('i', '\u0130'),
  name.replace('i', '\u0131'),
  name.replace('ss', '\u00df'),
  name.toUpperCase(),
];

describe('item 2: one comparison key for usernames and addresses', () => {
  async function taken() {
    n += 1;
    const username = `kiss${process.pid}x${n}`;
    return server.account({ username });
  }

  it('user create refuses each look-alike of a taken username and address as taken', async () => {
    const victim = await taken();
    const env = { DATABASE_URL: server.config.databaseUrl };
    for (const [i, variant] of lookalikes(victim.user.username).slice(0, 3).entries()) {
      const byName = await runCliAsync(
        [
          'user',
          'create',
          '--username',
          variant,
          '--email',
          `other${i}${variant}@example.net`,
          '--password',
          'long enough',
        ],
        env,
      );
      expect(byName.status, variant).not.toBe(0);
      expect(byName.stderr, variant).toContain('is taken');
    }
    for (const [i, variant] of lookalikes(victim.user.email.split('@')[0]).slice(2, 5).entries()) {
      const address = `${variant}@example.com`;
      const byAddress = await runCliAsync(
        [
          'user',
          'create',
          '--username',
          `fresh${process.pid}y${n}z${i}`,
          '--email',
          address,
          '--password',
          'long enough',
        ],
        env,
      );
      expect(byAddress.status, address).not.toBe(0);
      expect(byAddress.stderr, address).toContain('is already used by an account');
    }
  }, 120_000);

  it('sign-up refuses each look-alike username as taken, creates nothing for a look-alike address and tells its owner', async () => {
    const victim = await taken();
    for (const variant of lookalikes(victim.user.username)) {
      const web = visitor();
      const res = await web.post('/signup', {
        _csrf: await web.csrf('/signup'),
        username: variant,
        email: `new${n}${variant.length}${ipCounter}@example.net`,
        password: 'a long password',
        password2: 'a long password',
      });
      expect(res.status, variant).toBe(409);
      expect(res.text, variant).toContain('is taken');
    }
    const local = victim.user.email.split('@')[0];
    for (const [i, variant] of lookalikes(local).entries()) {
      const web = visitor();
      const username = `fresh${process.pid}s${n}z${i}`;
      const res = await web.post('/signup', {
        _csrf: await web.csrf('/signup'),
        username,
        email: `${variant}@example.com`,
        password: 'a long password',
        password2: 'a long password',
      });
      // answered as for a new address (the form does not tell), but nothing was created
      expect(res.status, variant).toBe(303);
      const made = await server.deps.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirst();
      expect(made, variant).toBeUndefined();
    }
    const notices = await server.deps.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('owner_id', '=', victim.user.id)
      .where('subject', '=', 'Someone tried to sign up with your address')
      .execute();
    expect(notices.length).toBeGreaterThan(0);
    expect(notices.every((m) => m.to_address === victim.user.email)).toBe(true);
  }, 120_000);

  it('a look-alike username signs in to the same account; a look-alike address finds it for a reset', async () => {
    const victim = await taken();
    for (const variant of lookalikes(victim.user.username)) {
      const web = visitor();
      expect((await web.signIn(variant, victim.password)).status, variant).toBe(303);
      expect((await web.get('/account')).text, variant).toContain(victim.user.username);
    }
    const web = visitor();
    await web.post('/password/forgot', {
      _csrf: await web.csrf('/password/forgot'),
      email: `${victim.user.email.split('@')[0].replace('k', '\u212A')}@example.com`,
    });
    const resets = await server.deps.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('owner_id', '=', victim.user.id)
      .where('subject', '=', 'Reset your password')
      .execute();
    expect(resets.map((m) => m.to_address)).toEqual([victim.user.email]);
  }, 120_000);

  it('the migration keys existing accounts and reports a seeded clash by name, without failing', async () => {
    const db = await createTestDatabase();
    const direct = openDatabase(db.url);
    try {
      // A database from before the keys, with two accounts that are one name and one address (ß:
      // lower() on neither database folds it, so both accept the pair).
      await migrateToLatest(direct);
      await undo0058(direct.kysely as unknown as Parameters<typeof undo0058>[0]);
      await sql`DELETE FROM kysely_migration WHERE name = '0058_name_keys'`.execute(direct.kysely);
      const addUser = (id: string, username: string, email: string, created: string) =>
        sql`INSERT INTO users (id, username, email, email_verified, password_hash, language,
          account_type, region, status, sso_connections, date_created)
          VALUES (${id}, ${username}, ${email}, 1, 'x', 'en', 'basic', 'us', 'active', '[]', ${created})`.execute(
          direct.kysely,
        );
      await addUser('9001', 'strasse', 'kiss@example.org', '2026-01-01T00:00:00.000Z');
      await addUser('9002', 'stra\u00dfe', 'ki\u00df@example.org', '2026-01-02T00:00:00.000Z');
      await addUser('9003', 'other', 'other@example.org', '2026-01-03T00:00:00.000Z');
      const run = await runCliAsync(['migrate', '--json'], { DATABASE_URL: db.url });
      expect(run.status, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout);
      expect(printed.applied).toEqual(['0058_name_keys']);
      expect(printed.account_clashes).toEqual([
        expect.objectContaining({
          field: 'username',
          id: '9002',
          value: 'stra\u00dfe',
          holder: { id: '9001', username: 'strasse', value: 'strasse' },
        }),
        expect.objectContaining({
          field: 'email',
          id: '9002',
          value: 'ki\u00df@example.org',
          holder: expect.objectContaining({ id: '9001' }),
        }),
      ]);
      expect((await migrationStatus(direct)).pending).toEqual([]);
      // Said again, in words, on every run until it is resolved.
      const again = await runCliAsync(['migrate'], { DATABASE_URL: db.url });
      expect(again.status).toBe(0);
      expect(again.stdout).toContain(
        'username "stra\u00dfe" (account 9002) is the same name as "strasse" (account 9001)',
      );
      expect(again.stdout).toContain('survey-service user rename');
      // Told apart, the next run keys the account and reports nothing.
      await sql`UPDATE users SET username = 'kelvin2', email = 'kelvin2@example.org' WHERE id = '9002'`.execute(
        direct.kysely,
      );
      const resolved = JSON.parse(
        (await runCliAsync(['migrate', '--json'], { DATABASE_URL: db.url })).stdout,
      );
      expect(resolved.account_clashes).toBeUndefined();
      const keys = await sql<{ id: string; username_key: string; email_key: string }>`
        SELECT id, username_key, email_key FROM users WHERE id IN ('9001', '9002', '9003') ORDER BY id`.execute(
        direct.kysely,
      );
      expect(keys.rows).toEqual([
        { id: '9001', username_key: 'strasse', email_key: 'kiss@example.org' },
        { id: '9002', username_key: 'kelvin2', email_key: 'kelvin2@example.org' },
        { id: '9003', username_key: 'other', email_key: 'other@example.org' },
      ]);
    } finally {
      await direct.close();
      await db.drop();
    }
  }, 180_000);
});

describe('item 3: small ones', () => {
  it('the operator search matches % and _ as themselves', async () => {
    const op = await server.account();
    await setOperator(server.deps, op.user.id, true);
    const web = visitor();
    await web.signIn(op.user.username, op.password);
    const tag = `${process.pid}q${++n}`;
    await server.account({ username: `x_y${tag}` });
    await server.account({ username: `xzy${tag}` });
    const password = 'a long password';
    await createUser(server.deps, { username: `pc${tag}`, email: `p%c${tag}@example.org`, password });
    await createUser(server.deps, { username: `pxc${tag}`, email: `pxc${tag}@example.org`, password });
    const underscore = await web.get(`/operator/accounts?q=${encodeURIComponent(`x_y${tag}`)}`);
    expect(underscore.text).toContain('1 account(s) matching');
    expect(underscore.text).toContain(`x_y${tag}`);
    expect(underscore.text).not.toContain(`xzy${tag}`);
    const percent = await web.get(`/operator/accounts?q=${encodeURIComponent(`p%c${tag}`)}`);
    expect(percent.text).toContain('1 account(s) matching');
    expect(percent.text).not.toContain(`pxc${tag}`);
    // `_` alone: every account listed has an underscore in its username or address.
    const all = await server.deps.db.kysely.selectFrom('users').select(['username', 'email']).execute();
    const withUnderscore = all.filter((u) => `${u.username}${u.email}`.includes('_')).length;
    expect(withUnderscore).toBeLessThan(all.length);
    expect((await web.get('/operator/accounts?q=_')).text).toContain(`${withUnderscore} account(s) matching`);
  });

  it('embed_origins refuses port 0, naming the field, in the API and on the collect page', async () => {
    const owner = await server.account();
    const tk = { token: owner.token };
    const s = await seedSurvey(server, owner, {
      title: 'Port zero',
      questions: { why: openEnded('Why?') },
      collector: 'weblink',
    });
    const c = { body: s.collector };
    const res = await server.client.patch(
      `/v3/collectors/${c.body.id}`,
      { embed_origins: ['https://shop.example:0'] },
      tk,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1002');
    expect(res.body.error.message).toContain("'embed_origins'");
    expect(res.body.error.message).toContain('https://shop.example:0');
    const web = visitor();
    await web.signIn(owner.user.username, owner.password);
    const collect = new URL(s.survey.collect_url);
    const page = await web.get(collect.pathname + collect.search);
    const csrf = csrfToken(page.text);
    const bad = await web.post(
      `/collect/collectors/${c.body.id}/embed?sm=${collect.searchParams.get('sm')}`,
      {
        _csrf: csrf,
        embed_origins: 'https://shop.example:0',
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('embed_origins');
    expect(bad.text).toContain('https://shop.example:0');
    expect((await server.client.get(`/v3/collectors/${c.body.id}`, tk)).body.embed_origins).toEqual([]);
  });
});
