// A webhook lives as long as the grant of the app that created it (domain/webhooks/webhooks.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Ends the webhooks of an account's grant to an app, in the transaction that revokes the grant:
 * they and their pending deliveries are deleted, so nothing more is sent (also for events already
 * fanned out) and a later grant starts without them.
 */
export async function deleteGrantWebhooks(
  trx: Kysely<Database>,
  userId: string,
  appId: string,
): Promise<void> {
  const hooks = trx
    .selectFrom('webhooks')
    .select('id')
    .where('owner_id', '=', userId)
    .where('app_id', '=', appId);
  const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', 'in', hooks);
  await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', hooks).execute();
  await trx.deleteFrom('webhooks').where('owner_id', '=', userId).where('app_id', '=', appId).execute();
}
