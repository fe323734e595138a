// The rules of two-factor sign-in (src/domain/accounts/two-factor.ts), as the security page and the
// second sign-in step call them: a first code confirms the app; a code's step and a recovery code
// are used once; the password step's proof expires and dies with a password change; removing the
// last factor needs the password and is refused while the operator requires two-factor sign-in.
import { URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePassword } from '../../src/domain/accounts/credentials.js';
import {
  confirmTotp,
  PENDING_MS,
  pendingProof,
  pendingSignIn,
  removeTotp,
  startTotpEnrolment,
  turnOffTwoFactor,
  twoFactorStatus,
  verifyCode,
} from '../../src/domain/accounts/two-factor.js';
import { findUserById } from '../../src/domain/accounts/users.js';
import { type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let strict: DomainTest;

beforeAll(async () => {
  [t, strict] = await Promise.all([openDomain(), openDomain({ REQUIRE_2FA: 'true' })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), strict?.close()]);
});

async function withApp(on: DomainTest) {
  const a = await on.account();
  await startTotpEnrolment(on.deps, a.user);
  const status = await twoFactorStatus(on.deps, a.user);
  const totp = URI.parse(status.pendingUri!);
  const code = () => totp.generate({ timestamp: on.clock.now().getTime() });
  await refused(confirmTotp(on.deps, a.user, '000000', null), 1002, /not correct/);
  const codes = await confirmTotp(on.deps, a.user, code(), null);
  expect(codes).toHaveLength(10);
  on.clock.advance(30_000);
  return { a, code, codes: codes! };
}

describe('codes', () => {
  it('accepts a code of the app once, and not an older one after a newer', async () => {
    const { a, code } = await withApp(t);
    const now = code();
    expect(await verifyCode(t.deps, a.user, now)).toBe('totp');
    expect(await verifyCode(t.deps, a.user, now), 'replayed').toBeNull();
    t.clock.advance(30_000);
    const later = code();
    t.clock.advance(-30_000);
    expect(await verifyCode(t.deps, a.user, later), 'the next step, within the window').toBe('totp');
    expect(await verifyCode(t.deps, a.user, code()), 'an older step after a newer one').toBeNull();
    t.clock.advance(60_000);
  });

  it('takes each recovery code once, in any case and with or without the dash', async () => {
    const { a, codes } = await withApp(t);
    expect(await verifyCode(t.deps, a.user, codes[0].replace('-', ' ').toUpperCase())).toBe('recovery_code');
    expect(await verifyCode(t.deps, a.user, codes[0])).toBeNull();
    expect((await twoFactorStatus(t.deps, a.user)).recoveryCodesLeft).toBe(9);
  });
});

describe('the password step', () => {
  it('expires after PENDING_MS and dies with a password change', async () => {
    const a = await t.account();
    const proof = pendingProof(t.deps, a.user);
    expect((await pendingSignIn(t.deps, proof))?.user.id).toBe(a.user.id);
    t.clock.advance(PENDING_MS + 1);
    expect(await pendingSignIn(t.deps, proof)).toBeNull();
    const fresh = pendingProof(t.deps, a.user);
    await changePassword(t.deps, a.user, a.password, 'another good password', '192.0.2.30', null);
    expect(await pendingSignIn(t.deps, fresh)).toBeNull();
    const user = await findUserById(t.deps, a.user.id);
    expect((await pendingSignIn(t.deps, pendingProof(t.deps, user!)))?.user.id).toBe(a.user.id);
  });
});

describe('turning it off', () => {
  it('needs the password', async () => {
    const { a } = await withApp(t);
    await refused(
      turnOffTwoFactor(t.deps, a.user, 'wrong', '192.0.2.31', null),
      1002,
      /password is not correct/,
    );
    expect((await twoFactorStatus(t.deps, a.user)).on).toBe(true);
    await turnOffTwoFactor(t.deps, a.user, a.password, '192.0.2.31', null);
    expect((await twoFactorStatus(t.deps, a.user)).on).toBe(false);
  });

  it('is refused for the last factor while REQUIRE_2FA holds', async () => {
    const { a } = await withApp(strict);
    await refused(
      turnOffTwoFactor(strict.deps, a.user, a.password, '192.0.2.32', null),
      1025,
      /requires two-factor/,
    );
    await refused(
      removeTotp(strict.deps, a.user, a.password, '192.0.2.32', null),
      1025,
      /requires two-factor/,
    );
    expect((await twoFactorStatus(strict.deps, a.user)).on).toBe(true);
  });
});
