// The account page's password rules (src/web/account/password.ts → domain/accounts): a change needs
// the current password and a long enough new one; a reset link sets a new password once. The page
// tests (accounts.e2e) go through the same forms in the browser. Signed-in sessions: "last seen"
// written at most once per few minutes, only the owner ends a session, ending the others.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePassword } from '../../src/domain/accounts/credentials.js';
import { issueLink } from '../../src/domain/accounts/links.js';
import { resetPassword } from '../../src/domain/accounts/password-reset.js';
import {
  endOtherSessions,
  endSessionById,
  LAST_SEEN_EVERY_MS,
  listSessions,
  sessionUser,
  startSession,
} from '../../src/domain/accounts/sessions.js';
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

describe('signed-in sessions', () => {
  const lastSeen = async (sessionId: string) =>
    (
      await t.deps.db.kysely
        .selectFrom('sessions')
        .select(['last_seen_at', 'public_id'])
        .where('session_hash', '=', createHash('sha256').update(sessionId).digest('hex'))
        .executeTakeFirstOrThrow()
    ).last_seen_at;

  it('moves "last seen" at most once per LAST_SEEN_EVERY_MS, once under concurrent requests', async () => {
    const a = await t.account();
    const start = t.clock.now().toISOString();
    const id = await startSession(t.deps, a.user, '192.0.2.20', { userAgent: 'Mozilla/5.0 Firefox/133.0' });
    expect(await lastSeen(id)).toBe(start);
    t.clock.advance(LAST_SEEN_EVERY_MS - 1000);
    expect((await sessionUser(t.deps, id))?.id).toBe(a.user.id);
    expect(await lastSeen(id)).toBe(start);
    t.clock.advance(2000);
    const now = t.clock.now().toISOString();
    const users = await Promise.all(Array.from({ length: 8 }, () => sessionUser(t.deps, id)));
    expect(users.map((u) => u?.id)).toEqual(Array(8).fill(a.user.id));
    expect(await lastSeen(id)).toBe(now);
  });

  it('gives a session made without an id or time (a server before them) both on its next request', async () => {
    const a = await t.account();
    const id = await startSession(t.deps, a.user, null);
    await t.deps.db.kysely
      .updateTable('sessions')
      .set({ public_id: null, last_seen_at: null })
      .where('user_id', '=', a.user.id)
      .execute();
    expect((await sessionUser(t.deps, id))?.id).toBe(a.user.id);
    const [s] = await listSessions(t.deps, a.user.id, id);
    expect(s.publicId).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(s.lastSeenAt).toBe(t.clock.now().toISOString());
    expect(s).toMatchObject({ current: true, device: 'Unknown browser' });
  });

  it("lets only the owner end a session: another account's id is not found and ends nothing", async () => {
    const a = await t.account();
    const b = await t.account();
    const mine = await startSession(t.deps, a.user, null, { userAgent: 'Mozilla/5.0 Firefox/133.0' });
    const theirs = await startSession(t.deps, b.user, null);
    const [their] = await listSessions(t.deps, b.user.id, theirs);
    await refused(endSessionById(t.deps, a.user.id, their.publicId!, null), 1020);
    expect((await sessionUser(t.deps, theirs))?.id).toBe(b.user.id);
    const [own] = await listSessions(t.deps, a.user.id, null);
    expect(own.current).toBe(false);
    await endSessionById(t.deps, a.user.id, own.publicId!, null);
    expect(await sessionUser(t.deps, mine)).toBeNull();
    await refused(endSessionById(t.deps, a.user.id, own.publicId!, null), 1020);
  });

  it('ends every session but the one kept (all of them without one)', async () => {
    const a = await t.account();
    const b = await t.account();
    const ids = [await startSession(t.deps, a.user, null), await startSession(t.deps, a.user, null)];
    ids.push(await startSession(t.deps, a.user, null));
    const other = await startSession(t.deps, b.user, null);
    expect(await endOtherSessions(t.deps, a.user.id, ids[1])).toBe(2);
    expect((await Promise.all(ids.map((id) => sessionUser(t.deps, id)))).map((u) => u?.id ?? null)).toEqual([
      null,
      a.user.id,
      null,
    ]);
    expect(await endOtherSessions(t.deps, a.user.id, null)).toBe(1);
    expect(await sessionUser(t.deps, ids[1])).toBeNull();
    expect((await sessionUser(t.deps, other))?.id).toBe(b.user.id);
  });
});
