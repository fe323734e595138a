// The event outbox. Every change other parts must hear about (webhooks, group activity, emails)
// is written here in the same transaction as the change itself, so an event exists if and only
// if its change committed. Consumers read the table; nothing is lost if a process dies.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../context.js';
import type { Database } from '../db/schema.js';
import { eventRow } from '../db/stores/responses.js';
import { recordActivity } from './activity/record.js';
import type { NewEvent } from './event-types.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Records an event with `executor` (pass the transaction of the change). Its id must be reserved
 * beforehand with deps.ids, outside the transaction. An event a person caused (`actorId`) whose
 * type is, or maps to, a group activity type also writes that team's activity row here, in the
 * same transaction (src/domain/activity/): pass `ip` (request.ip) and the data the message names.
 */
export async function recordEvent(
  deps: Deps,
  executor: Executor,
  id: string,
  event: NewEvent,
): Promise<void> {
  const createdAt = deps.clock.now().toISOString();
  await executor
    .insertInto('events')
    .values(eventRow(id, event, createdAt))
    .execute();
  await recordActivity(executor, id, event, createdAt);
}
