// Test accounts: a user with a draft app and its token, built with the same domain functions the
// `user create` and `app create` commands use.
import type { Deps } from '../../src/context.js';
import { type App, createApp } from '../../src/domain/accounts/apps.js';
import { createUser, type User } from '../../src/domain/accounts/users.js';
import type { Plan } from '../../src/platform/plans.js';
import type { Scope } from '../../src/platform/scopes.js';

export interface AccountOptions {
  plan?: Plan;
  region?: 'us' | 'eu' | 'ca';
  /** Scopes the app requests (default: all); the token gets those the plan allows. */
  scopes?: Scope[];
  /** Rate limits for the app (default: no cap, so tests are never throttled by accident). */
  minuteLimit?: number | null;
  dayLimit?: number | null;
  username?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

export interface TestAccount {
  user: User;
  app: App;
  token: string;
  clientSecret: string;
  password: string;
}

let counter = 0;

export async function createAccount(deps: Deps, options: AccountOptions = {}): Promise<TestAccount> {
  counter += 1;
  const username =
    options.username ?? `user${process.pid}_${counter}_${Math.random().toString(36).slice(2, 7)}`;
  const password = options.password ?? 'correct horse battery';
  const user = await createUser(deps, {
    username,
    email: `${username}@example.com`,
    password,
    plan: options.plan ?? 'premier',
    region: options.region ?? 'us',
    firstName: options.firstName ?? 'Test',
    lastName: options.lastName ?? 'User',
  });
  const created = await createApp(deps, user, {
    name: `App of ${username}`,
    redirectUris: ['http://localhost:9/callback'],
    scopes: options.scopes
      ? Object.fromEntries(options.scopes.map((s) => [s, 'optional' as const]))
      : undefined,
    minuteLimit: options.minuteLimit === undefined ? 0 : options.minuteLimit,
    dayLimit: options.dayLimit === undefined ? 0 : options.dayLimit,
  });
  return { user, app: created.app, token: created.accessToken, clientSecret: created.clientSecret, password };
}
