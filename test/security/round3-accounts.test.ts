// Accounts and OAuth: usernames are unique
// without regard to case (a case variant cannot reset the real account's sign-in lockout), an
// unconfirmed address grants nothing and a reset that confirms it revokes what was granted, the
// sign-up form does not tell which addresses have accounts, and a replayed OAuth code revokes only
// the token it issued.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, migrationStatus } from '../../src/db/migrate.js';
import { down as undo0026 } from '../../src/db/migrations/0026_account_keys.js';
import { reviewApp } from '../../src/domain/accounts/lifecycle.js';
import { issueToken } from '../../src/domain/accounts/tokens.js';
import { runCli, runCliJson } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase } from '../helpers/database.js';
import { WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorize, authorizePath, exchange } from '../oauth/flow.js';
import { Receiver } from '../reach/helpers/receiver.js';

const REDIRECT = 'http://localhost:9/callback';
const REVOKED = { status: 1, errmsg: 'Client revoked access grant' };
let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');
let ipCounter = 0;
let n = 0;

beforeAll(async () => {
  server = await startServer({ clock, env: { TRUST_PROXY: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => server.close());

/** A browser-like session from its own client address. */
const visitor = (ip = `198.51.100.${++ipCounter % 250}`) =>
  new WebSession(server.url, { 'x-forwarded-for': ip });

function fresh() {
  n += 1;
  const username = `r3user${n}_${process.pid}`;
  const password = 'a long password';
  return { username, email: `${username}@example.org`, password, password2: password };
}

async function signUp(web: WebSession, fields: Record<string, string>) {
  const _csrf = await web.csrf('/signup');
  return web.post('/signup', { _csrf, ...fields });
}

/** The emails queued to `to`, newest first. */
function mailTo(to: string) {
  return server.deps.db.kysely
    .selectFrom('emails')
    .selectAll()
    .where(sql<string>`lower(to_address)`, '=', to.toLowerCase())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);
const me = (token: string) => server.client.get('/v3/users/me', { token });

describe('item 1: usernames are unique without regard to case', () => {
  it('a case variant of a username cannot be signed up or created, and signs in to the same account', async () => {
    const victim = await server.account({ username: `victim${process.pid}` });
    const variant = victim.user.username.toUpperCase();
    const taken = await signUp(visitor(), { ...fresh(), username: variant });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('is taken');
    const cli = runCli(
      [
        'user',
        'create',
        '--username',
        variant,
        '--email',
        `${variant}@example.net`,
        '--password',
        'long enough',
      ],
      { DATABASE_URL: server.config.databaseUrl },
    );
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toContain('is taken');
    const web = visitor();
    expect((await web.signIn(variant, victim.password)).status).toBe(303);
    expect((await web.get('/account')).text).toContain(victim.user.username);
  }, 120_000);

  it("no sign-in to another account clears an account's failures: ten wrong guesses lock it", async () => {
    const victim = await server.account({ username: `target${process.pid}` });
    const attacker = await server.account();
    for (let i = 1; i <= 10; i++) {
      clock.advance(61_000);
      const name = i % 2 ? victim.user.username : victim.user.username.toUpperCase();
      expect((await visitor().signIn(name, `guess ${i}`)).status, `guess ${i}`).toBe(401);
      // The attacker's own correct sign-ins, between the guesses, change nothing for the victim.
      expect((await visitor().signIn(attacker.user.username, attacker.password)).status).toBe(303);
    }
    clock.advance(61_000);
    const locked = await visitor().signIn(victim.user.username, victim.password);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('locked');
    clock.advance(16 * 60_000);
  });

  it('the migration names existing usernames that differ only in case instead of failing on a bare constraint', async () => {
    const db = await createTestDatabase();
    const direct = openDatabase(db.url);
    try {
      // A database from before the migration, with two names that differ only in case.
      await migrateToLatest(direct);
      await undo0026(direct.kysely as never);
      await sql`DELETE FROM kysely_migration WHERE name = '0026_account_keys'`.execute(direct.kysely);
      const addUser = (id: string, username: string) =>
        sql`INSERT INTO users (id, username, email, email_verified, password_hash, language,
          account_type, region, status, sso_connections, date_created)
          VALUES (${id}, ${username}, ${`${username}${id}@example.org`}, 1, 'x', 'en', 'basic', 'us',
          'active', '[]', '2026-01-01T00:00:00.000Z')`.execute(direct.kysely);
      await addUser('9001', 'Clash_Name');
      await addUser('9002', 'clash_name');
      // The operator's `migrate` stops and names them.
      const refused = runCli(['migrate'], { DATABASE_URL: db.url });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('usernames must be unique without regard to case');
      expect(refused.stderr).toContain('Clash_Name, clash_name');
      expect((await migrationStatus(direct)).pending).toEqual(['0026_account_keys']);
      // Renamed, the migration runs and the index holds.
      await sql`UPDATE users SET username = 'clash_name_2' WHERE id = '9002'`.execute(direct.kysely);
      await migrateToLatest(direct);
      expect((await migrationStatus(direct)).pending).toEqual([]);
      await expect(addUser('9003', 'CLASH_NAME')).rejects.toThrow();
    } finally {
      await direct.close();
      await db.drop();
    }
  }, 180_000);
});

describe('item 2: an unconfirmed address grants nothing', () => {
  it('an account whose address is unconfirmed registers no app and authorizes none', async () => {
    const f = fresh();
    expect((await signUp(visitor(), f)).status).toBe(303);
    const web = visitor();
    expect((await web.signIn(f.username, f.password)).status).toBe(303);
    const _csrf = await web.csrf('/developer/apps/new');
    const res = await web.post('/developer/apps', {
      _csrf,
      name: 'Claimed app',
      redirect_uris: REDIRECT,
      scope_users_read: 'required',
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Confirm your email address first');
    const apps = await server.deps.db.kysely
      .selectFrom('apps')
      .innerJoin('users', 'users.id', 'apps.owner_id')
      .select('apps.id')
      .where('users.username', '=', f.username)
      .execute();
    expect(apps).toHaveLength(0);

    const dev = await server.account();
    await reviewApp(server.deps, dev.app.id, { approve: true });
    const consent = await web.get(authorizePath({ clientId: dev.app.client_id, redirectUri: REDIRECT }));
    expect(consent.status).toBe(403);
    expect(consent.text).toContain('Confirm your address first');
  });

  it("a reset that confirms the address revokes every token granted before, also the claimant's", async () => {
    // Someone signs up with another person's address; a token was granted to that account
    // (as the code before this round allowed).
    const owner = fresh();
    const claim = { ...fresh(), email: owner.email };
    expect((await signUp(visitor(), claim)).status).toBe(303);
    const claimant = await server.deps.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username', '=', claim.username)
      .executeTakeFirstOrThrow();
    const dev = await server.account();
    const token = await issueToken(server.deps, dev.app.id, claimant.id, ['users_read']);
    expect((await me(token)).status).toBe(200);

    // The address's owner takes the account back with a reset link.
    const forgot = visitor();
    await forgot.post('/password/forgot', {
      _csrf: await forgot.csrf('/password/forgot'),
      email: owner.email,
    });
    // By subject: the sign-up's confirmation went to the same address, and with two processes
    // (scale-out) ids from their two ranges need not follow the order the emails were made in.
    const resetMail = (await mailTo(owner.email)).find((m) => m.subject === 'Reset your password');
    if (!resetMail) throw new Error('no password reset email was queued');
    const link = linkIn(resetMail.text_body);
    const web = visitor();
    const _csrf = await web.csrf(link.pathname + link.search);
    const done = await web.post('/password/reset', {
      _csrf,
      token: link.searchParams.get('token')!,
      password: 'the real owner password',
      password2: 'the real owner password',
    });
    expect(done.status).toBe(200);
    expect((await me(token)).body).toEqual(REVOKED);
  });
});

describe('item 8: sign-up does not tell which addresses have accounts', () => {
  it('answers a taken address as a free one, creates nothing and tells the address’s owner', async () => {
    const owner = await server.account();
    const free = visitor();
    const taken = visitor();
    const freeRes = await signUp(free, fresh());
    const takenFields = { ...fresh(), email: owner.user.email.toUpperCase() };
    const takenRes = await signUp(taken, takenFields);
    expect(takenRes.status).toBe(freeRes.status);
    expect(takenRes.location).toBe(freeRes.location);
    expect(freeRes.location).toBe('/signup/sent');
    // Neither answer signs anyone in.
    for (const web of [free, taken]) expect(web.cookies.has('ss_session')).toBe(false);
    const strip = (text: string) => text.replace(/name="_csrf" value="[^"]+"/g, '');
    expect(strip((await taken.get(takenRes.location!)).text)).toBe(
      strip((await free.get(freeRes.location!)).text),
    );
    expect((await free.get(freeRes.location!)).text).toContain('Check your email');

    const users = await server.deps.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', takenFields.username)
      .execute();
    expect(users).toHaveLength(0);
    const notice = (await mailTo(owner.user.email)).find(
      (m) => m.subject === 'Someone tried to sign up with your address',
    );
    if (!notice) throw new Error('the address owner was not told of the sign-up');
    expect(notice.text_body).toContain(owner.user.username);
    expect(notice.text_body).toContain('http://localhost/password/forgot');
  });
});

describe('item 9: a replayed authorization code', () => {
  it('revokes only the token it issued: the token `app create` printed and its webhooks stay', async () => {
    const owner = await server.account();
    const printed = runCliJson(
      ['app', 'create', '--owner', owner.user.username, '--name', 'CLI app', '--redirect-uri', REDIRECT],
      { DATABASE_URL: server.config.databaseUrl, SECRET_KEY: server.config.secretKey! },
    );
    const receiver = await new Receiver().start();
    const hook = await server.client.post(
      '/v3/webhooks',
      { name: 'created', event_type: 'survey_created', subscription_url: receiver.url },
      { token: printed.access_token },
    );
    await receiver.stop();
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);

    const web = visitor();
    expect((await web.signIn(owner.user.username, owner.password)).status).toBe(303);
    const code = (
      await authorize(web, { clientId: printed.client_id, redirectUri: REDIRECT })
    ).searchParams.get('code')!;
    const fields = {
      grant_type: 'authorization_code',
      client_id: printed.client_id,
      client_secret: printed.client_secret,
      code,
      redirect_uri: REDIRECT,
    };
    const first = await exchange(server.url, fields);
    expect(first.status).toBe(200);
    const replay = await exchange(server.url, fields);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await me(first.body.access_token)).body).toEqual(REVOKED);
    expect((await me(printed.access_token)).status).toBe(200);
    const hooks = await server.client.get('/v3/webhooks', { token: printed.access_token });
    expect(hooks.body.total).toBe(1);
  }, 120_000);
});
