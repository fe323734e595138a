// Password hashes record their algorithm and cost (PHC string: $scrypt$ln=..,r=..,p=..$salt$key),
// new ones at the configured cost (OWASP's N=2^17, r=8, p=1 by default), and a weaker stored hash
// is re-hashed at the next successful sign-in. Collector passwords use the same format.
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { csrfToken, openEnded, seedSurvey, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

// This file's server hashes at N=2^12: above the suite's 2^10, below the legacy 2^14, so both an
// upgrade and a no-downgrade can be seen quickly.
beforeAll(async () => {
  server = await startServer({ env: { SCRYPT_LOG_N: '12' } });
});
afterAll(() => server.close());

const hashOf = async (userId: string) =>
  (
    await server.deps.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).password_hash;

const setHash = (userId: string, hash: string) =>
  server.deps.db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();

/** A hash as an older release wrote it (Node's default scrypt cost, not recorded), or at a given cost. */
function oldHash(password: string, logN?: number): string {
  const salt = randomBytes(16);
  if (logN === undefined) {
    const key = scryptSync(password, salt, 32);
    return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
  }
  const key = scryptSync(password, salt, 32, { N: 2 ** logN, r: 8, p: 1 });
  const b = (x: Buffer) => x.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${logN},r=8,p=1$${b(salt)}$${b(key)}`;
}

async function signIn(username: string, password: string) {
  const web = new WebSession(server.url, {
    'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 200)}`,
  });
  return web.signIn(username, password);
}

describe('password hashes', () => {
  it('the advised cost is the default, and a hash records algorithm, cost and salt', async () => {
    expect(loadConfig({}).passwordCost).toEqual({ logN: 17, r: 8, p: 1 });
    expect(() => loadConfig({ SCRYPT_LOG_N: '8' })).toThrow(/SCRYPT_LOG_N/);
    const a = await server.account();
    const stored = await hashOf(a.user.id);
    expect(stored).toMatch(/^\$scrypt\$ln=12,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect((await signIn(a.user.username, a.password)).status).toBe(303);
    // Already at the configured cost: left as it is.
    expect(await hashOf(a.user.id)).toBe(stored);
  });

  it('re-hashes a weaker stored hash (legacy or lower cost) at the next sign-in, and only a right one', async () => {
    for (const weaker of [(pw: string) => oldHash(pw, 10), (pw: string) => oldHash(pw)]) {
      const a = await server.account();
      const legacy = weaker(a.password);
      await setHash(a.user.id, legacy);
      const wrong = await signIn(a.user.username, 'not the password');
      expect(wrong.status).toBe(401);
      expect(await hashOf(a.user.id)).toBe(legacy);
      expect((await signIn(a.user.username, a.password)).status).toBe(303);
      const upgraded = await hashOf(a.user.id);
      // The legacy hash (N=2^14) is not weaker than 2^12 in N, but it records nothing: re-hashed too.
      expect(upgraded).toMatch(/^\$scrypt\$ln=12,r=8,p=1\$/);
      expect((await signIn(a.user.username, a.password)).status).toBe(303);
    }
  });

  it('never lowers a stronger stored hash', async () => {
    const a = await server.account();
    const strong = oldHash(a.password, 13);
    await setHash(a.user.id, strong);
    expect((await signIn(a.user.username, a.password)).status).toBe(303);
    expect(await hashOf(a.user.id)).toBe(strong);
  });

  it('a collector password is stored in the same format, and a legacy one still opens the survey', async () => {
    const a = await server.account();
    const s = await seedSurvey(server, a, {
      title: 'Locked',
      questions: { q: openEnded('Q') },
      collector: { type: 'weblink', password: 'open sesame' },
    });
    const c = { body: s.collector };
    const row = () =>
      server.deps.db.kysely
        .selectFrom('collectors')
        .select('password_hash')
        .where('id', '=', c.body.id)
        .executeTakeFirstOrThrow();
    expect((await row()).password_hash).toMatch(/^\$scrypt\$ln=12,r=8,p=1\$/);

    await server.deps.db.kysely
      .updateTable('collectors')
      .set({ password_hash: oldHash('open sesame') })
      .where('id', '=', c.body.id)
      .execute();
    const web = new WebSession(server.url);
    const path = new URL(c.body.url).pathname;
    const page = await web.get(path);
    const csrf = csrfToken(page.text, 'csrf');
    const wrong = await web.post(`${path}/password`, { csrf, password: 'nope' });
    expect(wrong.status).toBe(403);
    const right = await web.post(`${path}/password`, { csrf, password: 'open sesame' });
    expect(right.status).toBe(303);
    expect((await web.get(path)).text).toContain('name="csrf"');
    expect((await web.get(path)).text).not.toContain('protected by a password');
  });
});
