// Configuration: every variable checked at start-up (one line naming the variable, the value and
// what is allowed), and `survey-service config` printing the effective values with secrets masked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, runCliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

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
])('%s refuses to start with %s=%s, in one line', (verb, name, value, line) => {
  const r = runCli([verb], { DATABASE_URL: db.url, [name]: value });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe(`survey-service: ${line}\n`);
});

it('config prints every variable with its effective value, secrets masked', () => {
  const env = {
    DATABASE_URL: 'postgres://svc:db-password-1@db.internal:5432/surveys',
    SECRET_KEY: 'very-secret-key-2',
    SMTP_URL: 'smtp://mailer:smtp-password-3@mail.internal:587',
    TRUST_PROXY: 'true',
    PORT: '9000',
  };
  const printed = runCliJson(['config'], env);
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
  expect(runCliJson(['config'], { DATABASE_URL: 'sqlite:/srv/survey/main.db' })).toMatchObject({
    UPLOAD_DIR: '/srv/survey/uploads',
  });
  const human = runCli(['config'], env);
  expect(human.status).toBe(0);
  expect(human.stdout).toContain('TRUST_PROXY=true\n');
  expect(human.stdout).toContain('OUTBOX_BATCH=20  (default)\n');
  for (const secret of ['db-password-1', 'very-secret-key-2', 'smtp-password-3'])
    expect(human.stdout + JSON.stringify(printed)).not.toContain(secret);
});
