// Indexes for two lookups that ran on every request or round:
// - the respondent page's "this browser session's latest response in this collector": with an
//   index on respondent_key alone, the planner walked the collector's responses in ordinal order
//   (a scan per view of a busy collector);
// - the outbox fan-out's scan of events in time order, which stops after one batch instead of
//   sorting every event since the watermark.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('responses_collector_respondent')
    .on('responses')
    .columns(['collector_id', 'respondent_key', 'ordinal'])
    .execute();
  await db.schema.dropIndex('responses_respondent').execute();
  await db.schema.createIndex('events_created').on('events').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created').execute();
  await db.schema.createIndex('responses_respondent').on('responses').column('respondent_key').execute();
  await db.schema.dropIndex('responses_collector_respondent').execute();
}
