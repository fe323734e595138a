// Secrets at rest: after accounts, apps, tokens (from the CLI, the OAuth flow and the developer's
// own token), client secrets, passwords, sessions, webhook signing secrets and a collector
// password have been made through the public interfaces, no column of any table holds any of
// them in the clear. Tokens and sessions are there only as their SHA-256.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { runCliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorize, exchange } from '../oauth/flow.js';
import { Receiver } from '../reach/helpers/receiver.js';

const REDIRECT = 'http://localhost:9/callback';
const SERVER_KEY = 'configured-server-key-7c1e0f-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
let db: TestDatabase;
let server: TestServer;
let env: Record<string, string>;
let receiver: Receiver;
/** Every secret value made in this file, by what it is. */
const secrets = new Map<string, string>();
/** Values the database must hold only as SHA-256 (hex). */
const hashedOnly = new Map<string, string>();

beforeAll(async () => {
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    SECRET_KEY: SERVER_KEY,
    PUBLIC_URL: 'http://localhost',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  server = await startServer({ databaseUrl: db.url, env });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await server.close();
  await db.drop();
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** Every text value of every row of every table (both dialects, through Kysely's introspection). */
async function everyStoredText(): Promise<Array<{ where: string; text: string }>> {
  const k = server.deps.db.kysely;
  const tables = await k.introspection.getTables();
  expect(tables.length).toBeGreaterThan(20);
  const out: Array<{ where: string; text: string }> = [];
  for (const table of tables) {
    const rows = await k
      .selectFrom(table.name as any)
      .selectAll()
      .execute();
    for (const row of rows as Array<Record<string, unknown>>)
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text = Buffer.isBuffer(value)
          ? value.toString('latin1')
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
        out.push({ where: `${table.name}.${column}`, text });
      }
  }
  return out;
}

it('makes accounts, apps, tokens, sessions and webhook secrets through every interface', async () => {
  // The command line: a user with a password, an app with its client secret and the owner's token.
  const cliPassword = 'cli password Zq7!';
  runCliJson(
    [
      'user',
      'create',
      '--username',
      'cli_owner',
      '--email',
      'cli@example.com',
      '--password',
      cliPassword,
      '--plan',
      'premier',
    ],
    env,
  );
  const app = runCliJson(
    ['app', 'create', '--owner', 'cli_owner', '--name', 'CLI app', '--redirect-uri', REDIRECT],
    env,
  );
  secrets.set('CLI password', cliPassword);
  secrets.set('CLI client secret', app.client_secret);
  secrets.set('CLI access token', app.access_token);
  hashedOnly.set('CLI access token', app.access_token);

  // The same services tests use for accounts (user create + app create).
  const api: TestAccount = await server.account({ password: 'api password Kp3#' });
  secrets.set('account password', api.password);
  secrets.set('account client secret', api.clientSecret);
  secrets.set('account token', api.token);
  hashedOnly.set('account token', api.token);

  // A sign-in and the OAuth flow (a draft app serves its owner): session, code, exchanged token.
  const web = await signIn(server, { username: 'cli_owner', password: cliPassword });
  const session = web.cookies.get('ss_session')!;
  expect(session).toBeTruthy();
  secrets.set('session id', session);
  hashedOnly.set('session id', session);
  const url = await authorize(web, { clientId: app.client_id, redirectUri: REDIRECT });
  const code = url.searchParams.get('code')!;
  secrets.set('authorization code', code);
  const token = await exchange(server.url, {
    grant_type: 'authorization_code',
    client_id: app.client_id,
    client_secret: app.client_secret,
    code,
    redirect_uri: REDIRECT,
  });
  expect(token.status).toBe(200);
  secrets.set('OAuth access token', token.body.access_token);
  hashedOnly.set('OAuth access token', token.body.access_token);
  expect((await server.client.get('/v3/users/me', { token: token.body.access_token })).status).toBe(200);

  // A webhook and its Standard Webhooks signing secret; a password-protected collector.
  const t = { token: api.token };
  const survey = await server.client.post('/v3/surveys', { title: 'Secrets' }, t);
  const hook = await server.client.post(
    '/v3/webhooks',
    {
      name: 'Hook',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [survey.body.id],
      subscription_url: receiver.url,
    },
    t,
  );
  expect(hook.status, hook.text).toBe(201);
  const signing = await server.client.get(`/v3/webhooks/${hook.body.id}/signing_secret`, t);
  expect(signing.body.secret).toMatch(/^whsec_/);
  secrets.set('webhook signing secret', signing.body.secret);
  secrets.set('webhook signing key', signing.body.secret.slice('whsec_'.length));
  const collector = await server.client.post(
    `/v3/surveys/${survey.body.id}/collectors`,
    { type: 'weblink', password: 'collector pass Wm5' },
    t,
  );
  expect(collector.status, collector.text).toBe(201);
  secrets.set('collector password', 'collector pass Wm5');
  secrets.set('server key', SERVER_KEY);
});

it('stores none of them in the clear in any column of any table', async () => {
  expect(secrets.size).toBeGreaterThanOrEqual(13);
  const stored = await everyStoredText();
  const leaks: string[] = [];
  for (const [what, value] of secrets)
    for (const cell of stored) if (cell.text.includes(value)) leaks.push(`${what} in ${cell.where}`);
  expect(leaks).toEqual([]);
});

it('stores tokens and session ids as their SHA-256', async () => {
  const stored = await everyStoredText();
  for (const [what, value] of hashedOnly)
    expect(
      stored.some((cell) => cell.text === sha256(value)),
      `${what}: its SHA-256 is stored`,
    ).toBe(true);
});
