import type { Kysely } from 'kysely';

// Accounts, apps, tokens, rate limits, settings, id blocks, and the event outbox.
export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('sso_connections', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_last_login', 'text')
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('minute_limit', 'integer')
    .addColumn('day_limit', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('draft_expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apps_owner').on('apps').column('owner_id').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('tokens_app_user').on('tokens').columns(['app_id', 'user_id']).execute();
  await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();

  await db.schema
    .createTable('rate_counters')
    .addColumn('app_id', 'text', (c) => c.primaryKey())
    .addColumn('minute_window', 'bigint', (c) => c.notNull())
    .addColumn('minute_count', 'bigint', (c) => c.notNull())
    .addColumn('day_window', 'bigint', (c) => c.notNull())
    .addColumn('day_count', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_violations')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_violations_pk', ['app_id', 'window'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('id_blocks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_block', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('resource_type', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_owner_created')
    .on('events')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'events',
    'id_blocks',
    'settings',
    'rate_violations',
    'rate_counters',
    'tokens',
    'apps',
    'users',
  ])
    await db.schema.dropTable(t).execute();
}
