// The respondent's flow: a page's skip-logic rule (choice rules live in the question's `doc`),
// the rules that fired for a response (`logic_path`), and the survey's logo and colour.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('survey_pages').addColumn('logic', 'text').execute();
  await db.schema
    .alterTable('responses')
    .addColumn('logic_path', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('surveys').addColumn('logo_url', 'text').execute();
  await db.schema.alterTable('surveys').addColumn('theme_color', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('surveys').dropColumn('theme_color').execute();
  await db.schema.alterTable('surveys').dropColumn('logo_url').execute();
  await db.schema.alterTable('responses').dropColumn('logic_path').execute();
  await db.schema.alterTable('survey_pages').dropColumn('logic').execute();
}
