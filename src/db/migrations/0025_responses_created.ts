// Indexes that keep answers flat as data grows (bench/scale-data.js): the responses of a survey by
// creation date (start_created_at/end_created_at read the matching range, not every response of
// the survey), and an owner's surveys by folder in list order (a folder's page reads its surveys,
// not every survey of the account).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('responses_survey_created')
    .on('responses')
    .columns(['survey_id', 'date_created'])
    .execute();
  await db.schema
    .createIndex('surveys_owner_folder_modified')
    .on('surveys')
    .columns(['owner_id', 'folder_id', 'date_modified'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('surveys_owner_folder_modified').execute();
  await db.schema.dropIndex('responses_survey_created').execute();
}
