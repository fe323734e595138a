// Upload bytes per account and per client address in fixed one-hour windows
// (domain/uploads/admission.ts). Its own table rather than window_counters: those count minute
// windows and forget any row more than a minute old, which would reset an hourly count.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_byte_windows')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_byte_windows_window')
    .on('upload_byte_windows')
    .column('window_start')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_byte_windows').execute();
}
