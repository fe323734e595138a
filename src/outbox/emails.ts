// The email outbox's sending side: the worker sends each email queued by db/outbox-queue.ts
// (retrying with backoff, every attempt recorded) through the configured transport.
import { performance } from 'node:perf_hooks';
import type { Deps } from '../context.js';
import { setContactStatus } from '../domain/contacts/contacts.js';
import { summaryAttachments } from '../domain/reports/summaries.js';
import { errorMessage } from '../platform/errors.js';
import { parseAs, StringMap } from '../platform/json.js';
import { removeMailFiles } from '../platform/mail-files.js';
import { backoffSeconds } from './claim.js';
import { noteAttempt } from './failures.js';
import { isPermanentMailError, type MailTransport } from './mail-transport.js';

/** One attempt at one claimed email. */
export async function sendOne(
  deps: Deps,
  transport: MailTransport,
  emailId: string,
  token: string,
  now: () => Date,
): Promise<'sent' | 'retry' | 'failed' | 'gone'> {
  const k = deps.db.kysely;
  const email = await k
    .selectFrom('emails')
    .selectAll()
    .where('id', '=', emailId)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  if (!email) return 'gone';
  // A referenced file (a summary's PDF report) is made now; one that cannot be made is left off.
  const attachments = await summaryAttachments(deps, email.attachment);
  const started = now();
  const t0 = performance.now();
  let error: string | null = null;
  let permanent = false;
  let transportId: string | null = null;
  try {
    transportId = await transport.send({
      id: email.id,
      from: email.from_address,
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      html: email.html_body,
      headers: parseAs(StringMap, email.headers),
      attachments,
    });
  } catch (err) {
    error = errorMessage(err) || String(err);
    permanent = isPermanentMailError(err);
  }
  const duration = Math.round(performance.now() - t0);
  const finished = now();
  const attempt = email.attempts + 1;
  const outcome =
    error === null ? 'sent' : permanent || finished.toISOString() >= email.retry_until ? 'failed' : 'retry';
  const attemptId = await deps.ids.one();
  const erased = await k.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('emails')
      .set({
        status: outcome === 'retry' ? 'pending' : outcome,
        attempts: attempt,
        next_attempt_at:
          outcome === 'retry'
            ? new Date(finished.getTime() + backoffSeconds(deps, attempt) * 1000).toISOString()
            : email.next_attempt_at,
        claimed_until: null,
        claim_token: null,
        last_error: error,
        transport_id: transportId,
        sent_at: outcome === 'sent' ? finished.toISOString() : null,
        first_attempt_at: email.first_attempt_at ?? started.toISOString(),
      })
      .where('id', '=', email.id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    // Erased while it was being sent (erase --email): no row to record the attempt against.
    if (updated.numUpdatedRows === 0n) {
      const row = await trx.selectFrom('emails').select('id').where('id', '=', email.id).executeTakeFirst();
      if (!row) return true;
    }
    await trx
      .insertInto('email_attempts')
      .values({
        id: attemptId,
        email_id: email.id,
        attempt,
        started_at: started.toISOString(),
        duration_ms: duration,
        error,
        outcome,
      })
      .execute();
    return false;
  });
  if (!erased) noteAttempt(deps, 'emails', email.id, attempt, outcome, error);
  // ...and the .eml file just written for it goes too.
  if (erased && transport.kind === 'file') removeMailFiles(deps.config.mail.dir, [email.id]);
  // The server refused the address for good (SMTP 5xx): the contact is bounced, so later sends
  // skip it like an opt-out.
  if (permanent && email.owner_id) {
    const address = /<([^>]+)>\s*$/.exec(email.to_address)?.[1] ?? email.to_address;
    await setContactStatus(deps, email.owner_id, address, 'bounced');
  }
  return outcome;
}

/** One page of the outbox, newest first, and the total (the local mail page). */
export async function outboxPage(deps: Deps, pageNo: number, perPage: number) {
  const k = deps.db.kysely;
  const { n } = await k
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await k
    .selectFrom('emails')
    .select(['id', 'to_address', 'subject', 'status', 'created_at', 'sent_at', 'attempts', 'last_error'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((pageNo - 1) * perPage)
    .execute();
  return { total: Number(n), rows };
}

/** One email of the outbox, if it exists. */
export async function outboxEmail(deps: Deps, id: string) {
  return deps.db.kysely.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirst();
}
