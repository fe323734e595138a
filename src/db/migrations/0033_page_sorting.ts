// A page's question order for respondents (an extension: docs/display-logic-and-piping.md), JSON
// {type, ignore_last} beside the page's skip-logic rule; null keeps the questions as listed.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('survey_pages').addColumn('sorting', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('survey_pages').dropColumn('sorting').execute();
}
