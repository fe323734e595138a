// A survey's look (domain/themes): one row per survey that has its own theme, named by the
// survey's theme_id. The logo is a file under UPLOAD_DIR by its random storage key, like a
// respondent's upload; the row keeps its content type (from the checked signature).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('themes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().unique())
    .addColumn('primary_color', 'text', (c) => c.notNull())
    .addColumn('background_color', 'text', (c) => c.notNull())
    .addColumn('text_color', 'text', (c) => c.notNull())
    .addColumn('font', 'text', (c) => c.notNull())
    .addColumn('button_shape', 'text', (c) => c.notNull())
    .addColumn('logo_key', 'text')
    .addColumn('logo_type', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('themes').execute();
}
