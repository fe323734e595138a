// Access tokens: issued per (app, user) with the granted scopes, stored only as SHA-256 hashes,
// shown once. issueToken makes the app owner's registration token (app create, the developer
// page); OAuth tokens are issued by grants.ts. Revoking an app for a user revokes every token of
// that pair.
import type { Deps } from '../../context.js';
import type { Scope } from '../../platform/scopes.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { deleteGrantWebhooks } from './grant-end.js';

export async function issueToken(
  deps: Deps,
  appId: string,
  userId: string,
  scopes: Scope[],
): Promise<string> {
  const token = randomToken(48);
  await deps.db.kysely
    .insertInto('tokens')
    .values({
      id: await deps.ids.one(),
      token_hash: sha256(token),
      app_id: appId,
      user_id: userId,
      scopes: JSON.stringify(scopes),
      status: 'active',
      created_at: deps.clock.now().toISOString(),
      revoked_at: null,
      origin: 'registration',
    })
    .execute();
  return token;
}

/** Revokes every active token the user holds for the app, and its webhooks; returns how many tokens. */
export async function revokeApp(deps: Deps, appId: string, userId: string): Promise<number> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('tokens')
      .set({ status: 'revoked', revoked_at: deps.clock.now().toISOString() })
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    await deleteGrantWebhooks(trx, userId, appId);
    return Number(result.numUpdatedRows);
  });
}
