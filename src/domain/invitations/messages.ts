// Messages of an email collector (reference §8): invite, reminder, thank_you. Bodies must carry the
// [SurveyLink], [OptOutLink] and [FooterLink] placeholders; without a body the default template is used.
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import type { CollectorMessagesTable } from '../../db/tables/invitations.js';
import { ApiError } from '../../platform/errors.js';
import { isPaid, type Plan } from '../../platform/plans.js';
import { type CollectActor, type Collector, requireCollector } from '../collectors/collectors.js';
import { countAndPage } from '../core/owned.js';
import { addRecipients } from './recipients.js';

export type MessageRow = Selectable<CollectorMessagesTable>;
export const MESSAGE_TYPES = ['invite', 'reminder', 'thank_you'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const RECIPIENT_STATUSES: Record<MessageType, readonly string[]> = {
  invite: [],
  reminder: ['has_not_responded', 'partially_responded'],
  thank_you: ['completed', 'responded', 'partially_responded'],
};
const DEFAULT_STATUS: Record<MessageType, string | null> = {
  invite: null,
  reminder: 'has_not_responded',
  thank_you: 'completed',
};
export const REQUIRED_PLACEHOLDERS = ['[SurveyLink]', '[OptOutLink]', '[FooterLink]'] as const;

export const DEFAULT_SUBJECT = 'We want your opinion';
export const DEFAULT_BODY_HTML = `<html><body>
<p>We're conducting a survey and your input would be appreciated. Click the link below to start the survey. Thank you for your participation!</p>
<p><a href="[SurveyLink]">Begin Survey</a></p>
<p>Please do not forward this email as its survey link is unique to you.<br>
<a href="[PrivacyLink]">Privacy</a> | <a href="[OptOutLink]">Unsubscribe</a></p>
<p>[FooterLink]</p>
</body></html>`;

export interface MessageInput {
  type?: MessageType;
  recipient_status?: string | null;
  subject?: string;
  /** null (as a message reads when it has none): the same as leaving it out. */
  body_text?: string | null;
  body_html?: string | null;
  is_branding_enabled?: boolean;
  embed_first_question?: boolean;
}

const notFound = () => new ApiError(1020, 'Message not found.');

/** 1002 when a given body lacks a required placeholder. */
function checkBodies(input: Pick<MessageInput, 'body_text' | 'body_html'>): void {
  for (const key of ['body_text', 'body_html'] as const) {
    const body = input[key];
    if (body === undefined || body === null) continue;
    const missing = REQUIRED_PLACEHOLDERS.filter((p) => !body.includes(p));
    if (missing.length > 0)
      throw new ApiError(1002, `'${key}' must contain the placeholders ${missing.join(', ')}.`);
  }
}

function checkRecipientStatus(type: MessageType, status: string | null | undefined): string | null {
  if (status === undefined || status === null) return DEFAULT_STATUS[type];
  if (!RECIPIENT_STATUSES[type].includes(status))
    throw new ApiError(
      1002,
      type === 'invite'
        ? `'recipient_status' is not used with invite messages.`
        : `'recipient_status' of a ${type} message must be one of ${RECIPIENT_STATUSES[type].join(', ')}.`,
    );
  return status;
}

/** Email collectors only: other types have no messages (404/1020 as for a missing collector). */
export function requireEmailCollector(c: Collector): void {
  if (c.type !== 'email')
    throw new ApiError(1020, 'Collector not found: only email collectors have messages.');
}

/**
 * The email collector `collectorId` if the actor may use it (404/1020 otherwise, also for other
 * types). Writing needs a paid plan: email invitations are not part of the basic plan (403/1015).
 */
export async function emailCollectorFor(
  deps: Deps,
  actor: CollectActor,
  collectorId: string,
  level: 'read' | 'write',
): Promise<Collector> {
  if (level === 'write' && !isPaid(actor.plan))
    throw new ApiError(1015, 'Email invitations need a paid plan; the basic plan has weblink collectors.');
  const { collector } = await requireCollector(deps, actor, collectorId, 'collect', level);
  requireEmailCollector(collector);
  return collector;
}

export async function createMessage(
  deps: Deps,
  collector: Collector,
  input: MessageInput & { type: MessageType },
): Promise<MessageRow> {
  requireEmailCollector(collector);
  checkBodies(input);
  const recipientStatus = checkRecipientStatus(input.type, input.recipient_status);
  const now = deps.clock.now().toISOString();
  const noBody = (input.body_text ?? input.body_html ?? null) === null;
  const row: MessageRow = {
    id: await deps.ids.one(),
    collector_id: collector.id,
    owner_id: collector.owner_id,
    type: input.type,
    status: 'not_sent',
    recipient_status: recipientStatus,
    subject: input.subject ?? DEFAULT_SUBJECT,
    body_text: input.body_text ?? null,
    body_html: noBody ? DEFAULT_BODY_HTML : (input.body_html ?? null),
    is_branding_enabled: input.is_branding_enabled === false ? 0 : 1,
    embed_first_question: input.embed_first_question ? 1 : 0,
    scheduled_date: null,
    date_created: now,
    date_modified: now,
  };
  if (row.embed_first_question && row.type !== 'invite')
    throw new ApiError(1002, `'embed_first_question' is only for invite messages.`);
  await deps.db.kysely.insertInto('collector_messages').values(row).execute();
  return row;
}

/** A new not_sent message like `from` (of `source`), optionally with the same recipients. */
export async function copyMessage(
  deps: Deps,
  plan: Plan,
  collector: Collector,
  source: Collector,
  from: MessageRow,
  includeRecipients: boolean,
): Promise<MessageRow> {
  requireEmailCollector(collector);
  const now = deps.clock.now().toISOString();
  const row: MessageRow = {
    ...from,
    id: await deps.ids.one(),
    collector_id: collector.id,
    owner_id: collector.owner_id,
    status: 'not_sent',
    scheduled_date: null,
    date_created: now,
    date_modified: now,
  };
  await deps.db.kysely.insertInto('collector_messages').values(row).execute();
  if (includeRecipients && row.type === 'invite') {
    const people = await deps.db.kysely
      .selectFrom('message_recipients as mr')
      .innerJoin('collector_recipients as r', 'r.id', 'mr.recipient_id')
      .select(['r.email', 'r.first_name', 'r.last_name', 'r.custom_fields', 'r.extra_fields'])
      .where('mr.message_id', '=', from.id)
      .where('r.collector_id', '=', source.id)
      .orderBy('r.id')
      .execute();
    await addRecipients(deps, plan, collector, row, {
      contacts: people.map((p) => ({
        email: p.email,
        first_name: p.first_name,
        last_name: p.last_name,
        custom_fields: JSON.parse(p.custom_fields),
        extra_fields: JSON.parse(p.extra_fields),
      })),
    });
  }
  return row;
}

/** A message reads `scheduled` from a scheduled send until its time comes (the worker sends its
 * emails then); `not_sent` before any send, `sent` after. */
export function messageStatus(m: Pick<MessageRow, 'status' | 'scheduled_date'>, now: Date): string {
  if (m.status === 'sent' && m.scheduled_date !== null && m.scheduled_date > now.toISOString())
    return 'scheduled';
  return m.status;
}

export async function getMessage(deps: Deps, collector: Collector, messageId: string): Promise<MessageRow> {
  const row = await deps.db.kysely
    .selectFrom('collector_messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('collector_id', '=', collector.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listMessages(
  deps: Deps,
  collector: Collector,
  offset: number,
  limit: number,
): Promise<[number, MessageRow[]]> {
  const base = deps.db.kysely.selectFrom('collector_messages').where('collector_id', '=', collector.id);
  const { total, rows } = await countAndPage(base, { offset, limit }, (q) =>
    q.selectAll().orderBy('date_created').orderBy('id'),
  );
  return [total, rows];
}

export type MessagePatch = Pick<
  MessageInput,
  'subject' | 'body_text' | 'body_html' | 'is_branding_enabled' | 'recipient_status'
>;

/** PATCH changes the given fields; PUT (mode 'put') resets the others to their defaults. */
export async function updateMessage(
  deps: Deps,
  current: MessageRow,
  input: MessagePatch,
  mode: 'patch' | 'put',
): Promise<MessageRow> {
  if (current.status !== 'not_sent')
    throw new ApiError(
      1025,
      `Message ${current.id} has been sent (status ${current.status}); it cannot change.`,
    );
  checkBodies(input);
  const type = current.type as MessageType;
  const put = mode === 'put';
  const bodyGiven = (input.body_text ?? input.body_html ?? null) !== null;
  const next: MessageRow = {
    ...current,
    subject: input.subject ?? (put ? DEFAULT_SUBJECT : current.subject),
    body_text: input.body_text ?? (put || bodyGiven ? null : current.body_text),
    body_html:
      input.body_html ?? (put && !bodyGiven ? DEFAULT_BODY_HTML : bodyGiven ? null : current.body_html),
    is_branding_enabled:
      input.is_branding_enabled === undefined
        ? put
          ? 1
          : current.is_branding_enabled
        : input.is_branding_enabled
          ? 1
          : 0,
    recipient_status:
      input.recipient_status !== undefined || put
        ? checkRecipientStatus(type, input.recipient_status)
        : current.recipient_status,
    date_modified: deps.clock.now().toISOString(),
  };
  const { id: _i, collector_id: _c, owner_id: _o, ...changes } = next;
  await deps.db.kysely.updateTable('collector_messages').set(changes).where('id', '=', current.id).execute();
  return next;
}

export async function deleteMessage(deps: Deps, current: MessageRow): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('message_recipients').where('message_id', '=', current.id).execute();
    await trx.deleteFrom('collector_messages').where('id', '=', current.id).execute();
  });
}
