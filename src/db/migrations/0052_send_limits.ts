// An operator's daily send cap for one account (domain/limits/send-limit.ts): recipients of
// invitations, reminders and test sends in 24 hours, replacing the server's SEND_LIMIT_* caps for
// that account (0 = no cap). No row: the server's caps apply.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('send_limits')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('per_day', 'integer', (c) => c.notNull())
    .addColumn('set_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('send_limits').execute();
}
