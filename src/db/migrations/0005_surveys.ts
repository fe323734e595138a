import type { Kysely } from 'kysely';

// Surveys, pages, questions (one JSON document per question row), folders, team templates and
// translations.
export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('survey_folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('survey_folders_owner').on('survey_folders').column('owner_id').execute();

  await db.schema
    .createTable('surveys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('folder_id', 'text')
    .addColumn('buttons_text', 'text', (c) => c.notNull())
    .addColumn('custom_variables', 'text', (c) => c.notNull())
    .addColumn('footer', 'integer', (c) => c.notNull())
    .addColumn('theme_id', 'text')
    .addColumn('quiz_options', 'text')
    .addColumn('question_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preview_token', 'text', (c) => c.notNull().unique())
    .addColumn('manage_token', 'text', (c) => c.notNull().unique())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('surveys_owner_modified')
    .on('surveys')
    .columns(['owner_id', 'date_modified'])
    .execute();
  await db.schema.createIndex('surveys_folder').on('surveys').column('folder_id').execute();

  await db.schema
    .createTable('survey_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('survey_pages_survey_position')
    .on('survey_pages')
    .columns(['survey_id', 'position'])
    .execute();

  await db.schema
    .createTable('survey_questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('survey_pages.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text', (c) => c.notNull())
    .addColumn('doc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('survey_questions_survey_page_position')
    .on('survey_questions')
    .columns(['survey_id', 'page_id', 'position'])
    .execute();
  await db.schema
    .createIndex('survey_questions_page_position')
    .on('survey_questions')
    .columns(['page_id', 'position'])
    .execute();

  await db.schema
    .createTable('team_survey_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('team_survey_templates_owner')
    .on('team_survey_templates')
    .column('owner_id')
    .execute();
  await db.schema
    .createIndex('team_survey_templates_team')
    .on('team_survey_templates')
    .column('team_id')
    .execute();

  await db.schema
    .createTable('survey_translations')
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('translations', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_translations_pk', ['survey_id', 'language'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'survey_translations',
    'team_survey_templates',
    'survey_questions',
    'survey_pages',
    'surveys',
    'survey_folders',
  ])
    await db.schema.dropTable(t).execute();
}
