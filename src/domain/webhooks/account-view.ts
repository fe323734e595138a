// The account's webhooks as its owner sees them on the /integrations page: every one, whichever app
// made it, with that app's name (null for the ones made on the page).
import type { Deps } from '../../context.js';
import type { Webhook } from './webhooks.js';

export type AccountWebhook = Webhook & { app_name: string | null };

export async function accountWebhooks(deps: Deps, userId: string): Promise<AccountWebhook[]> {
  const rows = await deps.db.kysely
    .selectFrom('webhooks as w')
    .leftJoin('apps as a', 'a.id', 'w.app_id')
    .selectAll('w')
    .select('a.name as app_name')
    .where('w.owner_id', '=', userId)
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
  return rows.map((r) => ({ ...r, app_name: r.app_name ?? null }));
}
