// `survey-service user rename --from OLD --to NEW`: the account signs in under the new name only,
// a name another account holds (in any case) is refused, and the account is told by email through
// the outbox (delivered here to a real SMTP server by `worker --once`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliAsync, runCliJsonAsync } from '../helpers/cli.js';
import { WebSession } from '../helpers/fixtures.js';
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

const env = () => ({ DATABASE_URL: server.config.databaseUrl, SMTP_URL: smtp.url });
let n = 0;
const unique = (base: string) => `${base}${Date.now().toString(36)}${n++}`;

async function createUser(username: string, email: string) {
  return runCliJsonAsync(
    ['user', 'create', '--username', username, '--email', email, '--password', 'correct horse battery'],
    env(),
  );
}

/** Signs in through the login form: whether the password opened a session. */
async function signsIn(username: string): Promise<boolean> {
  const web = new WebSession(server.url);
  await web.signIn(username, 'correct horse battery');
  return web.cookies.has('ss_session');
}

it('renames the account, which signs in under the new name and is told by email', async () => {
  const from = unique('renamer');
  const to = unique('Renamed');
  const email = `${from}@example.org`;
  const created = await createUser(from, email);
  const r = await runCliJsonAsync(['user', 'rename', '--from', from.toUpperCase(), '--to', to], env());
  expect(r).toMatchObject({ id: created.id, from, to });
  expect(typeof r.email_id).toBe('string');
  expect(await signsIn(to)).toBe(true);
  expect(await signsIn(from)).toBe(false);

  const before = smtp.messages.length;
  const sent = await runCliAsync(['worker', '--once', '--json'], env());
  expect(sent.status, sent.stderr).toBe(0);
  const mail = smtp.messages.slice(before).find((m) => m.to.includes(email));
  expect(mail, 'an email to the account').toBeDefined();
  expect(mail!.raw).toContain('Subject: Your username has changed');
  // quoted-printable: undo its soft line breaks
  expect(mail!.raw.replace(/=\r?\n/g, '')).toContain(`from ${from} to ${to}`);
}, 180_000);

it('refuses a name another account holds, in any case, and changes nothing', async () => {
  const a = unique('alpha');
  const b = unique('beta');
  await createUser(a, `${a}@example.org`);
  await createUser(b, `${b}@example.org`);
  const r = await runCliAsync(['user', 'rename', '--from', a, '--to', b.toUpperCase(), '--json'], env());
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(`username ${b.toUpperCase()} is taken`);
  expect(await signsIn(a)).toBe(true);
  const bad = await runCliAsync(['user', 'rename', '--from', a, '--to', 'has space', '--json'], env());
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('username must be');
  const missing = await runCliAsync(
    ['user', 'rename', '--from', unique('nobody'), '--to', unique('x')],
    env(),
  );
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain('no user named');
}, 180_000);

it('refuses a look-alike of a name another account holds, and the new name signs in in any spelling', async () => {
  const a = unique('gamma');
  const b = unique('kappa');
  await createUser(a, `${a}@example.org`);
  await createUser(b, `${b}@example.org`);
  // KELVIN SIGN for the k of the other account's name
  const lookalike = `\u212A${b.slice(1)}`;
  const r = await runCliAsync(['user', 'rename', '--from', a, '--to', lookalike, '--json'], env());
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('is taken');
  const to = unique('delta');
  expect(await runCliJsonAsync(['user', 'rename', '--from', a, '--to', to, '--json'], env())).toMatchObject({
    to,
  });
  expect(await signsIn(`\uFF24${to.slice(1)}`), 'fullwidth D of the new name').toBe(true);
});

it('two renames to one name at once: one wins, the other is refused', async () => {
  const a = unique('gamma');
  const b = unique('delta');
  const target = unique('wanted');
  await createUser(a, `${a}@example.org`);
  await createUser(b, `${b}@example.org`);
  const results = await Promise.all([
    runCliAsync(['user', 'rename', '--from', a, '--to', target, '--json'], env()),
    runCliAsync(['user', 'rename', '--from', b, '--to', target.toUpperCase(), '--json'], env()),
  ]);
  expect(results.map((x) => x.status).sort()).toEqual([0, 1]);
  expect(results.find((x) => x.status === 1)!.stderr).toContain('is taken');
}, 180_000);
