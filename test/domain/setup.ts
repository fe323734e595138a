// The domain tier's fixture: Deps over a fresh, migrated database (SQLite, or PostgreSQL when
// TEST_DATABASE_URL names a server), built by the same composition root `serve` uses, with no HTTP
// server. A test file opens one in beforeAll and closes it in afterAll:
//
//   let t: DomainTest;
//   beforeAll(async () => { t = await openDomain(); });
//   afterAll(() => t?.close());
//
// and calls domain functions with t.deps and an actor from t.account().
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createDeps } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/context.js';
import type { Actor } from '../../src/domain/surveys/surveys.js';
import { ApiError } from '../../src/platform/errors.js';
import type { Plan } from '../../src/platform/plans.js';
import { type AccountOptions, createAccount, type TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase } from '../helpers/database.js';

export interface DomainAccount extends TestAccount {
  /** The account as the domain's write functions take it (what pages build from the session). */
  actor: Actor & { plan: Plan; ip: string | null };
}

export interface DomainTest {
  deps: Deps;
  /** The clock Deps read: starts at the real time; tests move it. */
  clock: TestClock;
  /** A new user (premier plan unless asked) with an app, and its actor. */
  account(options?: AccountOptions): Promise<DomainAccount>;
  close(): Promise<void>;
}

export async function openDomain(env: Record<string, string> = {}): Promise<DomainTest> {
  const database = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    PUBLIC_URL: 'http://localhost',
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    EXPORT_DIR: mkdtempSync(join(tmpdir(), 'survey-exports-')),
    UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'survey-uploads-')),
    SCRYPT_LOG_N: process.env.SCRYPT_LOG_N ?? '10',
    ...env,
  });
  const clock = new TestClock();
  let deps: Deps;
  try {
    deps = await createDeps(config, { clock });
  } catch (err) {
    await database.drop();
    throw err;
  }
  return {
    deps,
    clock,
    account: async (options) => {
      const account = await createAccount(deps, options);
      return { ...account, actor: { user: account.user, plan: account.user.account_type as Plan, ip: null } };
    },
    close: async () => {
      await deps.db.close();
      await database.drop();
    },
  };
}

/** Asserts that `promise` is refused with the catalogue `code`, and a message matching `message`. */
export async function refused(promise: Promise<unknown>, code: number, message?: string | RegExp) {
  const err = await promise.then(
    () => expect.fail(`expected a refusal with ${code}, but it was allowed`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe(code);
  if (message !== undefined) expect((err as ApiError).message).toMatch(message);
  return err as ApiError;
}
