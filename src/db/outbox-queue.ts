// The email outbox's enqueue side: queueEmail() writes an email in the caller's transaction, so
// the email exists exactly when the change that causes it commits; the worker (outbox/emails.ts)
// sends it.
import type { Kysely, Transaction } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** What queueing reads of Deps: the clock and the mail and outbox settings. */
interface QueueDeps {
  clock: { now(): Date };
  config: Pick<Config, 'mail' | 'outbox'>;
}

/** A file the worker attaches as it sends (stored by reference in emails.attachment, resolved by
 * domain/reports/summaries.ts): the survey's PDF report. */
export const EmailAttachmentRef = Type.Object({
  kind: Type.Literal('survey_report'),
  survey_id: Type.String(),
});

export interface NewEmail {
  /** reserved beforehand with deps.ids, outside the transaction */
  id: string;
  /** the account the email is sent for (null for system mail) */
  ownerId: string | null;
  to: string;
  /** defaults to MAIL_FROM */
  from?: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
  /** what the email is for, e.g. 'invite', 'reminder', and the id it belongs to (e.g. a recipient) */
  purpose?: string | null;
  refId?: string | null;
  /** send no earlier than this (a scheduled message); default now */
  notBefore?: Date;
  /** a file to attach when sending, by reference */
  attachment?: Static<typeof EmailAttachmentRef> | null;
}

/** Emails a person writes and sends (an owner's invitations and their tests); every other email
 * the service writes by itself (alerts, digests, operator alerts, account links and notices) and
 * says so with `Auto-Submitted: auto-generated` (RFC 3834), so auto-responders do not answer it. */
const PERSONAL_PURPOSES = new Set(['invite', 'reminder', 'thank_you', 'test']);

/** Queues one email in `executor` (pass the transaction of the change that causes it). */
export async function queueEmail(deps: QueueDeps, executor: Executor, email: NewEmail): Promise<void> {
  await queueEmails(deps, executor, [email]);
}

/** Queues several emails in `executor`, 500 rows a statement (a send to thousands of recipients
 * held its account's row for a statement per email). */
export async function queueEmails(deps: QueueDeps, executor: Executor, emails: NewEmail[]): Promise<void> {
  const now = deps.clock.now();
  const rows = emails.map((email) => {
    const due = email.notBefore && email.notBefore > now ? email.notBefore : now;
    const headers = PERSONAL_PURPOSES.has(email.purpose ?? '')
      ? (email.headers ?? {})
      : { 'Auto-Submitted': 'auto-generated', ...email.headers };
    return {
      id: email.id,
      owner_id: email.ownerId,
      to_address: email.to,
      from_address: email.from ?? deps.config.mail.from,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html ?? null,
      headers: JSON.stringify(headers),
      purpose: email.purpose ?? null,
      ref_id: email.refId ?? null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: due.toISOString(),
      retry_until: new Date(due.getTime() + deps.config.outbox.retryForHours * 3_600_000).toISOString(),
      claimed_until: null,
      claim_token: null,
      last_error: null,
      transport_id: null,
      created_at: now.toISOString(),
      sent_at: null,
      attachment: email.attachment ? JSON.stringify(email.attachment) : null,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await executor
      .insertInto('emails')
      .values(rows.slice(i, i + 500))
      .execute();
}
