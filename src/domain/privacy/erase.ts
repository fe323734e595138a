// Erasure on request: everything an address left in one owner's account (or every account):
// contacts, invitation recipients (with what messages reached them), responses given under that
// address or through those recipients' links, and queued or sent emails to it (with their .eml files
// in the local outbox). Responses go through
// deleteResponses, so survey and collector counts and rollup counts stay consistent and webhooks
// hear response_deleted. The address must be one real address: an empty or blank one would match
// every anonymous response (stored with no address), so it is refused before anything is read.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { removeMailFiles } from '../../platform/mail-files.js';
import { deleteResponses, type ResponseRow } from '../responses/responses.js';

export interface ErasureReport {
  email: string;
  contacts: number;
  recipients: number;
  responses: number;
  surveys: number;
  emails: number;
}

/** One address (something@somewhere, no spaces), as stored addresses are compared. */
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** The address an erasure is for, lower-cased and trimmed; null for an empty, blank or malformed one. */
export function erasureAddress(email: string): string | null {
  const address = email.trim().toLowerCase();
  return ADDRESS.test(address) && address.length <= 320 ? address : null;
}

export async function erasePerson(deps: Deps, email: string, ownerId?: string): Promise<ErasureReport> {
  const k = deps.db.kysely;
  const address = erasureAddress(email);
  if (!address) throw new ApiError(1002, `'${email}' is not an email address; erasure needs exactly one.`);
  // biome-ignore lint/suspicious/noExplicitAny: the select, delete and update builders' where differ
  const owned = <T extends { where: (...a: any[]) => T }>(q: T, column: string): T =>
    ownerId ? q.where(column, '=', ownerId) : q;

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
  const bySurvey = new Map<string, ResponseRow[]>();
  for (const r of responses) bySurvey.set(r.survey_id, [...(bySurvey.get(r.survey_id) ?? []), r]);
  for (const rows of bySurvey.values()) await deleteResponses(deps, { userId: null, ip: null }, rows);

  const gone = await k.transaction().execute(async (trx) => {
    const r = recipientIds.length
      ? await trx.deleteFrom('collector_recipients').where('id', 'in', recipientIds).executeTakeFirst()
      : { numDeletedRows: 0n };
    const c = await owned(
      trx.deleteFrom('contacts').where(sql`lower(email)`, '=', address),
      'owner_id',
    ).executeTakeFirst();
    const emails = await owned(
      trx.deleteFrom('emails').where((eb) =>
        eb.or([
          eb(sql`lower(to_address)`, '=', address),
          // "Name <address>": the address's own % and _ are escaped, not wildcards.
          sql<boolean>`lower(to_address) like ${`%<${address.replace(/[!%_]/g, '!$&')}>`} escape '!'`,
        ]),
      ),
      'owner_id',
    )
      .returning('id')
      .execute();
    // Before the commit: should it fail, the rows stay and a second erasure finishes the job, while
    // no file is left behind by an erasure that reported success.
    removeMailFiles(
      deps.config.mail.dir,
      emails.map((m) => m.id),
    );
    return {
      recipients: Number(r.numDeletedRows),
      contacts: Number(c.numDeletedRows),
      emails: emails.length,
    };
  });
  return { email: address, ...gone, responses: responses.length, surveys: bySurvey.size };
}
