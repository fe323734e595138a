import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

function migrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Areas add their migrations independently; one may land after a later-numbered one ran.
    allowUnorderedMigrations: true,
  });
}

/** Applies every pending migration. Idempotent; safe to run from several processes at once. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const result: MigrationResultSet = await migrator(db).migrateToLatest();
  if (result.error) throw result.error;
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export interface MigrationStatus {
  applied: Array<{ name: string; applied_at: string }>;
  pending: string[];
}

/** Which migrations this database has applied (and when) and which this program would apply. */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const all = await migrator(db).getMigrations();
  return {
    applied: all
      .filter((m) => m.executedAt)
      .map((m) => ({ name: m.name, applied_at: m.executedAt!.toISOString() })),
    pending: all.filter((m) => !m.executedAt).map((m) => m.name),
  };
}
