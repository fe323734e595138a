// Browser sessions: a random id in an HttpOnly cookie, only its SHA-256 in the database, so a
// leaked database cannot be replayed as cookies and any process can check a session.
import type { Deps } from '../../context.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { recordEvent } from '../core/events.js';
import { findUserById, type User } from './users.js';

export const SESSION_DAYS = 14;

/** How a session began (the sign-in event says it; `method` defaults to the password). */
export interface SessionMeta {
  userAgent?: string | null;
  method?: 'password' | 'oidc' | 'saml';
  secondFactor?: 'totp' | 'recovery_code' | 'passkey' | null;
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
  await deps.db.kysely.transaction().execute(async (trx) => {
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
      ...(meta?.method && meta.method !== 'password' ? { data: { method: meta.method } } : {}),
    });
  });
  return id;
}

/** The active user of a session cookie value, or null (unknown, expired, or account not active). */
export async function sessionUser(deps: Deps, sessionId: string | undefined): Promise<User | null> {
  if (!sessionId) return null;
  const row = await deps.db.kysely
    .selectFrom('sessions')
    .select(['user_id', 'expires_at'])
    .where('session_hash', '=', sha256(sessionId))
    .executeTakeFirst();
  if (!row || row.expires_at <= deps.clock.now().toISOString()) return null;
  const user = await findUserById(deps, row.user_id);
  return user && user.status === 'active' ? user : null;
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
    await recordEvent(deps, trx, eventId, {
      type: 'authentication_signout',
      ownerId: row.user_id,
      actorId: row.user_id,
      resourceType: 'user',
      resourceId: row.user_id,
      ip,
    });
  });
}

/** Drops a session without a sign-out event (a new sign-in replaces the old session). */
export async function dropSession(deps: Deps, sessionId: string): Promise<void> {
  await deps.db.kysely.deleteFrom('sessions').where('session_hash', '=', sha256(sessionId)).execute();
}
