import type { Kysely } from 'kysely';

// Workgroup shares: a survey shared with a workgroup, carrying the role (privileges) its members
// get on it. Deleting the workgroup or the survey removes its shares (cascading foreign keys, on
// top of the explicit delete in deleteWorkgroup).

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workgroup_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workgroup_id', 'text', (c) => c.notNull().references('workgroups.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workgroup_shares_resource', ['workgroup_id', 'resource_type', 'resource_id'])
    .execute();
  await db.schema
    .createIndex('workgroup_shares_resource_id')
    .on('workgroup_shares')
    .columns(['resource_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('workgroup_shares').execute();
}
