// The respondent page looks up "this browser session's latest response in this collector" on every
// view. With an index on respondent_key alone, the planner walked the collector's responses in
// ordinal order instead (a scan per view of a busy collector); this index answers it directly.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('responses_collector_respondent')
    .on('responses')
    .columns(['collector_id', 'respondent_key', 'ordinal'])
    .execute();
  await db.schema.dropIndex('responses_respondent').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('responses_respondent').on('responses').column('respondent_key').execute();
  await db.schema.dropIndex('responses_collector_respondent').execute();
}
