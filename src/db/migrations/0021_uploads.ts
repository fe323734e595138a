// Files respondents upload as answers (file-upload questions). The file lives under UPLOAD_DIR by
// its random storage key; this row is its metadata. No foreign key to responses: the row is
// written (and the file renamed into place) before the response that refers to it commits, so a
// row whose response never appears is an orphan the worker sweeps (domain/uploads/uploads.ts).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('collector_id', 'text', (c) => c.notNull())
    .addColumn('response_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_response').on('uploads').column('response_id').execute();
  await db.schema.createIndex('uploads_survey').on('uploads').column('survey_id').execute();
  await db.schema.createIndex('uploads_created').on('uploads').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
