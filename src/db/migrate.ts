import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

/** Applies every pending migration. Idempotent; safe to run from several processes at once. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Areas add their migrations independently; one may land after a later-numbered one ran.
    allowUnorderedMigrations: true,
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
