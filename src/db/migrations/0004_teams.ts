import type { Kysely } from 'kysely';

// Teams (groups) and their members, roles (with the five system roles), workgroups and their
// members, and the append-only group activity log.

/** The system roles (reference §14.4). Ids are fixed so every installation agrees. */
export const kind = 'rolling-safe' as const;

const SYSTEM_ROLES: Array<[string, string, string, string[]]> = [
  [
    '03decb5be70a42428d50f52ac38df3d7',
    'Full Access',
    'Can design, collect and analyze: full access to the shared survey.',
    ['design.full_access', 'collect.full_access', 'analyze.full_access'],
  ],
  [
    'f24b9ce183b8430e811d5175831b5937',
    'Viewer',
    'Can view the design, collectors and results of the shared survey.',
    ['design.read_only', 'collect.read_only', 'analyze.read_only'],
  ],
  [
    '6965d0ee9f44481aa0ecf6530e49bebd',
    'Editor',
    'Can edit the design of the shared survey and view its collectors and results.',
    ['design.full_access', 'collect.read_only', 'analyze.read_only'],
  ],
  [
    '349c4b49e6634afe83fc453de2989014',
    'Collector',
    'Can manage the collectors of the shared survey and view its design and results.',
    ['design.read_only', 'collect.full_access', 'analyze.read_only'],
  ],
  [
    '2cfc26e6d4a64910a2ce927e3a2b31fc',
    'Analyzer',
    'Can analyze the results of the shared survey and view its design and collectors.',
    ['design.read_only', 'collect.read_only', 'analyze.full_access'],
  ],
];

interface SeedRole {
  id: string;
  organization_id: string | null;
  name: string;
  description: string;
  privileges: string;
  is_system_role: number;
  is_enabled: number;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('max_invites', 'integer', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invited_at', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_members_team').on('team_members').columns(['team_id', 'id']).execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('privileges', 'text', (c) => c.notNull())
    .addColumn('is_system_role', 'integer', (c) => c.notNull())
    .addColumn('is_enabled', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await db
    .withTables<{ roles: SeedRole }>()
    .insertInto('roles')
    .values(
      SYSTEM_ROLES.map(([id, name, description, privileges]) => ({
        id,
        organization_id: null,
        name,
        description,
        privileges: JSON.stringify(privileges),
        is_system_role: 1,
        is_enabled: 1,
        metadata: '{}',
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();

  await db.schema
    .createTable('workgroups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.references('teams.id'))
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('is_visible', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('default_role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workgroups_team').on('workgroups').column('team_id').execute();

  await db.schema
    .createTable('workgroup_members')
    .addColumn('workgroup_id', 'text', (c) => c.notNull().references('workgroups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('is_owner', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('role_assignment_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workgroup_members_pk', ['workgroup_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workgroup_members_user').on('workgroup_members').column('user_id').execute();

  await db.schema
    .createTable('group_activities')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('member_type', 'text', (c) => c.notNull())
    .addColumn('activity_type', 'text', (c) => c.notNull())
    .addColumn('activity_msg', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('division_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('group_activities_group_created')
    .on('group_activities')
    .columns(['group_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('group_activities_group_type_created')
    .on('group_activities')
    .columns(['group_id', 'activity_type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['group_activities', 'workgroup_members', 'workgroups', 'roles', 'team_members', 'teams'])
    await db.schema.dropTable(t).execute();
}
