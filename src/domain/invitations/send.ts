// Sending a message: every recipient it reaches gets one email, queued with queueEmail in the
// transaction that marks the message sent, so a send is all or nothing and the worker delivers it
// (at scheduled_date for a scheduled send). Invites go to the message's recipients; reminders to the
// collector's recipients who have not (fully) responded; thank-you messages to those who have.
// Opted-out and bounced contacts are skipped, whenever they opted out.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import { queueEmail } from '../../db/outbox-queue.js';
import { ApiError } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/escape.js';
import type { Plan } from '../../platform/plans.js';
import { accessUrl } from '../../platform/regions.js';
import type { Account } from '../accounts/users.js';
import type { Collector } from '../collectors/collectors.js';
import { newContactRow, setContactStatus } from '../contacts/contacts.js';
import type { MessageRow } from './messages.js';
import {
  byEmail,
  ensureLinkToken,
  type RecipientRow,
  recipientStates,
  removeLink,
  surveyLink,
} from './recipients.js';

export interface SendResult {
  message: MessageRow;
  /** ids of the recipients reached (collector_recipients, as GET /collectors/{id}/recipients/{id}) */
  recipientIds: string[];
}

/** The message body for one recipient, placeholders filled. */
export function personalize(
  template: string,
  links: { survey: string; optOut: string; privacy: string; footer: string },
  isHtml: boolean,
): string {
  const v = (s: string) => (isHtml ? escapeHtml(s) : s);
  return template
    .replaceAll('[SurveyLink]', v(links.survey))
    .replaceAll('[OptOutLink]', v(links.optOut))
    .replaceAll('[PrivacyLink]', v(links.privacy))
    .replaceAll('[FooterLink]', isHtml ? 'Sent with Survey Service' : 'Sent with Survey Service')
    .replaceAll('{{EmbeddedBody}}', '')
    .replaceAll('{{FirstQuestion}}', '');
}

/** Plain text of an HTML body, for the text part. */
export function textOf(htmlBody: string): string {
  return htmlBody
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/gi, '$2: $1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The recipients a message reaches now, and the reachable ones it skips (opted out/bounced). */
async function audience(deps: Deps, collector: Collector, message: MessageRow): Promise<RecipientRow[]> {
  const k = deps.db.kysely;
  let q = k
    .selectFrom('collector_recipients as r')
    .leftJoin('contacts as c', byEmail)
    .selectAll('r')
    .where('r.collector_id', '=', collector.id)
    // a recipient whose contact was deleted since is still reachable (opting out keeps a contact)
    .where((eb) => eb.or([eb('c.status', '=', 'active'), eb('c.status', 'is', null)]));
  if (message.type === 'invite')
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('message_recipients as mr')
          .select('mr.recipient_id')
          .whereRef('mr.recipient_id', '=', 'r.id')
          .where('mr.message_id', '=', message.id),
      ),
    );
  else
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('message_recipients as mr')
          .select('mr.recipient_id')
          .whereRef('mr.recipient_id', '=', 'r.id')
          .where('mr.mail_status', '=', 'sent'),
      ),
    );
  const rows = await q.orderBy('r.id').execute();
  if (message.type === 'invite') return rows;
  const states = await recipientStates(
    deps,
    collector.id,
    rows.map((r) => r.id),
  );
  const want = message.recipient_status;
  return rows.filter((r) => {
    const s = states.get(r.id)!.response;
    if (message.type === 'reminder')
      return want === 'partially_responded' ? s === 'partially_responded' : s !== 'completely_responded';
    if (want === 'completed') return s === 'completely_responded';
    if (want === 'partially_responded') return s === 'partially_responded';
    return s !== 'not_responded';
  });
}

export async function sendMessage(
  deps: Deps,
  sender: { user: Account; plan: Plan },
  collector: Collector,
  message: MessageRow,
  scheduledIso: string | null,
): Promise<SendResult> {
  if (message.status !== 'not_sent')
    throw new ApiError(
      1025,
      `Message ${message.id} is ${message.status}; only a not_sent message can be sent.`,
    );
  const senderEmail = collector.options.sender_email ?? null;
  const own = sender.user.email.toLowerCase();
  if (!sender.user.email_verified || (senderEmail !== null && senderEmail.toLowerCase() !== own))
    throw new ApiError(
      1058,
      senderEmail !== null && senderEmail.toLowerCase() !== own
        ? `The sender email ${senderEmail} is not verified; use the account's verified email address.`
        : "The account's email address must be verified before invitations are sent.",
    );
  const now = deps.clock.now();
  if (scheduledIso !== null && scheduledIso <= now.toISOString()) scheduledIso = null; // the past means now
  const recipients = await audience(deps, collector, message);
  if (recipients.length === 0)
    throw new ApiError(1059, `Message ${message.id} has no recipients to send to.`);
  const daily = deps.config.invitationLimits.dailySends[sender.plan] ?? 0;
  const linkToken = await ensureLinkToken(deps, collector);
  const base = accessUrl(deps.config, sender.user.region);
  const emailIds = await deps.ids.take(recipients.length);
  const at = scheduledIso ?? now.toISOString();
  const notBefore = scheduledIso ? new Date(scheduledIso) : undefined;
  const from = senderEmail ?? sender.user.email;
  const sent: MessageRow = {
    ...message,
    status: 'sent',
    scheduled_date: at,
    date_modified: now.toISOString(),
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The account's row serialises concurrent sends: the day's count stays true until commit.
    await lockRow(deps.db, trx, 'users', collector.owner_id);
    if (daily > 0) {
      const since = new Date(now.getTime() - 86_400_000).toISOString();
      const { n } = await trx
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', collector.owner_id)
        .where('purpose', 'in', ['invite', 'reminder', 'thank_you'])
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      if (Number(n) + recipients.length > daily)
        throw new ApiError(
          1017,
          `The ${sender.plan} plan sends at most ${daily} invitation emails a day; ${Number(n)} were sent in the last 24 hours and this message would add ${recipients.length}.`,
        );
    }
    const claimed = await trx
      .updateTable('collector_messages')
      .set({ status: 'sent', scheduled_date: at, date_modified: sent.date_modified })
      .where('id', '=', message.id)
      .where('status', '=', 'not_sent')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0)
      throw new ApiError(1025, `Message ${message.id} has already been sent.`);
    for (let i = 0; i < recipients.length; i++) {
      const r = recipients[i];
      const links = {
        survey: surveyLink(base, linkToken, r),
        optOut: removeLink(base, r),
        privacy: `${base}/privacy`,
        footer: base,
      };
      const htmlBody = message.body_html ? personalize(message.body_html, links, true) : null;
      const text = message.body_text ? personalize(message.body_text, links, false) : textOf(htmlBody ?? '');
      await queueEmail(deps, trx, {
        id: emailIds[i],
        ownerId: collector.owner_id,
        to:
          r.first_name || r.last_name
            ? `"${`${r.first_name} ${r.last_name}`.trim().replace(/"/g, '')}" <${r.email}>`
            : r.email,
        from,
        subject: message.subject,
        text,
        html: htmlBody,
        headers: { 'List-Unsubscribe': `<${links.optOut}>` },
        purpose: message.type,
        refId: r.id,
        notBefore,
      });
      await trx
        .insertInto('message_recipients')
        .values({
          message_id: message.id,
          recipient_id: r.id,
          collector_id: collector.id,
          mail_status: 'sent',
          email_id: emailIds[i],
          sent_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(['message_id', 'recipient_id'])
            .doUpdateSet({ mail_status: 'sent', email_id: emailIds[i], sent_at: at }),
        )
        .execute();
    }
    // Invite recipients left out (opted out or bounced since they were added) are marked skipped.
    await trx
      .updateTable('message_recipients')
      .set({ mail_status: 'skipped' })
      .where('message_id', '=', message.id)
      .where('mail_status', '=', 'not_sent')
      .execute();
    if (collector.status === 'new')
      await trx.updateTable('collectors').set({ status: 'open' }).where('id', '=', collector.id).execute();
  });
  return { message: sent, recipientIds: recipients.map((r) => r.id) };
}

export interface Stats {
  survey_response_status: {
    completely_responded: number;
    not_responded: number;
    partially_responded: number;
  };
  mail_status: {
    opened: number;
    opted_out: number;
    not_sent: number;
    sent: number;
    bounced: number;
    link_clicked: number;
  };
  recipients: number;
}

/** Stats over a message's recipients, or over all the collector's recipients (messageId null). */
export async function invitationStats(
  deps: Deps,
  collectorId: string,
  messageId: string | null,
): Promise<Stats> {
  const k = deps.db.kysely;
  let q = k
    .selectFrom('collector_recipients as r')
    .leftJoin('contacts as c', byEmail)
    .select(['r.id', 'c.status'])
    .where('r.collector_id', '=', collectorId);
  if (messageId)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('message_recipients as mr')
          .select('mr.recipient_id')
          .whereRef('mr.recipient_id', '=', 'r.id')
          .where('mr.message_id', '=', messageId),
      ),
    );
  const rows = await q.execute();
  const states = await recipientStates(
    deps,
    collectorId,
    rows.map((r) => r.id),
  );
  let sentIds = new Set<string>();
  if (messageId)
    sentIds = new Set(
      (
        await k
          .selectFrom('message_recipients')
          .select('recipient_id')
          .where('message_id', '=', messageId)
          .where('mail_status', '=', 'sent')
          .execute()
      ).map((r) => r.recipient_id),
    );
  const stats: Stats = {
    survey_response_status: { completely_responded: 0, not_responded: 0, partially_responded: 0 },
    mail_status: { opened: 0, opted_out: 0, not_sent: 0, sent: 0, bounced: 0, link_clicked: 0 },
    recipients: rows.length,
  };
  for (const r of rows) {
    const s = states.get(r.id)!;
    stats.survey_response_status[s.response]++;
    const sent = messageId ? sentIds.has(r.id) : s.mail === 'sent';
    if (sent) stats.mail_status.sent++;
    else stats.mail_status.not_sent++;
    if (r.status === 'optout') stats.mail_status.opted_out++;
    if (r.status === 'bounced') stats.mail_status.bounced++;
    if (s.response !== 'not_responded') stats.mail_status.link_clicked++;
  }
  return stats;
}

/** Whether an opt-out link's token names a recipient (the confirming page). */
export async function isOptOutToken(deps: Deps, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{10,60}$/.test(token)) return false;
  const r = await deps.db.kysely
    .selectFrom('collector_recipients')
    .select('id')
    .where('token', '=', token)
    .executeTakeFirst();
  return r !== undefined;
}

/** Marks the recipient's contact opted out (honoured by every later add and send). */
export async function optOut(deps: Deps, token: string): Promise<RecipientRow | undefined> {
  if (!/^[A-Za-z0-9_-]{10,60}$/.test(token)) return undefined;
  const r = await deps.db.kysely
    .selectFrom('collector_recipients')
    .selectAll()
    .where('token', '=', token)
    .executeTakeFirst();
  if (!r) return undefined;
  const changed = await setContactStatus(deps, r.owner_id, r.email, 'optout');
  if (changed === 0) {
    // The contact was deleted meanwhile: keep the opt-out as a contact of its own.
    const row = newContactRow(deps, await deps.ids.one(), r.owner_id, {
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
    });
    await deps.db.kysely
      .insertInto('contacts')
      .values({ ...row, status: 'optout' })
      .execute()
      .catch(() => setContactStatus(deps, r.owner_id, r.email, 'optout')); // raced with a re-add
  }
  // Scheduled invitations to this address that have not gone out yet are withdrawn (both steps
  // are idempotent: a retried opt-out finishes the job).
  const k = deps.db.kysely;
  const recipientIds = k
    .selectFrom('collector_recipients')
    .select('id')
    .where('owner_id', '=', r.owner_id)
    .where(sql<string>`lower(email)`, '=', r.email.toLowerCase());
  await k
    .updateTable('emails')
    .set({ status: 'failed', last_error: 'Withdrawn: the recipient opted out.' })
    .where('status', '=', 'pending')
    .where('claim_token', 'is', null)
    .where('purpose', 'in', ['invite', 'reminder', 'thank_you'])
    .where('ref_id', 'in', recipientIds)
    .execute();
  return r;
}
