// Single sign-on's account rules (domain/accounts/sso.ts) and SSO_REQUIRED's refusal of password
// sign-in (domain/accounts/sign-in.ts), called as the SSO pages and the sign-in page call them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../src/domain/accounts/sign-in.js';
import { accountForIdentity, SsoError, type VerifiedIdentity } from '../../src/domain/accounts/sso.js';
import { setOperator } from '../../src/domain/accounts/users.js';
import { type DomainTest, openDomain } from './setup.js';

let t: DomainTest;
beforeAll(async () => {
  t = await openDomain({
    OIDC_ISSUER: 'https://id.example.com',
    OIDC_CLIENT_ID: 'survey',
    OIDC_CLIENT_SECRET: 'secret',
    OIDC_ALLOWED_DOMAINS: 'example.com',
    SSO_REQUIRED: 'true',
  });
});
afterAll(() => t?.close());

const identity = (subject: string, email: string | null, emailVerified = true): VerifiedIdentity => ({
  protocol: 'oidc',
  issuer: 'https://id.example.com',
  subject,
  email,
  emailVerified,
  firstName: null,
  lastName: null,
});

async function refusedWith(promise: Promise<unknown>, reason: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SsoError);
  expect((err as SsoError).reason).toBe(reason);
}

const count = async (table: 'users' | 'user_identities') =>
  Number(
    (
      await t.deps.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('single sign-on account rules', () => {
  it('does not link an account whose own address is unconfirmed, nor make one from an unverified claim', async () => {
    const account = await t.account({ username: 'unconfirmed' });
    await t.deps.db.kysely
      .updateTable('users')
      .set({ email_verified: 0 })
      .where('id', '=', account.user.id)
      .execute();
    const before = [await count('users'), await count('user_identities')];
    await refusedWith(accountForIdentity(t.deps, identity('s1', 'unconfirmed@example.com')), 'unconfirmed');
    await refusedWith(accountForIdentity(t.deps, identity('s2', 'new@example.com', false)), 'unverified');
    await refusedWith(accountForIdentity(t.deps, identity('s3', null)), 'domain');
    await refusedWith(accountForIdentity(t.deps, identity('s4', 'x@example.com.evil.net')), 'domain');
    expect([await count('users'), await count('user_identities')]).toEqual(before);
  });

  it('refuses a suspended account', async () => {
    const account = await t.account({ username: 'suspended' });
    await t.deps.db.kysely
      .updateTable('users')
      .set({ status: 'soft_deleted' })
      .where('id', '=', account.user.id)
      .execute();
    await refusedWith(accountForIdentity(t.deps, identity('s5', 'suspended@example.com')), 'inactive');
  });

  it('makes one account of concurrent first sign-ins of one person', async () => {
    const before = await count('users');
    const users = await Promise.all(
      [1, 2, 3, 4].map(() => accountForIdentity(t.deps, identity('same', 'same@example.com'))),
    );
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(await count('users')).toBe(before + 1);
  });

  it('under SSO_REQUIRED refuses password sign-in to everyone but operators, whose password still works', async () => {
    const person = await t.account({ username: 'person', password: 'person-password' });
    const operator = await t.account({ username: 'operator', password: 'operator-password' });
    await setOperator(t.deps, operator.user.id, true);
    expect(await signIn(t.deps, 'person', 'person-password', '192.0.2.1')).toEqual({
      ok: false,
      reason: 'sso_required',
    });
    expect(await signIn(t.deps, 'nobody', 'whatever-password', '192.0.2.1')).toEqual({
      ok: false,
      reason: 'sso_required',
    });
    expect((await signIn(t.deps, 'operator', 'operator-password', '192.0.2.1')).ok).toBe(true);
    expect((await signIn(t.deps, 'operator', 'wrong-password', '192.0.2.1')).ok).toBe(false);
    expect(person.user.id).toBeTruthy();
  });
});
