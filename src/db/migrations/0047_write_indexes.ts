// Fewer index entries per response write: every index is one more B-tree insert for
// each response and event a group commit writes.
// - `events_owner_created` (0001) and `events_type_created` (0007) have no reader: the fan-out, its
//   backlog gauge and retention all walk `events_created` (created_at, id), and group activity has
//   its own table. Each event paid two index entries for nothing.
// - `responses_collector_respondent` (0010) serves only "this respondent session's latest response
//   in this collector" (respondent_key = ?, which implies NOT NULL on both engines); responses
//   posted through the API have no respondent key, so they need no entry.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_owner_created').execute();
  await db.schema.dropIndex('events_type_created').execute();
  await db.schema.dropIndex('responses_collector_respondent').execute();
  await db.schema
    .createIndex('responses_collector_respondent')
    .on('responses')
    .columns(['collector_id', 'respondent_key', 'ordinal'])
    .where('respondent_key', 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('responses_collector_respondent').execute();
  await db.schema
    .createIndex('responses_collector_respondent')
    .on('responses')
    .columns(['collector_id', 'respondent_key', 'ordinal'])
    .execute();
  await db.schema.createIndex('events_type_created').on('events').columns(['type', 'created_at']).execute();
  await db.schema
    .createIndex('events_owner_created')
    .on('events')
    .columns(['owner_id', 'created_at'])
    .execute();
}
