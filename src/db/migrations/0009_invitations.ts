import type { Kysely } from 'kysely';

// Email invitations (reference §8–9): messages of an email collector, the collector's recipients
// (each with an unguessable token for their personal survey and opt-out links), and which
// recipient got which message (with the queued email). Everything cascades from the collector.

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collector_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collector_id', 'text', (c) => c.notNull().references('collectors.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('recipient_status', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text')
    .addColumn('body_html', 'text')
    .addColumn('is_branding_enabled', 'integer', (c) => c.notNull())
    .addColumn('embed_first_question', 'integer', (c) => c.notNull())
    .addColumn('scheduled_date', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collector_messages_collector')
    .on('collector_messages')
    .columns(['collector_id'])
    .execute();
  await db.schema
    .createTable('collector_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collector_id', 'text', (c) => c.notNull().references('collectors.id').onDelete('cascade'))
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('extra_fields', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collector_recipients_collector')
    .on('collector_recipients')
    .columns(['collector_id', 'email'])
    .execute();
  await db.schema
    .createTable('message_recipients')
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('collector_messages.id').onDelete('cascade'),
    )
    .addColumn('recipient_id', 'text', (c) =>
      c.notNull().references('collector_recipients.id').onDelete('cascade'),
    )
    .addColumn('collector_id', 'text', (c) => c.notNull())
    /** not_sent | sent | skipped (opted out or bounced when the message went out) */
    .addColumn('mail_status', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text')
    .addColumn('sent_at', 'text')
    .addPrimaryKeyConstraint('message_recipients_pk', ['message_id', 'recipient_id'])
    .execute();
  await db.schema
    .createIndex('message_recipients_recipient')
    .on('message_recipients')
    .columns(['recipient_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_recipients').execute();
  await db.schema.dropTable('collector_recipients').execute();
  await db.schema.dropTable('collector_messages').execute();
}
