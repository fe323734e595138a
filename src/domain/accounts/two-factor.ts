// Two-factor sign-in of password accounts: an authenticator app (TOTP, RFC 6238, through the
// `otpauth` library), ten single-use recovery codes, and passkeys (passkeys.ts). Two-factor is on
// while the account has an app or a passkey; recovery codes come with it.
//
// - The app's secret is sealed under the server key (ServerSecrets.seal); a new secret waits in
//   `totp_pending_secret` until a first code confirms it.
// - A code is accepted once: its time step is claimed by one conditional UPDATE
//   (`totp_last_step < step`), atomic on both databases, so the same code posted to several servers
//   at once signs in at most once, and no code of that step or before works again.
// - Recovery codes are stored as HMACs under the server key (a leaked table cannot be searched
//   offline); using one deletes its row, which only one request can do.
// - Between the password and the second factor the browser holds a signed, expiring proof
//   (`pendingProof`) naming the account and bound to its password hash: no server keeps state.
// - Wrong codes go through the sign-in throttle (limits/attempts.ts) under keys of their own
//   (a right password clears the account's password key, which must not reset code guesses).
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { addressKey } from '../../platform/addresses.js';
import { ApiError } from '../../platform/errors.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { attemptSucceeded, type Keys, type Refusal, reserveAttempt, waitText } from '../limits/attempts.js';
import { confirmPassword } from './credentials.js';
import { deviceKey, knownDevice } from './devices.js';
import { endOtherSessions } from './sessions.js';
import { ACCOUNT_POLICY, DEVICE_POLICY, IP_POLICY } from './sign-in.js';
import { findUserById, type User } from './users.js';

export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one are accepted too (clock drift). */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the password step's proof lasts while the second factor is asked for. */
export const PENDING_MS = 10 * 60_000;
const ISSUER = 'Survey Service';
const SEAL = 'totp-secret';
const PENDING = 'second-factor-pending';
const RECOVERY = 'recovery-code';
/** Recovery codes: 10 characters of an alphabet without look-alikes (about 50 bits), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type SecondFactor = 'totp' | 'recovery_code' | 'passkey';

export interface TwoFactorStatus {
  totp: boolean;
  /** An app secret waiting for its first code: the otpauth:// URI to show. */
  pendingUri: string | null;
  pendingSecret: string | null;
  passkeys: Array<{ id: string; name: string; created_at: string; last_used_at: string | null }>;
  recoveryCodesLeft: number;
  /** Two-factor sign-in is on (an app or a passkey). */
  on: boolean;
}

/** An account that signs in with a password (every account made by sign-up or `user create`). */
export function isPasswordAccount(user: Pick<User, 'password_hash'>): boolean {
  return !!user.password_hash;
}

function totpOf(user: Pick<User, 'username'>, base32: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: user.username,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

function unsealed(deps: Deps, sealed: string | null): string | null {
  return sealed ? deps.secrets.unseal(SEAL, sealed) : null;
}

/** Which second factors the sign-in page offers the account. */
export async function signInFactors(
  deps: Deps,
  userId: string,
): Promise<{ app: boolean; passkeys: boolean }> {
  const k = deps.db.kysely;
  const [app, passkey] = await Promise.all([
    k
      .selectFrom('user_two_factor')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('totp_secret', 'is not', null)
      .executeTakeFirst(),
    k.selectFrom('passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
  ]);
  return { app: !!app, passkeys: !!passkey };
}

/** Whether the account has a second factor (an app or a passkey). */
export async function hasTwoFactor(deps: Deps, userId: string): Promise<boolean> {
  const f = await signInFactors(deps, userId);
  return f.app || f.passkeys;
}

/** Under REQUIRE_2FA, a password account without a second factor must set one up first. */
export async function mustSetUpTwoFactor(deps: Deps, user: User): Promise<boolean> {
  return deps.config.require2fa && isPasswordAccount(user) && !(await hasTwoFactor(deps, user.id));
}

export async function twoFactorStatus(deps: Deps, user: User): Promise<TwoFactorStatus> {
  const k = deps.db.kysely;
  const [row, passkeys, codes] = await Promise.all([
    k.selectFrom('user_two_factor').selectAll().where('user_id', '=', user.id).executeTakeFirst(),
    k
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute(),
    k
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
  ]);
  const totp = !!row?.totp_secret;
  const pendingSecret = totp ? null : unsealed(deps, row?.totp_pending_secret ?? null);
  return {
    totp,
    pendingSecret,
    pendingUri: pendingSecret ? totpOf(user, pendingSecret).toString() : null,
    passkeys,
    recoveryCodesLeft: Number(codes?.n ?? 0),
    on: totp || passkeys.length > 0,
  };
}

/** The account's two-factor row before any factor is set (passkeys.ts adds it too). */
export function twoFactorRow(userId: string, createdAt: string, pendingSecret: string | null = null) {
  return {
    user_id: userId,
    totp_secret: null,
    totp_enabled_at: null,
    totp_last_step: null,
    totp_pending_secret: pendingSecret,
    passkey_last_challenge_at: null,
    created_at: createdAt,
  };
}

/** A new app secret for the account, waiting for its first code (replaces one waiting before). */
export async function startTotpEnrolment(deps: Deps, user: User): Promise<void> {
  const status = await twoFactorStatus(deps, user);
  if (status.totp) throw new ApiError(1026, 'An authenticator app is already set up. Remove it first.');
  const sealed = deps.secrets.seal(SEAL, new Secret({ size: 20 }).base32);
  await deps.db.kysely
    .insertInto('user_two_factor')
    .values(twoFactorRow(user.id, deps.clock.now().toISOString(), sealed))
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ totp_pending_secret: sealed }))
    .execute();
}

/** The time step a 6-digit code belongs to for `secret` now, or null when it matches none near. */
function codeStep(deps: Deps, user: User, secret: string, code: string): number | null {
  const timestamp = deps.clock.now().getTime();
  const delta = totpOf(user, secret).validate({ token: code, timestamp, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

const normalized = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * Confirms the waiting app secret with its first code: the app is on from now. Returns the new
 * recovery codes (shown once) when this turned two-factor sign-in on, and then ends the account's
 * other sessions; null when another factor was on already.
 */
export async function confirmTotp(
  deps: Deps,
  user: User,
  code: string,
  keepSessionId: string | null,
): Promise<string[] | null> {
  const status = await twoFactorStatus(deps, user);
  if (status.totp) throw new ApiError(1026, 'An authenticator app is already set up.');
  if (!status.pendingSecret) throw new ApiError(1025, 'Start the set-up again: no new secret is waiting.');
  const step = /^\d{6}$/.test(normalized(code))
    ? codeStep(deps, user, status.pendingSecret, normalized(code))
    : null;
  if (step === null)
    throw new ApiError(1002, 'That code is not correct. Enter the 6-digit code your app shows now.');
  const sealed = deps.secrets.seal(SEAL, status.pendingSecret);
  const now = deps.clock.now().toISOString();
  const codes = status.on ? null : recoveryCodes();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const set = await trx
      .updateTable('user_two_factor')
      .set({ totp_secret: sealed, totp_enabled_at: now, totp_last_step: step, totp_pending_secret: null })
      .where('user_id', '=', user.id)
      .where('totp_secret', 'is', null)
      .executeTakeFirst();
    if (set.numUpdatedRows !== 1n) throw new ApiError(1026, 'An authenticator app is already set up.');
    if (codes) await storeRecoveryCodes(deps, trx, user.id, codes);
  });
  if (codes) await endOtherSessions(deps, user.id, keepSessionId);
  return codes;
}

function recoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    while (code.length < 10) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

function recoveryHash(deps: Deps, userId: string, code: string): string {
  return deps.secrets.sign(RECOVERY, `${userId}:${normalized(code)}`);
}

type Trx = Transaction<Database>;

/** Replaces the account's recovery codes with `codes` (in the caller's transaction). */
export async function storeRecoveryCodes(
  deps: Deps,
  trx: Trx,
  userId: string,
  codes: string[],
): Promise<void> {
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('two_factor_recovery_codes')
    .values(codes.map((c) => ({ user_id: userId, code_hash: recoveryHash(deps, userId, c) })))
    .execute();
}

/** The first factor of an account that had none: new recovery codes, in the caller's transaction. */
export async function turnOnWith(deps: Deps, trx: Trx, userId: string): Promise<string[]> {
  const codes = recoveryCodes();
  await storeRecoveryCodes(deps, trx, userId, codes);
  return codes;
}

/** New recovery codes (the old ones stop working), after the password; shown once. */
export async function regenerateRecoveryCodes(
  deps: Deps,
  user: User,
  password: string,
  ip: string | null,
): Promise<string[]> {
  if (!(await twoFactorStatus(deps, user)).on) throw new ApiError(1025, 'Two-factor sign-in is off.');
  await confirmPassword(deps, user, password, ip);
  const codes = recoveryCodes();
  await deps.db.kysely.transaction().execute((trx) => storeRecoveryCodes(deps, trx, user.id, codes));
  return codes;
}

/** Refuses to take away the last factor while the operator requires two-factor sign-in. */
function keepRequired(deps: Deps, left: number): void {
  if (deps.config.require2fa && left === 0)
    throw new ApiError(
      1025,
      'This server requires two-factor sign-in: add another factor before you remove this one.',
    );
}

/** Removes everything two-factor (app, passkeys, recovery codes); true when something was on. */
async function dropAll(deps: Deps, userId: string): Promise<boolean> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    const row = await trx
      .deleteFrom('user_two_factor')
      .where('user_id', '=', userId)
      .returning('totp_secret')
      .executeTakeFirst();
    return passkeys.numDeletedRows > 0n || !!row?.totp_secret;
  });
}

/** Turns two-factor sign-in off (after the password): the app, passkeys and recovery codes go, and
 * the account's other sessions end. */
export async function turnOffTwoFactor(
  deps: Deps,
  user: User,
  password: string,
  ip: string | null,
  keepSessionId: string | null,
): Promise<void> {
  keepRequired(deps, 0);
  await confirmPassword(deps, user, password, ip);
  if (await dropAll(deps, user.id)) await endOtherSessions(deps, user.id, keepSessionId);
}

/** Removes the authenticator app (after the password); with no passkey left, two-factor is off. */
export async function removeTotp(
  deps: Deps,
  user: User,
  password: string,
  ip: string | null,
  keepSessionId: string | null,
): Promise<void> {
  const status = await twoFactorStatus(deps, user);
  if (!status.totp) throw new ApiError(1020, 'No authenticator app is set up.');
  keepRequired(deps, status.passkeys.length);
  await confirmPassword(deps, user, password, ip);
  if (status.passkeys.length === 0) {
    await dropAll(deps, user.id);
    await endOtherSessions(deps, user.id, keepSessionId);
    return;
  }
  await deps.db.kysely
    .updateTable('user_two_factor')
    .set({ totp_secret: null, totp_enabled_at: null })
    .where('user_id', '=', user.id)
    .execute();
}

/** Removes one passkey (after the password); the last factor going turns two-factor off. */
export async function removePasskey(
  deps: Deps,
  user: User,
  passkeyId: string,
  password: string,
  ip: string | null,
  keepSessionId: string | null,
): Promise<void> {
  const status = await twoFactorStatus(deps, user);
  if (!status.passkeys.some((p) => p.id === passkeyId)) throw new ApiError(1020, 'No such passkey.');
  const left = status.passkeys.length - 1 + (status.totp ? 1 : 0);
  keepRequired(deps, left);
  await confirmPassword(deps, user, password, ip);
  if (left === 0) {
    await dropAll(deps, user.id);
    await endOtherSessions(deps, user.id, keepSessionId);
    return;
  }
  await deps.db.kysely
    .deleteFrom('passkeys')
    .where('id', '=', passkeyId)
    .where('user_id', '=', user.id)
    .execute();
}

/** The operator's reset for a locked-out account (`user update --reset-2fa`): every factor goes,
 * and so do the account's sessions. Returns whether two-factor was on. */
export async function resetTwoFactor(deps: Deps, userId: string): Promise<boolean> {
  const was = await dropAll(deps, userId);
  await endOtherSessions(deps, userId, null);
  return was;
}

// ---------------------------------------------------------------------------------------------
// Sign-in: the step between the password and the second factor

/** A hint that changes when the password does, so a password change voids proofs issued before. */
const passwordTag = (user: User) => sha256(`${user.password_hash}`).slice(0, 16);

/** The proof that `user` gave the right password, for the browser to hold until the second factor
 * (`<user id>.<nonce>.<issued>.<mac>`). */
export function pendingProof(deps: Deps, user: User): string {
  const nonce = randomToken(18);
  const proof = deps.secrets.signAt(
    PENDING,
    `${user.id}:${nonce}:${passwordTag(user)}`,
    deps.clock.now().getTime(),
  );
  return `${user.id}.${nonce}.${proof}`;
}

export interface Pending {
  user: User;
  /** Unique to this password step: passkey challenges are bound to it. */
  nonce: string;
}

/** The account a pending proof names, while it is valid (signature, age, password unchanged). */
export async function pendingSignIn(deps: Deps, proof: string | undefined): Promise<Pending | null> {
  const m = /^(\d{1,20})\.([A-Za-z0-9_-]{24})\.([0-9a-z]{1,12}\.[A-Za-z0-9_-]{43})$/.exec(proof ?? '');
  if (!m) return null;
  const user = await findUserById(deps, m[1]);
  if (user?.status !== 'active') return null;
  const ok = deps.secrets.verifyAt(
    PENDING,
    `${user.id}:${m[2]}:${passwordTag(user)}`,
    m[3],
    deps.clock.now().getTime(),
    PENDING_MS,
  );
  return ok ? { user, nonce: m[2] } : null;
}

export type SecondFactorResult =
  | { ok: true; user: User; method: SecondFactor }
  | { ok: false; reason: 'invalid'; message: string }
  | { ok: false; reason: 'slow' | 'locked'; retryAfterSeconds: number; message: string };

/**
 * Counts one second-factor attempt, as sign-in counts passwords: under the browser's device token
 * when it has one of the account (its owner's browser is not held by guesses made elsewhere; a
 * token locked by its own failures is then an unknown device), else under the account's and the
 * address's keys. Keys of their own: a right password clears the account's password key, which
 * must not reset the count of wrong codes. Returns the keys counted, or the refusal.
 */
async function reserveSecondFactor(
  deps: Deps,
  user: User,
  ip: string | null,
  devices: string | undefined,
): Promise<{ keys: Keys } | Refusal> {
  const device = knownDevice(deps, devices, user.id);
  if (device) {
    const keys: Keys = [[`second-factor:${deviceKey(device)}`, DEVICE_POLICY]];
    const refused = await reserveAttempt(deps, keys);
    if (!refused) return { keys };
    if (refused.reason !== 'locked') return refused;
  }
  const keys: Keys = [[`second-factor:user:${user.id}`, ACCOUNT_POLICY]];
  if (ip) keys.push([`ip:${addressKey(ip)}`, IP_POLICY]);
  return (await reserveAttempt(deps, keys)) ?? { keys };
}

/**
 * Checks the second factor of a pending sign-in, counted by the sign-in throttle before it is
 * checked. `verify` does the check (a code here, a passkey in passkeys.ts) and claims what it used.
 */
export async function checkSecondFactor(
  deps: Deps,
  pending: Pending,
  ip: string | null,
  devices: string | undefined,
  verify: () => Promise<SecondFactor | null>,
): Promise<SecondFactorResult> {
  const reserved = await reserveSecondFactor(deps, pending.user, ip, devices);
  if (!('keys' in reserved))
    return {
      ok: false,
      ...reserved,
      message:
        reserved.reason === 'locked'
          ? `Too many wrong codes. Try again in ${waitText(reserved.retryAfterSeconds)}.`
          : `Too many wrong codes. Wait ${waitText(reserved.retryAfterSeconds)} before trying again.`,
    };
  const { keys } = reserved;
  const method = await verify();
  if (!method)
    return { ok: false, reason: 'invalid', message: 'That code is not correct, or was used already.' };
  await attemptSucceeded(deps, [keys[0][0]], keys.slice(1));
  return { ok: true, user: pending.user, method };
}

/** Checks a code typed at sign-in: the app's 6-digit code (its step claimed once) or a recovery
 * code (deleted as it is used). */
export async function verifyCode(deps: Deps, user: User, code: string): Promise<SecondFactor | null> {
  const typed = normalized(code);
  const k = deps.db.kysely;
  if (/^\d{6}$/.test(typed)) {
    const row = await k
      .selectFrom('user_two_factor')
      .select('totp_secret')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const secret = unsealed(deps, row?.totp_secret ?? null);
    const step = secret ? codeStep(deps, user, secret, typed) : null;
    if (step === null) return null;
    const claimed = await k
      .updateTable('user_two_factor')
      .set({ totp_last_step: step })
      .where('user_id', '=', user.id)
      .where('totp_secret', 'is not', null)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return claimed.numUpdatedRows === 1n ? 'totp' : null;
  }
  if (!/^[a-z0-9]{10}$/.test(typed)) return null;
  const used = await k
    .deleteFrom('two_factor_recovery_codes')
    .where('user_id', '=', user.id)
    .where('code_hash', '=', recoveryHash(deps, user.id, typed))
    .executeTakeFirst();
  return used.numDeletedRows === 1n ? 'recovery_code' : null;
}
