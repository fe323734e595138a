// A survey's question layout on the respondent pages: 'page' (every question of a page at once) or
// 'one_at_a_time' (each question on its own screen). Additive with a default, so a process still
// on the previous release keeps writing surveys that read as 'page'.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('surveys')
    .addColumn('question_layout', 'text', (c) => c.notNull().defaultTo('page'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('surveys').dropColumn('question_layout').execute();
}
