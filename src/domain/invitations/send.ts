// Sending a message: every recipient it reaches gets one email, queued (queueEmails) in the
// transaction that marks the message sent, so a send is all or nothing and the worker delivers it
// (at scheduled_date for a scheduled send). Invites go to the message's recipients; reminders to the
// collector's recipients who have not (fully) responded; thank-you messages to those who have.
// Opted-out and bounced contacts are skipped, whenever they opted out.
import { timingSafeEqual } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { queueEmail, queueEmails } from '../../db/outbox-queue.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { chunks } from '../../platform/lists.js';
import type { Plan } from '../../platform/plans.js';
import { accessUrl } from '../../platform/regions.js';
import type { Account } from '../accounts/users.js';
import type { Collector } from '../collectors/collectors.js';
import { newContactRow, setContactStatus } from '../contacts/contacts.js';
import { reportRefusedSend, reserveSends, SendCapError } from '../limits/send-limit.js';
import { emailLook, themeOfSurvey } from '../themes/themes.js';
import {
  type EmailTheme,
  type MergeValues,
  type MessageLinks,
  renderInvitation,
  themeFor,
} from './email-body.js';
import type { MessageRow } from './messages.js';
import {
  byEmail,
  ensureLinkToken,
  type RecipientRow,
  recipientStates,
  removeLink,
  surveyLink,
} from './recipients.js';
import { safeDisplayName, senderName } from './sender.js';

export interface SendResult {
  message: MessageRow;
  /** ids of the recipients reached (collector_recipients, as GET /collectors/{id}/recipients/{id}) */
  recipientIds: string[];
}

/** `"Name" <address>`, or the bare address when there is no name (quotes taken out of the name). */
export function addressOf(email: string, name: string): string {
  const n = name.replace(/["\\\r\n]/g, '').trim();
  return n ? `"${n}" <${email}>` : email;
}

/** Invitations come from the service's MAIL_FROM address as "<owner's name> via Survey Service"
 * (sender.ts: never an address or a domain), so they pass the receiving server's SPF/DKIM checks
 * and cannot pose as another sender; answers go to the owner's verified address (Reply-To). */
export function senderOf(deps: Deps, owner: Account): { from: string; replyTo: string } {
  const service = /<([^>]+)>\s*$/.exec(deps.config.mail.from)?.[1] ?? deps.config.mail.from.trim();
  const own = safeDisplayName(`${owner.first_name ?? ''} ${owner.last_name ?? ''}`);
  return { from: addressOf(service, senderName(owner)), replyTo: addressOf(owner.email, own) };
}

/** The List-Unsubscribe headers of an invitation (RFC 2369, one-click per RFC 8058): the signed
 * https link (a POST opts out, no cookie or form token needed), and a mailto to ABUSE_CONTACT. */
export function unsubscribeHeaders(deps: Deps, oneClick: string): Record<string, string> {
  const abuse = deps.config.abuseContact;
  const mailto = abuse ? `<mailto:${abuse}?subject=unsubscribe>, ` : '';
  return {
    'List-Unsubscribe': `${mailto}<${oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** The one-click unsubscribe link of a recipient: its token and the server key's MAC of it. */
export function unsubscribeLink(deps: Deps, base: string, r: Pick<RecipientRow, 'token'>): string {
  return `${base}/unsubscribe/${r.token}.${deps.secrets.sign('unsubscribe', r.token)}`;
}

/** The recipient token a one-click link names, if its MAC is the server's; else null. */
export function unsubscribeToken(deps: Deps, signed: string): string | null {
  const m = /^([A-Za-z0-9_-]{10,60})\.([A-Za-z0-9_-]{20,100})$/.exec(signed);
  if (!m) return null;
  const want = Buffer.from(deps.secrets.sign('unsubscribe', m[1]));
  const got = Buffer.from(m[2]);
  return want.length === got.length && timingSafeEqual(want, got) ? m[1] : null;
}

/** A recipient's merge values. */
export function mergeValuesOf(
  r: Pick<RecipientRow, 'email' | 'first_name' | 'last_name' | 'custom_fields'>,
): MergeValues {
  let custom: Record<string, string> = {};
  try {
    custom = JSON.parse(r.custom_fields) as Record<string, string>;
  } catch {
    // a malformed stored value merges as empty fields
  }
  return { email: r.email, first_name: r.first_name ?? '', last_name: r.last_name ?? '', custom };
}

/** The look of the collector's survey's emails: its stored theme, else the older theme_color. */
export function surveyTheme(deps: Deps, collector: Collector, baseUrl: string): Promise<EmailTheme> {
  return surveyEmailTheme(deps, collector.survey_id, baseUrl);
}

/** The look of a survey's emails (invitations, response alerts): its stored theme, else theme_color. */
export async function surveyEmailTheme(deps: Deps, surveyId: string, baseUrl: string): Promise<EmailTheme> {
  const row = await deps.db.kysely
    .selectFrom('surveys')
    .select(['theme_color', 'theme_id', 'owner_id'])
    .where('id', '=', surveyId)
    .executeTakeFirst();
  const stored = row ? await themeOfSurvey(deps, row) : undefined;
  if (stored) {
    const theme = emailLook(stored, baseUrl);
    return {
      accent: theme.primary_color,
      onAccent: theme.button_text_color,
      fontStack: theme.font_stack,
      logoUrl: theme.logo_url,
    };
  }
  return themeFor(row?.theme_color);
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
  const linkToken = await ensureLinkToken(deps, collector);
  const base = accessUrl(deps.config, sender.user.region);
  const emailIds = await deps.ids.take(recipients.length);
  const at = scheduledIso ?? now.toISOString();
  const notBefore = scheduledIso ? new Date(scheduledIso) : undefined;
  const { from, replyTo } = senderOf(deps, sender.user);
  const theme = await surveyTheme(deps, collector, base);
  const sent: MessageRow = {
    ...message,
    status: 'sent',
    scheduled_date: at,
    date_modified: now.toISOString(),
  };
  await capped(deps, async (trx) => {
    // Holds the account's row: concurrent sends count one after another, so the cap is exact.
    await reserveSends(deps, trx, collector.owner_id, recipients.length);
    const claimed = await trx
      .updateTable('collector_messages')
      .set({ status: 'sent', scheduled_date: at, date_modified: sent.date_modified })
      .where('id', '=', message.id)
      .where('status', '=', 'not_sent')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0)
      throw new ApiError(1025, `Message ${message.id} has already been sent.`);
    const emails = recipients.map((r, i) => {
      const links: MessageLinks = {
        survey: surveyLink(base, linkToken, r),
        optOut: removeLink(base, r),
        privacy: `${base}/privacy`,
        footer: base,
        unsubscribe: unsubscribeLink(deps, base, r),
        abuse: deps.config.abuseContact,
      };
      const mail = renderInvitation(message, mergeValuesOf(r), links, theme);
      return {
        id: emailIds[i],
        ownerId: collector.owner_id,
        to: addressOf(r.email, `${r.first_name} ${r.last_name}`),
        from,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: { 'Reply-To': replyTo, ...unsubscribeHeaders(deps, links.unsubscribe!) },
        purpose: message.type,
        refId: r.id,
        notBefore,
      };
    });
    await queueEmails(deps, trx, emails);
    const sends = recipients.map((r, i) => ({
      message_id: message.id,
      recipient_id: r.id,
      collector_id: collector.id,
      mail_status: 'sent',
      email_id: emailIds[i],
      sent_at: at,
    }));
    for (const run of chunks(sends, 500))
      await trx
        .insertInto('message_recipients')
        .values(run)
        .onConflict((oc) =>
          oc.columns(['message_id', 'recipient_id']).doUpdateSet((eb) => ({
            mail_status: 'sent',
            email_id: eb.ref('excluded.email_id'),
            sent_at: eb.ref('excluded.sent_at'),
          })),
        )
        .execute();
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

/**
 * One copy of the message to the sender's own address, filled with their own name ("send a test to
 * me"): it is not an invitation (no recipient, not counted in the day's sends) and its links are
 * examples. The address must be verified, as for a real send (1058).
 */
export async function sendTestMessage(
  deps: Deps,
  user: Account,
  collector: Collector,
  message: MessageRow,
): Promise<void> {
  if (!user.email_verified)
    throw new ApiError(1058, "The account's email address must be verified before invitations are sent.");
  const base = accessUrl(deps.config, user.region);
  const links: MessageLinks = exampleLinks(base, collector, deps.config.abuseContact);
  const values = {
    email: user.email,
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    custom: {},
  };
  const mail = renderInvitation(message, values, links, await surveyTheme(deps, collector, base));
  const { from, replyTo } = senderOf(deps, user);
  const id = await deps.ids.one();
  await capped(deps, async (trx) => {
    await reserveSends(deps, trx, collector.owner_id, 1);
    await queueEmail(deps, trx, {
      id,
      ownerId: collector.owner_id,
      to: addressOf(user.email, `${user.first_name ?? ''} ${user.last_name ?? ''}`),
      from,
      subject: `[Test] ${mail.subject}`,
      text: mail.text,
      html: mail.html,
      headers: { 'Reply-To': replyTo },
      purpose: 'test',
      refId: message.id,
    });
  });
}

/** Runs `work` in a transaction; a send it refuses for the cap is reported before it is thrown. */
async function capped(deps: Deps, work: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
  try {
    await deps.db.kysely.transaction().execute(work);
  } catch (err) {
    if (err instanceof SendCapError) await reportRefusedSend(deps, err);
    throw err;
  }
}

/** The links a preview or a test shows in place of a recipient's personal ones. */
export function exampleLinks(base: string, collector: Collector, abuse?: string): MessageLinks {
  return {
    survey: `${base}/r/${collector.url_token ?? 'survey'}?rcp=personal-link`,
    optOut: `${base}/optout?sm=personal-link`,
    privacy: `${base}/privacy`,
    footer: base,
    unsubscribe: `${base}/unsubscribe/personal-link`,
    abuse,
  };
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
