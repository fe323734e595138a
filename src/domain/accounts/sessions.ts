// Browser sessions: a random id in an HttpOnly cookie, only its SHA-256 in the database, so a
// leaked database cannot be replayed as cookies and any process can check a session. Each session
// also keeps the browser's User-Agent, when it was last seen and a random public id that names it
// in the security page's forms (the cookie value and its hash never leave the server).
//
// Ending a session is one committed DELETE, and every page request looks its session up in the
// database (no process remembers a session between requests), so an ended session is signed out
// on the next request to any server. A cache of sessions would have to be keyed by an epoch that
// every delete moves in its own transaction, as the API's callers are (db/caller-epoch.ts).
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { deviceName, MAX_USER_AGENT } from '../../platform/user-agents.js';
import { recordSignIn } from '../audit/log.js';
import { recordEvent } from '../core/events.js';
import type { User } from './users.js';

export const SESSION_DAYS = 14;

/**
 * "Last seen" moves at most once per 5 minutes per session: a busy session writes its row at most
 * 12 times an hour instead of once per request, and the list still tells "now" from "an hour ago"
 * (it shows minutes). One conditional UPDATE does it, so concurrent requests on any number of
 * servers write it once.
 */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

type Executor = Kysely<Database> | Transaction<Database>;

/** How a sign-in happened: every way of signing in starts its session here, which writes its row
 * of the audit log in the session's transaction. */
export interface SessionMeta {
  userAgent?: string | null;
  method?: 'password' | 'oidc' | 'saml';
  secondFactor?: 'totp' | 'recovery_code' | 'passkey' | null;
}

/** A session as its owner's security page shows it. */
export interface SessionView {
  /** Names the session in forms; not secret (ending one needs its owner's signed-in session). */
  publicId: string | null;
  device: string;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session of the request that asked. */
  current: boolean;
}

export async function startSession(
  deps: Deps,
  user: User,
  ip: string | null,
  meta?: SessionMeta,
): Promise<string> {
  const id = randomToken(32);
  const now = deps.clock.now();
  const [eventId] = await deps.ids.take(1);
  const method = meta?.method ?? 'password';
  // What the sign-in event says beyond a password sign-in: single sign-on, a second factor.
  const said = {
    ...(method !== 'password' ? { method } : {}),
    ...(meta?.secondFactor ? { second_factor: meta.secondFactor } : {}),
  };
  // The sign-in's row is its own (below): the request's scope (a consent form) keeps its row.
  await deps.audit.apart(() =>
    deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('sessions')
        .where('user_id', '=', user.id)
        .where('expires_at', '<=', now.toISOString())
        .execute();
      await trx
        .insertInto('sessions')
        .values({
          session_hash: sha256(id),
          user_id: user.id,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
          ip,
          user_agent: meta?.userAgent ? meta.userAgent.slice(0, MAX_USER_AGENT) : null,
          last_seen_at: now.toISOString(),
          public_id: randomToken(16),
        })
        .execute();
      await trx
        .updateTable('users')
        .set({ date_last_login: now.toISOString() })
        .where('id', '=', user.id)
        .execute();
      await recordEvent(deps, trx, eventId, {
        type: 'authentication_succeeded',
        ownerId: user.id,
        actorId: user.id,
        resourceType: 'user',
        resourceId: user.id,
        ip,
        ...(Object.keys(said).length > 0 ? { data: said } : {}),
      });
      await recordSignIn(deps, trx, {
        user,
        via: method === 'oidc' || method === 'saml' ? method : 'session',
        ip,
        outcome: 'ok',
        secondFactor: meta?.secondFactor ?? null,
      });
    }),
  );
  return id;
}

/**
 * The active user of a session cookie value, or null (unknown, expired, or account not active).
 * One read of the session with its account; and, when the session was last seen more than
 * LAST_SEEN_EVERY_MS ago, one conditional UPDATE that moves it (a no-op if another request moved
 * it first).
 */
export async function sessionUser(deps: Deps, sessionId: string | undefined): Promise<User | null> {
  if (!sessionId) return null;
  const hash = sha256(sessionId);
  const row = await deps.db.kysely
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.expires_at as session_expires_at', 's.last_seen_at as session_last_seen_at'])
    .where('s.session_hash', '=', hash)
    .executeTakeFirst();
  const now = deps.clock.now();
  if (!row || row.session_expires_at <= now.toISOString()) return null;
  const { session_expires_at: _, session_last_seen_at: lastSeen, ...user } = row;
  if (user.status !== 'active') return null;
  const stale = new Date(now.getTime() - LAST_SEEN_EVERY_MS).toISOString();
  if (lastSeen === null || lastSeen <= stale) await touchSession(deps, hash, now.toISOString(), stale);
  return user;
}

/** Moves `last_seen_at` to `now` unless a request after `stale` already did. A row a server
 * without the public id made (during a rolling upgrade) gets one here. */
async function touchSession(deps: Deps, hash: string, now: string, stale: string): Promise<void> {
  await deps.db.kysely
    .updateTable('sessions')
    .set((eb) => ({
      last_seen_at: now,
      public_id: eb.fn.coalesce('public_id', eb.val(randomToken(16))),
    }))
    .where('session_hash', '=', hash)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<=', stale)]))
    .execute();
}

/** The account's sessions that have not expired, the most recently seen first; `currentSessionId`
 * (the cookie value of the request) marks its own. */
export async function listSessions(
  deps: Deps,
  userId: string,
  currentSessionId: string | null | undefined,
): Promise<SessionView[]> {
  const rows = await deps.db.kysely
    .selectFrom('sessions')
    .select(['session_hash', 'public_id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', deps.clock.now().toISOString())
    .execute();
  const current = currentSessionId ? sha256(currentSessionId) : null;
  return rows
    .map((r) => ({
      publicId: r.public_id,
      device: deviceName(r.user_agent),
      ip: r.ip,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at ?? r.created_at,
      current: r.session_hash === current,
    }))
    .sort(
      (a, b) =>
        Number(b.current) - Number(a.current) ||
        b.lastSeenAt.localeCompare(a.lastSeenAt) ||
        b.createdAt.localeCompare(a.createdAt),
    );
}

/** The sign-out event of a session its owner ended. */
function signOutEvent(userId: string, ip: string | null) {
  return {
    type: 'authentication_signout' as const,
    ownerId: userId,
    actorId: userId,
    resourceType: 'user',
    resourceId: userId,
    ip,
  };
}

/**
 * Ends one of the account's sessions by its public id, at once for every server. Only the owner's
 * own sessions: another account's id (or one already ended) is 404/1020 and changes nothing.
 */
export async function endSessionById(
  deps: Deps,
  userId: string,
  publicId: string,
  ip: string | null,
): Promise<void> {
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const ended = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('public_id', '=', publicId)
      .executeTakeFirst();
    if (Number(ended.numDeletedRows) === 0)
      throw new ApiError(1020, 'There is no such session of your account.');
    await recordEvent(deps, trx, eventId, signOutEvent(userId, ip));
  });
}

/**
 * Ends every session of the account but `keepSessionId` (the cookie value of the session that
 * stays, e.g. `sessionId(request)`; null ends them all); the number ended. Pass `db` to do it in
 * the transaction of the change that calls for it (a new password, a new second factor).
 */
export async function endOtherSessions(
  deps: Deps,
  userId: string,
  keepSessionId: string | null | undefined,
  db: Executor = deps.db.kysely,
): Promise<number> {
  let others = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) others = others.where('session_hash', '!=', sha256(keepSessionId));
  const ended = await others.executeTakeFirst();
  return Number(ended.numDeletedRows);
}

/** "Sign out all other sessions" of the security page: endOtherSessions with a sign-out event. */
export async function signOutOtherSessions(
  deps: Deps,
  userId: string,
  keepSessionId: string,
  ip: string | null,
): Promise<number> {
  const [eventId] = await deps.ids.take(1);
  return deps.db.kysely.transaction().execute(async (trx) => {
    const n = await endOtherSessions(deps, userId, keepSessionId, trx);
    if (n > 0) await recordEvent(deps, trx, eventId, signOutEvent(userId, ip));
    return n;
  });
}

export async function endSession(deps: Deps, sessionId: string, ip: string | null): Promise<void> {
  const hash = sha256(sessionId);
  const row = await deps.db.kysely
    .selectFrom('sessions')
    .select('user_id')
    .where('session_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return;
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('session_hash', '=', hash).execute();
    await recordEvent(deps, trx, eventId, signOutEvent(row.user_id, ip));
  });
}

/** Drops a session without a sign-out event (a new sign-in replaces the old session). */
export async function dropSession(deps: Deps, sessionId: string): Promise<void> {
  await deps.db.kysely.deleteFrom('sessions').where('session_hash', '=', sha256(sessionId)).execute();
}
