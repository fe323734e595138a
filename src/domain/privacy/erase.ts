// Erasure on request: everything an address left in one owner's account (or every account):
// contacts, invitation recipients (with what messages reached them), responses given under that
// address, through those recipients' links, or that hold the address as an answer (a respondent who
// typed their own address into a text, email or contact-details question), and queued or sent
// emails to it (with their .eml files in the local outbox). Responses go through deleteResponses, so
// survey and collector counts and rollup counts stay consistent and webhooks hear response_deleted.
// The address must be one real address: an empty or blank one would match every anonymous response
// (stored with no address), so it is refused before anything is read. A dry run finds the same rows
// and deletes nothing.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { removeMailFiles } from '../../platform/mail-files.js';
import { deleteResponses, type ResponseRow } from '../responses/responses.js';

export interface ErasureReport {
  email: string;
  contacts: number;
  recipients: number;
  /** Every response erased (or, in a dry run, found), whichever way it was found. */
  responses: number;
  surveys: number;
  emails: number;
  /** Of `responses`, those found only by an answer whose whole text is the address. */
  responses_by_answer: number;
  /** True when nothing was deleted: the report says what an erasure would delete. */
  dry_run: boolean;
  /** The rows found, per kind. */
  ids: { contacts: string[]; recipients: string[]; responses: string[]; surveys: string[]; emails: string[] };
}

/** Whether a response's answers (its `pages` JSON) hold an answer whose text, trimmed and
 * lower-cased, is `address`: open-ended, contact-details and "other" boxes alike. An address inside
 * a longer text is not matched. */
export function answersHold(pages: string, address: string): boolean {
  let parsed: Array<{ questions?: Array<{ answers?: Array<{ text?: unknown }> }> }>;
  try {
    parsed = JSON.parse(pages);
  } catch {
    return false;
  }
  if (!Array.isArray(parsed)) return false;
  return parsed.some((p) =>
    (p?.questions ?? []).some((q) =>
      (q?.answers ?? []).some((a) => typeof a?.text === 'string' && a.text.trim().toLowerCase() === address),
    ),
  );
}

/** A LIKE pattern for text containing `value`, with `!` as the escape character. */
const containing = (value: string) => `%${value.replace(/[!%_]/g, '!$&')}%`;

/** One address (something@somewhere, no spaces), as stored addresses are compared. */
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** The address an erasure is for, lower-cased and trimmed; null for an empty, blank or malformed one. */
export function erasureAddress(email: string): string | null {
  const address = email.trim().toLowerCase();
  return ADDRESS.test(address) && address.length <= 320 ? address : null;
}

export async function erasePerson(
  deps: Deps,
  email: string,
  ownerId?: string,
  options: { dryRun?: boolean } = {},
): Promise<ErasureReport> {
  const k = deps.db.kysely;
  const dryRun = options.dryRun === true;
  const address = erasureAddress(email);
  if (!address) throw new ApiError(1002, `'${email}' is not an email address; erasure needs exactly one.`);
  // biome-ignore lint/suspicious/noExplicitAny: the select, delete and update builders' where differ
  const owned = <T extends { where: (...a: any[]) => T }>(q: T, column: string): T =>
    ownerId ? q.where(column, '=', ownerId) : q;
  // biome-ignore lint/suspicious/noExplicitAny: one predicate for the select and the delete of emails
  const toAddress = (eb: any) =>
    eb.or([
      eb(sql`lower(to_address)`, '=', address),
      // "Name <address>": the address's own % and _ are escaped, not wildcards.
      sql<boolean>`lower(to_address) like ${`%<${address.replace(/[!%_]/g, '!$&')}>`} escape '!'`,
    ]);

  const recipients = await owned(
    k.selectFrom('collector_recipients').select('id').where(sql`lower(email)`, '=', address),
    'owner_id',
  ).execute();
  const recipientIds = recipients.map((r) => r.id);
  const responses = (await owned(
    k
      .selectFrom('responses')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb(sql`lower(email_address)`, '=', address),
          ...(recipientIds.length ? [eb('recipient_id', 'in', recipientIds)] : []),
        ]),
      ),
    'owner_id',
  ).execute()) as ResponseRow[];
  // Responses holding the address as an answer: the database narrows to those whose answers contain
  // it anywhere (one scan of the responses), and each candidate's answers are read to keep only an
  // answer that is the address.
  const seen = new Set(responses.map((r) => r.id));
  const candidates = (await owned(
    k
      .selectFrom('responses')
      .selectAll()
      .where(sql<boolean>`lower(pages) like ${containing(address)} escape '!'`),
    'owner_id',
  ).execute()) as ResponseRow[];
  const byAnswer = candidates.filter((r) => !seen.has(r.id) && answersHold(r.pages, address));
  responses.push(...byAnswer);
  const bySurvey = new Map<string, ResponseRow[]>();
  for (const r of responses) bySurvey.set(r.survey_id, [...(bySurvey.get(r.survey_id) ?? []), r]);
  const found = {
    email: address,
    responses: responses.length,
    surveys: bySurvey.size,
    responses_by_answer: byAnswer.length,
  };

  if (dryRun) {
    const contacts = await owned(
      k.selectFrom('contacts').select('id').where(sql`lower(email)`, '=', address),
      'owner_id',
    ).execute();
    const emails = await owned(k.selectFrom('emails').select('id').where(toAddress), 'owner_id').execute();
    return {
      ...found,
      contacts: contacts.length,
      recipients: recipientIds.length,
      emails: emails.length,
      dry_run: true,
      ids: idsOf(
        contacts.map((c) => c.id),
        recipientIds,
        responses,
        emails.map((m) => m.id),
      ),
    };
  }

  for (const rows of bySurvey.values()) await deleteResponses(deps, { userId: null, ip: null }, rows);
  const gone = await k.transaction().execute(async (trx) => {
    const r = recipientIds.length
      ? await trx.deleteFrom('collector_recipients').where('id', 'in', recipientIds).executeTakeFirst()
      : { numDeletedRows: 0n };
    const contacts = await owned(
      trx.deleteFrom('contacts').where(sql`lower(email)`, '=', address),
      'owner_id',
    )
      .returning('id')
      .execute();
    const emails = await owned(trx.deleteFrom('emails').where(toAddress), 'owner_id')
      .returning('id')
      .execute();
    // Responses the screening kept aside hold the address too (not reported: no one counted them).
    await owned(
      trx
        .deleteFrom('flagged_responses')
        .where((eb) =>
          eb.or([
            eb(sql`lower(email_address)`, '=', address),
            ...(recipientIds.length ? [eb('recipient_id', 'in', recipientIds)] : []),
          ]),
        ),
      'owner_id',
    ).execute();
    // Before the commit: should it fail, the rows stay and a second erasure finishes the job, while
    // no file is left behind by an erasure that reported success.
    removeMailFiles(
      deps.config.mail.dir,
      emails.map((m) => m.id),
    );
    return {
      recipients: Number(r.numDeletedRows),
      contactIds: contacts.map((c) => c.id),
      emailIds: emails.map((m) => m.id),
    };
  });
  return {
    ...found,
    contacts: gone.contactIds.length,
    recipients: gone.recipients,
    emails: gone.emailIds.length,
    dry_run: false,
    ids: idsOf(gone.contactIds, recipientIds, responses, gone.emailIds),
  };
}

function idsOf(contacts: string[], recipients: string[], responses: ResponseRow[], emails: string[]) {
  return {
    contacts,
    recipients,
    responses: responses.map((r) => r.id),
    surveys: [...new Set(responses.map((r) => r.survey_id))],
    emails,
  };
}
