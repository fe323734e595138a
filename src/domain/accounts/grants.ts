// OAuth grants: authorization codes (single use, five minutes, bound to the app and redirect URI,
// stored hashed, optionally PKCE S256), their exchange for the one OAuth token an account holds per
// app (beside an app owner's registration token),
// and revocation from the linked-apps page. Issuing and revoking record events.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../context.js';
import type { Scope } from '../../platform/scopes.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { recordEvent } from '../core/events.js';
import { type App, clientSecret } from './apps.js';
import { deleteGrantWebhooks } from './grant-end.js';

export const CODE_TTL_MS = 5 * 60_000;

export async function createCode(
  deps: Deps,
  input: { app: App; userId: string; redirectUri: string; scopes: Scope[]; codeChallenge: string | null },
): Promise<string> {
  const code = randomToken(32);
  const now = deps.clock.now();
  // Codes are kept a day after they expire (a replay is still recognised), then dropped.
  await deps.db.kysely
    .deleteFrom('auth_codes')
    .where('expires_at', '<', new Date(now.getTime() - 86_400_000).toISOString())
    .execute();
  await deps.db.kysely
    .insertInto('auth_codes')
    .values({
      code_hash: sha256(code),
      app_id: input.app.id,
      user_id: input.userId,
      redirect_uri: input.redirectUri,
      scopes: JSON.stringify(input.scopes),
      code_challenge: input.codeChallenge,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
      used_at: null,
      token_id: null,
    })
    .execute();
  return code;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function secretMatches(deps: Deps, app: App, secret: string): boolean {
  return equal(clientSecret(deps, app), secret);
}

export type ExchangeResult =
  | { ok: true; token: string; userId: string }
  | { ok: false; error: 'invalid_grant'; description: string };

/**
 * Exchanges a code for the account's token for the app. The code is claimed with one conditional
 * update, so of two concurrent exchanges only one wins; a replayed code also revokes the token
 * its first use issued, and no other (RFC 6749 §4.1.2).
 */
export async function exchangeCode(
  deps: Deps,
  app: App,
  code: string,
  redirectUri: string,
  codeVerifier: string | undefined,
  ip: string | null,
): Promise<ExchangeResult> {
  const k = deps.db.kysely;
  const hash = sha256(code);
  const row = await k.selectFrom('auth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  const fail = (description: string): ExchangeResult => ({ ok: false, error: 'invalid_grant', description });
  if (!row || row.app_id !== app.id) return fail('The authorization code is not valid.');
  if (row.used_at) {
    // Only the token this code issued (RFC 6749 §4.1.2): the owner's registration token and
    // tokens of later codes were not obtained with it.
    if (row.token_id) await revokeTokenById(deps, row.token_id);
    return fail('The authorization code has already been used.');
  }
  const now = deps.clock.now();
  if (row.expires_at <= now.toISOString()) return fail('The authorization code has expired.');
  // The address may have changed (and be unconfirmed) since the code was made.
  const user = await k
    .selectFrom('users')
    .select('email_verified')
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  if (!user?.email_verified) return fail("The account's email address is not confirmed.");
  if (row.redirect_uri !== redirectUri)
    return fail('redirect_uri does not match the one the code was issued for.');
  if (row.code_challenge) {
    if (!codeVerifier) return fail('code_verifier is required for this code.');
    const computed = createHash('sha256').update(codeVerifier).digest('base64url');
    if (!equal(computed, row.code_challenge)) return fail('code_verifier does not match the code challenge.');
  }
  const token = randomToken(48);
  const [tokenId, ev1, ev2] = await deps.ids.take(3);
  const claimed = await k.transaction().execute(async (trx) => {
    const claim = await trx
      .updateTable('auth_codes')
      .set({ used_at: now.toISOString(), token_id: tokenId })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) return false;
    // Serialise grants of one account on PostgreSQL (SQLite serialises writers already), so two
    // exchanges at once cannot leave two active OAuth tokens for the same app.
    if (deps.db.dialect === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', row.user_id).forUpdate().execute();
    // One OAuth token per account and app: the new grant replaces an earlier one. The owner's
    // registration token (app create) is a credential of its own and stays.
    await trx
      .updateTable('tokens')
      .set({ status: 'revoked', revoked_at: now.toISOString() })
      .where('app_id', '=', app.id)
      .where('user_id', '=', row.user_id)
      .where('status', '=', 'active')
      .where('origin', '=', 'oauth')
      .execute();
    await trx
      .insertInto('tokens')
      .values({
        id: tokenId,
        token_hash: sha256(token),
        app_id: app.id,
        user_id: row.user_id,
        scopes: row.scopes,
        status: 'active',
        created_at: now.toISOString(),
        revoked_at: null,
        origin: 'oauth',
      })
      .execute();
    const data = { app_id: app.id, app_name: app.name, scopes: JSON.parse(row.scopes) };
    for (const [id, type] of [
      [ev1, 'grant_info_created'],
      [ev2, 'app_installed'],
    ] as const)
      await recordEvent(deps, trx, id, {
        type,
        ownerId: row.user_id,
        actorId: row.user_id,
        resourceType: 'app',
        resourceId: app.id,
        ip,
        data,
      });
    return true;
  });
  if (!claimed) return fail('The authorization code has already been used.');
  return { ok: true, token, userId: row.user_id };
}

/**
 * Revokes a token; when that leaves the account no active token for its app, the grant has ended
 * and its webhooks end too (while another token, such as the registration token, still speaks
 * for the app, they stay).
 */
async function revokeTokenById(deps: Deps, tokenId: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('tokens')
      .set({ status: 'revoked', revoked_at: deps.clock.now().toISOString() })
      .where('id', '=', tokenId)
      .where('status', '=', 'active')
      .returning(['user_id', 'app_id'])
      .executeTakeFirst();
    if (!revoked) return;
    const remaining = await trx
      .selectFrom('tokens')
      .select('id')
      .where('app_id', '=', revoked.app_id)
      .where('user_id', '=', revoked.user_id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (!remaining) await deleteGrantWebhooks(trx, revoked.user_id, revoked.app_id);
  });
}

export interface LinkedApp {
  app_id: string;
  name: string;
  scopes: Scope[];
  created_at: string;
}

/** The apps the account has an active grant for (account settings, linked apps). */
export async function linkedApps(deps: Deps, userId: string): Promise<LinkedApp[]> {
  const rows = await deps.db.kysely
    .selectFrom('tokens as t')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .select(['a.id as app_id', 'a.name', 't.scopes', 't.created_at'])
    .where('t.user_id', '=', userId)
    .where('t.status', '=', 'active')
    .orderBy('t.created_at', 'desc')
    .execute();
  const seen = new Set<string>();
  const out: LinkedApp[] = [];
  for (const r of rows) {
    if (seen.has(r.app_id)) continue;
    seen.add(r.app_id);
    out.push({ app_id: r.app_id, name: r.name, scopes: JSON.parse(r.scopes), created_at: r.created_at });
  }
  return out;
}

/**
 * Removes an app from the account's linked apps: its tokens answer the revoked body from now on and
 * the webhooks it created for the account are deleted with their pending deliveries.
 */
export async function uninstallApp(
  deps: Deps,
  appId: string,
  userId: string,
  ip: string | null,
): Promise<number> {
  const [ev1, ev2] = await deps.ids.take(2);
  const now = deps.clock.now().toISOString();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('tokens')
      .set({ status: 'revoked', revoked_at: now })
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    await deleteGrantWebhooks(trx, userId, appId);
    const n = Number(result.numUpdatedRows);
    if (n === 0) return 0;
    for (const [id, type] of [
      [ev1, 'grant_info_deleted'],
      [ev2, 'app_uninstalled'],
    ] as const)
      await recordEvent(deps, trx, id, {
        type,
        ownerId: userId,
        actorId: userId,
        resourceType: 'app',
        resourceId: appId,
        ip,
        data: { app_id: appId },
      });
    return n;
  });
}
