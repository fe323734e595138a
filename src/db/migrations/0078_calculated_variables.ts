// A survey's calculated variables (domain/surveys/calculated.ts): JSON [{name, formula}], null when it
// has none. Nullable and additive: an older release neither reads nor writes it.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('calculated_variables', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('surveys').dropColumn('calculated_variables').execute();
}
