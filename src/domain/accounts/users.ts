// User accounts: creation, lookup, plan and state changes. No HTTP here.
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import { REGIONS, type Region } from '../../config.js';
import type { Deps } from '../../context.js';
import { emailKey, usernameKey } from '../../db/account-keys.js';
import { lockOperators } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import type { UsersTable } from '../../db/tables/platform.js';
import { ApiError } from '../../platform/errors.js';
import { isPlan, type Plan } from '../../platform/plans.js';
import { needsRehash } from '../../platform/secrets.js';
import { isUniqueViolation } from '../core/unique.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type User = UsersTable;
export type { Account } from './caller.js';
export const USER_STATES = ['active', 'soft_deleted', 'deleted'] as const;
export type UserState = (typeof USER_STATES)[number];

export interface NewUser {
  username: string;
  email: string;
  password: string;
  plan?: string;
  region?: string;
  firstName?: string | null;
  lastName?: string | null;
  language?: string;
}

export const USERNAME = /^[A-Za-z0-9_.@+-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A username as stored: its NFKC form (a fullwidth or Kelvin-sign spelling is the ASCII name). */
export const usernameOf = (input: string): string => input.normalize('NFKC');

/** What makes a valid new account, checked before anything is stored. */
export function checkNewUser(input: Pick<NewUser, 'username' | 'email' | 'password'>): void {
  if (!USERNAME.test(usernameOf(input.username)))
    throw new ApiError(1002, 'username must be 1-64 letters, digits or _ . @ + -');
  checkEmail(input.email);
  checkPassword(input.password);
}

export function checkPassword(password: string): void {
  if (password.length < 8) throw new ApiError(1002, 'password must be at least 8 characters');
  if (password.length > 1000) throw new ApiError(1002, 'password must be at most 1000 characters');
}

export function checkEmail(email: string): void {
  if (!EMAIL.test(email) || email.length > 254) throw new ApiError(1002, 'email must be an email address');
}

/** Creates an account, its address verified (the CLI's `user create`; sign-up uses prepareUser and
 * insertUser inside its own transaction). */
export async function createUser(deps: Deps, input: NewUser): Promise<User> {
  await refuseLookalike(deps, input.username);
  const user = await prepareUser(deps, input);
  await insertUser(deps.db.kysely, user);
  return user;
}

/**
 * A checked new account row, its id reserved and its password hashed (slow work done before any
 * transaction opens, so a transaction never holds the database while scrypt runs).
 */
export async function prepareUser(
  deps: Deps,
  input: NewUser,
  options: { emailVerified?: boolean } = {},
): Promise<User> {
  const plan = input.plan ?? 'basic';
  const region = input.region ?? 'us';
  checkNewUser(input);
  if (!isPlan(plan))
    throw new ApiError(1002, `plan must be one of basic, standard, advantage, premier, enterprise`);
  if (!(REGIONS as readonly string[]).includes(region))
    throw new ApiError(1002, 'region must be us, eu or ca');
  const username = usernameOf(input.username);
  return {
    id: await deps.ids.one(),
    username,
    email: input.email,
    username_key: usernameKey(username),
    email_key: emailKey(input.email),
    email_verified: options.emailVerified === false ? 0 : 1,
    password_hash: await deps.passwords.hash(input.password),
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    language: input.language ?? 'en',
    account_type: plan,
    region,
    status: 'active',
    sso_connections: '[]',
    date_created: deps.clock.now().toISOString(),
    date_last_login: null,
  };
}

/**
 * Stores a prepared account. The username and the address (case-insensitive) are unique by
 * constraint, so of two concurrent creations of either, one gets 409/1026.
 */
export async function insertUser(executor: Executor, user: User): Promise<void> {
  try {
    await executor.insertInto('users').values(user).execute();
  } catch (err) {
    throw takenError(err, user);
  }
}

/** Which of an account's unique keys a database error violated, or null for any other error. */
export function clashOn(err: unknown): 'email' | 'username' | null {
  if (!isUniqueViolation(err)) return null;
  const text = `${(err as Error).message} ${(err as { constraint?: string }).constraint ?? ''}`;
  return /email/.test(text) ? 'email' : 'username';
}

/** A unique violation on users as the 409/1026 it means (which of username or email is taken). */
export function takenError(err: unknown, user: Pick<User, 'username' | 'email'>): unknown {
  const clash = clashOn(err);
  if (!clash) return err;
  return clash === 'email'
    ? new ApiError(1026, `the address ${user.email} is already used by an account`)
    : new ApiError(1026, `username ${user.username} is taken`);
}

/**
 * A username that is no valid name but whose key an account holds (a look-alike such as `alİce` of
 * `alice`) is refused as taken, as the name itself would be.
 */
export async function refuseLookalike(deps: Deps, username: string): Promise<void> {
  const name = usernameOf(username.trim());
  if (USERNAME.test(name) || !USERNAME.test(usernameKey(name))) return;
  if (await findUserByUsername(deps, name)) throw new ApiError(1026, `username ${name} is taken`);
}

type Keyed = { key: 'username_key'; column: 'username' } | { key: 'email_key'; column: 'email' };

/**
 * Rows whose comparison key is `key`; a row without a key yet (written by an older release, or
 * whose key another account holds) by its lower-cased value, as before keys were stored.
 */
function byKey({ key, column }: Keyed, value: string, folded: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.or([
      eb(key, '=', folded),
      eb.and([eb(key, 'is', null), eb(sql<string>`lower(${sql.ref(column)})`, '=', value.toLowerCase())]),
    ]);
}

/** The account of a username, in any case or look-alike spelling (its key is unique). */
export function findUserByUsername(deps: Deps, username: string): Promise<User | undefined> {
  const key = { key: 'username_key', column: 'username' } as const;
  return deps.db.kysely
    .selectFrom('users')
    .selectAll()
    .where(byKey(key, username, usernameKey(username)))
    .orderBy(sql`username_key is null`)
    .executeTakeFirst();
}

/** The account of an address, in any case or look-alike spelling (its key is unique). */
export function findUserByEmail(deps: Deps, email: string): Promise<User | undefined> {
  const key = { key: 'email_key', column: 'email' } as const;
  return deps.db.kysely
    .selectFrom('users')
    .selectAll()
    .where(byKey(key, email.trim(), emailKey(email)))
    .orderBy(sql`email_key is null`)
    .executeTakeFirst();
}

export function findUserById(deps: Deps, id: string): Promise<User | undefined> {
  return deps.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireUser(deps: Deps, username: string): Promise<User> {
  const user = await findUserByUsername(deps, username);
  if (!user) throw new ApiError(1020, `no user named ${username}`);
  return user;
}

export async function updateUser(
  deps: Deps,
  username: string,
  changes: { plan?: string; region?: string; state?: string; emailVerified?: boolean; operator?: boolean },
): Promise<User> {
  const user = await requireUser(deps, username);
  const set: Partial<User> = {};
  if (changes.plan !== undefined) {
    if (!isPlan(changes.plan)) throw new ApiError(1002, 'unknown plan');
    set.account_type = changes.plan as Plan;
  }
  if (changes.region !== undefined) {
    if (!(REGIONS as readonly string[]).includes(changes.region)) throw new ApiError(1002, 'unknown region');
    set.region = changes.region as Region;
  }
  if (changes.state !== undefined) {
    if (!(USER_STATES as readonly string[]).includes(changes.state))
      throw new ApiError(1002, 'unknown state');
    set.status = changes.state;
  }
  if (changes.emailVerified !== undefined) set.email_verified = changes.emailVerified ? 1 : 0;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await lockActiveOperators(deps, trx);
    if (Object.keys(set).length > 0)
      await trx.updateTable('users').set(set).where('id', '=', user.id).execute();
    if (changes.operator !== undefined) await setOperatorIn(deps, trx, user.id, changes.operator);
    await keepAnActiveOperator(trx, before, user);
  });
  return { ...user, ...set };
}

/**
 * Inside `trx`: takes the operators' lock (held until `trx` ends) and returns the operators who can
 * act, those whose account is active. Every change of an operator flag or of an account's state
 * takes it first, so the rule below sees every concurrent change before it or none of it.
 */
export async function lockActiveOperators(deps: Deps, trx: Transaction<Database>): Promise<string[]> {
  await lockOperators(deps.db, trx);
  return activeOperators(trx);
}

async function activeOperators(trx: Transaction<Database>): Promise<string[]> {
  const rows = await trx
    .selectFrom('operators as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select('o.user_id')
    .where('u.status', '=', 'active')
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Inside `trx`, after changing `target` under lockActiveOperators (`before` its answer): refuses
 * the change when it took the last active operator away (by the flag or by the account's state).
 * A suspended operator cannot sign in, so they do not count.
 */
export async function keepAnActiveOperator(
  trx: Transaction<Database>,
  before: readonly string[],
  target: Pick<User, 'id' | 'username'>,
): Promise<void> {
  if (!before.includes(target.id)) return;
  if ((await activeOperators(trx)).length === 0)
    throw new ApiError(
      1002,
      `${target.username} is the last active operator: make another account an operator first.`,
    );
}

/**
 * Whether `password` is the user's. A right password whose stored hash is weaker than the configured
 * cost is re-hashed at that cost (only if the row still holds the hash just checked).
 */
export async function verifyUserPassword(deps: Deps, user: User, password: string): Promise<boolean> {
  if (!(await deps.passwords.verify(password, user.password_hash))) return false;
  if (needsRehash(user.password_hash, deps.config.passwordCost)) {
    const upgraded = await deps.passwords.hash(password);
    await deps.db.kysely
      .updateTable('users')
      .set({ password_hash: upgraded })
      .where('id', '=', user.id)
      .where('password_hash', '=', user.password_hash)
      .execute();
  }
  return true;
}

export async function recordLogin(deps: Deps, userId: string): Promise<void> {
  await deps.db.kysely
    .updateTable('users')
    .set({ date_last_login: deps.clock.now().toISOString() })
    .where('id', '=', userId)
    .execute();
}

/** Operators review apps and manage their lifecycle (flagged with `user create|update --operator`). */
export async function isOperator(deps: Deps, userId: string): Promise<boolean> {
  const row = await deps.db.kysely
    .selectFrom('operators')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

/**
 * Which optional areas of the workspace this user uses: operators review apps, developers own apps
 * (one round trip; the header shows their links only to them).
 */
export async function workspaceRoles(
  deps: Deps,
  userId: string,
): Promise<{ operator: boolean; developer: boolean }> {
  const { db } = deps;
  const row = await db.kysely
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('operators').select('user_id').where('user_id', '=', userId)).as('operator'),
      eb.exists(eb.selectFrom('apps').select('id').where('owner_id', '=', userId)).as('developer'),
    ])
    .executeTakeFirstOrThrow();
  // SQLite answers EXISTS with 0/1, PostgreSQL with a boolean.
  return { operator: Boolean(row.operator), developer: Boolean(row.developer) };
}

/** Flags or unflags an operator (the last active operator keeps the flag). */
export async function setOperator(deps: Deps, userId: string, operator: boolean): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await lockActiveOperators(deps, trx);
    await setOperatorIn(deps, trx, userId, operator);
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (user) await keepAnActiveOperator(trx, before, user);
  });
}

async function setOperatorIn(deps: Deps, trx: Transaction<Database>, userId: string, operator: boolean) {
  if (operator)
    await trx
      .insertInto('operators')
      .values({ user_id: userId, created_at: deps.clock.now().toISOString() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  else await trx.deleteFrom('operators').where('user_id', '=', userId).execute();
}
