// The account page's password rules (src/web/account/password.ts → domain/accounts): a change needs
// the current password and a long enough new one; a reset link sets a new password once. The page
// tests (accounts.e2e) go through the same forms in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePassword } from '../../src/domain/accounts/credentials.js';
import { issueLink } from '../../src/domain/accounts/links.js';
import { resetPassword } from '../../src/domain/accounts/password-reset.js';
import { signIn } from '../../src/domain/accounts/sign-in.js';
import { type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;

beforeAll(async () => {
  t = await openDomain();
});
afterAll(() => t?.close());

const signsIn = async (username: string, password: string) =>
  (await signIn(t.deps, username, password, '192.0.2.20')).ok;

describe('changing the password', () => {
  it('needs the current password and a new one of at least 8 characters', async () => {
    const a = await t.account();
    await refused(
      changePassword(t.deps, a.user, 'wrong password', 'a new password', '192.0.2.20', null),
      1002,
      'The current password is not correct.',
    );
    await refused(
      changePassword(t.deps, a.user, a.password, 'short', '192.0.2.20', null),
      1002,
      'password must be at least 8 characters',
    );
    expect(await signsIn(a.user.username, a.password)).toBe(true);
    await changePassword(t.deps, a.user, a.password, 'a new password', '192.0.2.20', null);
    expect(await signsIn(a.user.username, 'a new password')).toBe(true);
    expect(await signsIn(a.user.username, a.password)).toBe(false);
  });
});

describe('a reset link', () => {
  it('sets a new password once; the old one stops working', async () => {
    const a = await t.account();
    const token = await issueLink(t.deps, t.deps.db.kysely, 'reset_password', a.user.id, a.user.email);
    // too short: refused before the link is used, so it can be tried again
    await refused(resetPassword(t.deps, token, 'short'), 1002);
    expect(await resetPassword(t.deps, token, 'brand new secret')).toBe(true);
    expect(await resetPassword(t.deps, token, 'another new secret')).toBe(false);
    expect(await signsIn(a.user.username, 'brand new secret')).toBe(true);
    expect(await signsIn(a.user.username, a.password)).toBe(false);
  });

  it('expires after an hour', async () => {
    const a = await t.account();
    const token = await issueLink(t.deps, t.deps.db.kysely, 'reset_password', a.user.id, a.user.email);
    const now = t.clock.now();
    try {
      t.clock.advance(60 * 60_000 + 1000);
      expect(await resetPassword(t.deps, token, 'brand new secret')).toBe(false);
    } finally {
      t.clock.set(now);
    }
    expect(await signsIn(a.user.username, a.password)).toBe(true);
  });
});
