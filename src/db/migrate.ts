import { type Migration, type MigrationResultSet, Migrator, sql } from 'kysely';
import type { Db } from './database.js';
import { type MigrationKind, migrations } from './migrations/index.js';

/** The settings row naming the highest release (semver) that ran `migrate` on this database. */
const MIGRATED_BY = 'migrated_by_version';

/** A PostgreSQL migration that waits at most half a second for a lock, then gives up (and is taken
 * again, below): while it waits, every query of the running release on that table queues behind
 * it, and in a deadlock PostgreSQL might abort the release's transaction, a respondent's
 * submission, rather than the migration. */
function yielding(m: Migration): Migration {
  return {
    ...m,
    up: async (trx) => {
      await sql`SET LOCAL lock_timeout = '500ms'`.execute(trx);
      await m.up(trx);
    },
  };
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: {
      getMigrations: async () =>
        db.dialect === 'postgres'
          ? Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, yielding(m)]))
          : migrations,
    },
    // Areas add their migrations independently; one may land after a later-numbered one ran.
    allowUnorderedMigrations: true,
  });
}

/** A database a newer release has migrated: this program may not know its schema, so it refuses to
 * run on it rather than misread or damage it. */
export class NewerDatabaseError extends Error {
  constructor(readonly migratedBy: string) {
    super(
      `this database was migrated by a newer version (${migratedBy}): run that version or restore the backup`,
    );
  }
}

/** Orders two versions "MAJOR.MINOR.PATCH" (a pre-release or build suffix is ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-+]/)[0]
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The release that last raised the database's version, or null (a new database, or one only
 * releases before 0.5.0 migrated: they did not record it). */
export async function migratedBy(db: Db): Promise<string | null> {
  try {
    const row = await db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', MIGRATED_BY)
      .executeTakeFirst();
    return row?.value ?? null;
  } catch {
    return null; // no settings table yet: nothing has migrated this database
  }
}

/** Throws NewerDatabaseError when a release newer than `version` migrated the database. */
export async function refuseNewerDatabase(db: Db, version: string): Promise<void> {
  const by = await migratedBy(db);
  if (by !== null && compareVersions(by, version) > 0) throw new NewerDatabaseError(by);
}

/** Records `version` as the database's, unless a newer one is recorded: a compare-and-set, so two
 * releases migrating at once leave the higher. */
async function recordVersion(db: Db, version: string): Promise<void> {
  const k = db.kysely;
  for (;;) {
    const by = await migratedBy(db);
    if (by !== null && compareVersions(by, version) >= 0) return;
    const changed =
      by === null
        ? await k
            .insertInto('settings')
            .values({ key: MIGRATED_BY, value: version })
            .onConflict((oc) => oc.column('key').doNothing())
            .executeTakeFirst()
        : await k
            .updateTable('settings')
            .set({ value: version })
            .where('key', '=', MIGRATED_BY)
            .where('value', '=', by)
            .executeTakeFirst();
    const n =
      'numInsertedOrUpdatedRows' in changed ? changed.numInsertedOrUpdatedRows : changed.numUpdatedRows;
    if (Number(n ?? 0) > 0) return;
  }
}

/**
 * Applies every pending migration. Idempotent; safe to run from several processes at once. Given
 * the program's `version`, it first refuses a database a newer release migrated, and afterwards
 * records the version as the database's.
 */
export async function migrateToLatest(db: Db, version?: string): Promise<string[]> {
  if (version) await refuseNewerDatabase(db, version);
  // One migration a transaction (PostgreSQL): with a run's migrations in one transaction, every lock
  // one took (a key to a hot table) was held while the next took another, the order the running
  // release's submissions take them reversed: a deadlock. Each migration is rolling-safe on its
  // own, so a failure part-way leaves a schema the running release serves on.
  const applied: string[] = [];
  const m = migrator(db);
  for (let yielded = 0; ; ) {
    const result: MigrationResultSet = await m.migrateUp();
    if (result.error) {
      // A lock not had in time (or a deadlock) rolled this migration back whole: take it again
      // (the other side, a transaction of the release still serving, went through).
      if (lockNotHad(result.error) && ++yielded < 40) {
        await new Promise((r) => setTimeout(r, Math.min(1000, 50 * yielded)));
        continue;
      }
      throw result.error;
    }
    const done = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (done.length === 0) break;
    applied.push(...done);
  }
  if (version) await recordVersion(db, version);
  return applied;
}

/** deadlock_detected or lock_not_available (lock_timeout). */
function lockNotHad(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && 'code' in err && (err.code === '40P01' || err.code === '55P03')
  );
}

export interface MigrationStatus {
  applied: Array<{ name: string; applied_at: string }>;
  pending: string[];
  /** Each pending migration with its kind: whether the older release may keep serving meanwhile. */
  pending_kinds: Array<{ name: string; kind: MigrationKind }>;
  /** Applied in the database but unknown to this program (a newer release's). */
  unknown: Array<{ name: string; applied_at: string }>;
  /** The highest release that ran `migrate` here (null: none that records it). */
  migrated_by: string | null;
}

/** Which migrations this database has applied (and when), which this program would apply (and of
 * which kind), and which it has applied that this program does not know. */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const all = await migrator(db).getMigrations();
  const pending = all.filter((m) => !m.executedAt).map((m) => m.name);
  let recorded: Array<{ name: string; timestamp: string | Date }> = [];
  try {
    recorded = (
      await sql<{
        name: string;
        timestamp: string | Date;
      }>`SELECT name, timestamp FROM kysely_migration`.execute(db.kysely)
    ).rows;
  } catch {
    // no migration has run yet: kysely_migration does not exist
  }
  return {
    applied: all
      .filter((m) => m.executedAt)
      .map((m) => ({ name: m.name, applied_at: m.executedAt!.toISOString() })),
    pending,
    pending_kinds: pending.map((name) => ({ name, kind: migrations[name].kind })),
    unknown: recorded
      .filter((r) => !(r.name in migrations))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((r) => ({ name: r.name, applied_at: new Date(r.timestamp).toISOString() })),
    migrated_by: await migratedBy(db),
  };
}
