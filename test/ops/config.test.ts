// Configuration: every variable checked at start-up (one line per wrong variable naming it, the
// value and what is allowed, all reported at once), and `survey-service config` printing the
// effective values with secrets masked.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { scaleOut, startServer } from '../helpers/server.js';

// Child processes run without blocking this one: a blocked test worker misses vitest's heartbeats.
const runCli = runCliAsync;
async function runCliJson(args: string[], env: Record<string, string>) {
  const r = await runCliAsync([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`survey-service ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

it.each([
  [
    'serve',
    'TRUST_PROXY',
    'yes please',
    'TRUST_PROXY="yes please" is not allowed: TRUST_PROXY must be true or false',
  ],
  [
    'worker',
    'PUBLIC_URL',
    'localhost:8080',
    'PUBLIC_URL="localhost:8080" is not allowed: PUBLIC_URL must be an http:// or https:// URL',
  ],
  [
    'migrate',
    'RATE_LIMIT_DRAFT_MINUTE',
    '-5',
    'RATE_LIMIT_DRAFT_MINUTE="-5" is not allowed: RATE_LIMIT_DRAFT_MINUTE must be a whole number of at least 0',
  ],
  [
    'serve',
    'UPLOAD_TYPES',
    'pdf,exe',
    'UPLOAD_TYPES="pdf,exe" is not allowed: UPLOAD_TYPES must be a comma-separated list of pdf, png, jpg, jpeg, gif, webp, txt, csv, docx, xlsx, pptx, odt, ods, odp',
  ],
])('%s refuses to start with %s=%s, in one line', async (verb, name, value, line) => {
  const r = await runCli([verb], { DATABASE_URL: db.url, [name]: value });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe(`survey-service: ${line}\n`);
});

it('config prints every variable with its effective value, secrets masked', async () => {
  const env = {
    DATABASE_URL: 'postgres://svc:db-password-1@db.internal:5432/surveys',
    SECRET_KEY: 'very-secret-key-2-0123456789abcdefghijklmnopqrstuvwxyz',
    SMTP_URL: 'smtp://mailer:smtp-password-3@mail.internal:587',
    TRUST_PROXY: 'true',
    PORT: '9000',
  };
  const printed = await runCliJson(['config'], env);
  expect(printed).toMatchObject({
    DATABASE_URL: 'postgres://svc:****@db.internal:5432/surveys',
    SECRET_KEY: '****',
    SMTP_URL: 'smtp://mailer:****@mail.internal:587',
    TRUST_PROXY: true,
    PORT: 9000,
    PUBLIC_URL: 'http://localhost:9000',
    LOG_LEVEL: 'silent', // the test helper's
    METRICS_PORT: null,
    UPLOAD_DIR: './data/uploads', // PostgreSQL: no database file to sit beside
    UPLOAD_MAX_BYTES: 10485760,
  });
  // SQLite: uploads beside the database file
  expect(await runCliJson(['config'], { DATABASE_URL: 'sqlite:/srv/survey/main.db' })).toMatchObject({
    UPLOAD_DIR: '/srv/survey/uploads',
  });
  const human = await runCli(['config'], env);
  expect(human.status).toBe(0);
  expect(human.stdout).toContain('TRUST_PROXY=true\n');
  expect(human.stdout).toContain('OUTBOX_BATCH=20  (default)\n');
  for (const secret of ['db-password-1', 'very-secret-key-2', 'smtp-password-3'])
    expect(human.stdout + JSON.stringify(printed)).not.toContain(secret);
}, 120_000);

it('reports every wrong variable at once, one line each, and exits non-zero', async () => {
  for (const verb of ['serve', 'config']) {
    const r = await runCli([verb], {
      DATABASE_URL: db.url,
      PORT: 'eighty',
      TRUST_PROXY: 'maybe',
      LOG_LEVEL: 'loud',
      SMTP_URL: 'mail.internal:25',
    });
    expect(r.status, verb).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      'survey-service: 4 variables are not allowed:',
      '  PORT="eighty" is not allowed: PORT must be a whole number of at least 0 and at most 65535',
      '  TRUST_PROXY="maybe" is not allowed: TRUST_PROXY must be true or false',
      '  LOG_LEVEL="loud" is not allowed: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      '  SMTP_URL="****" is not allowed: SMTP_URL must be an smtp:// or smtps:// URL',
      '',
    ]);
  }
}, 120_000);

const ADVICE =
  "SECRET_KEY must be at least 32 random bytes: 43 or more base64 characters or 64 hex digits; make one with `openssl rand -base64 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`";

it.each([
  ['3 characters', 'abc'],
  ['a 42-character key', 'k'.repeat(32) + '0123456789'],
  ['63 hex digits', 'a1b2c3d4e5f6a7b8c9d0'.repeat(3) + 'f0e'],
  ['a long run of one pattern', 'abcd'.repeat(20)],
])('refuses a SECRET_KEY of %s and says how to make one', async (_, key) => {
  const r = await runCli(['serve'], { DATABASE_URL: db.url, SECRET_KEY: key, TRUST_PROXY: 'maybe' });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`  SECRET_KEY="****" is not allowed: ${ADVICE}\n`);
  expect(r.stderr).toContain('TRUST_PROXY="maybe"');
  expect(r.stderr).not.toContain(key);
});

it.each([
  ['a piece of 16 characters four times', '0123456789abcdef'.repeat(4), 'repeats a piece of 16 characters'],
  ['a base64-looking piece repeated', 'Zm9vYmFyQmF6cXV4'.repeat(3), 'repeats a piece of 16 characters'],
  [
    'mostly one character',
    `${'k'.repeat(40)}0123456789`,
    "varies too little (about 69 bits by its characters' frequencies, 128 needed)",
  ],
])('refuses a SECRET_KEY of %s, saying why', async (_, key, why) => {
  const r = await runCli(['config'], { DATABASE_URL: db.url, SECRET_KEY: key });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe(
    `survey-service: SECRET_KEY="****" is not allowed: SECRET_KEY must be random, and this one ${why}; it must be ${ADVICE.slice('SECRET_KEY must be '.length)}\n`,
  );
});

it("takes the test servers' key", async () => {
  const printed = await runCliJson(['config'], {
    DATABASE_URL: db.url,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  });
  expect(printed.SECRET_KEY).toBe('****');
});

it('refuses a HOST or METRICS_HOST that is neither an IP address nor a host name', async () => {
  const hostAdvice = 'must be an IP address or a host name (letters, digits, hyphens and dots)';
  const r = await runCli(['config'], {
    DATABASE_URL: db.url,
    HOST: 'not a host',
    METRICS_HOST: 'metrics_box',
  });
  expect(r.status).toBe(1);
  expect(r.stderr.split('\n')).toEqual([
    'survey-service: 2 variables are not allowed:',
    `  HOST="not a host" is not allowed: HOST ${hostAdvice}`,
    `  METRICS_HOST="metrics_box" is not allowed: METRICS_HOST ${hostAdvice}`,
    '',
  ]);
  const printed = await Promise.all(
    ['0.0.0.0', '::', '::1', 'localhost', 'svc-1.internal.example.org'].map((host) =>
      runCliJson(['config'], { DATABASE_URL: db.url, HOST: host }),
    ),
  );
  expect(printed.map((p) => p.HOST)).toEqual([
    '0.0.0.0',
    '::',
    '::1',
    'localhost',
    'svc-1.internal.example.org',
  ]);
}, 120_000);

it('takes keys made as advised, and no key at all (one is then generated)', async () => {
  const made = [
    execFileSync('openssl', ['rand', '-base64', '32'], { encoding: 'utf8' }).trim(),
    execFileSync('openssl', ['rand', '-hex', '32'], { encoding: 'utf8' }).trim(),
    randomBytes(32).toString('base64url'),
  ];
  const printed = await Promise.all(
    [...made, ''].map((key) => runCliJson(['config'], { DATABASE_URL: db.url, SECRET_KEY: key })),
  );
  expect(printed.map((p) => p.SECRET_KEY)).toEqual(['****', '****', '****', null]);
}, 120_000);

it('sizes the PostgreSQL pool by DATABASE_POOL_MAX', async () => {
  expect((await runCliJson(['config'], { DATABASE_URL: db.url })).DATABASE_POOL_MAX).toBe(null);
  expect(
    (await runCliJson(['config'], { DATABASE_URL: db.url, DATABASE_POOL_MAX: '3' })).DATABASE_POOL_MAX,
  ).toBe(3);
  const r = await runCli(['config'], { DATABASE_URL: db.url, DATABASE_POOL_MAX: '0' });
  expect(r.stderr).toBe(
    'survey-service: DATABASE_POOL_MAX="0" is not allowed: DATABASE_POOL_MAX must be a whole number of at least 1\n',
  );
}, 120_000);

it.skipIf(!usingPostgres || scaleOut)(
  'a server opens at most DATABASE_POOL_MAX connections',
  async () => {
    const server = await startServer({ env: { DATABASE_POOL_MAX: '2' } });
    const watcher = new pg.Client({ connectionString: server.config.databaseUrl });
    await watcher.connect();
    try {
      const { token } = await server.account();
      let busy = true;
      let most = 0;
      const watching = (async () => {
        while (busy) {
          const { rows } = await watcher.query(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          );
          most = Math.max(most, rows[0].n);
        }
      })();
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(
          Array.from({ length: 30 }, () => server.client.get('/v3/surveys', { token })),
        );
        for (const a of answers) expect(a.status).toBe(200);
      }
      busy = false;
      await watching;
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      await watcher.end();
      await server.close();
    }
  },
  120_000,
);

it('refuses a DKIM key that is no RSA private key at start-up, naming the variable; takes a real one', async () => {
  const dkim = { DATABASE_URL: db.url, MAIL_DKIM_DOMAIN: 'example.org', MAIL_DKIM_SELECTOR: 's1' };
  const bad = await runCli(['config'], { ...dkim, MAIL_DKIM_PRIVATE_KEY: 'not a key at all' });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain(
    'MAIL_DKIM_PRIVATE_KEY is not allowed: it must hold an RSA private key in PEM',
  );
  expect(bad.stderr).not.toContain('not a key at all');
  const pem = execFileSync('openssl', ['genrsa', '2048'], { encoding: 'utf8' });
  const good = await runCli(['config'], { ...dkim, MAIL_DKIM_PRIVATE_KEY: pem });
  expect(good.status, good.stderr).toBe(0);
}, 120_000);
