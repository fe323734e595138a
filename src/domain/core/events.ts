// The event outbox. Every change other parts must hear about (webhooks, group activity, emails)
// is written here in the same transaction as the change itself, so an event exists if and only
// if its change committed. Consumers read the table; nothing is lost if a process dies.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { eventRow } from '../../db/stores/responses.js';
import { recordActivity } from './activity.js';
import type { NewEvent } from './event-types.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Records an event with `executor` (pass the transaction of the change). Its id must be reserved
 * beforehand with deps.ids, outside the transaction. An event a person caused (`actorId`) whose
 * type is, or maps to, a group activity type also writes that team's activity row here, in the
 * same transaction (activity.ts): pass `ip` (request.ip) and the data the message names.
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

/** Where a row's second event is kept: its id and type (the rest of the event is the first's). */
const NEXT = 'next_event';
type Recorded = { id: string; event: NewEvent };

/**
 * Two events of one change that differ only in type, as one events row: the first's, naming the
 * second's id and type. A new response's response_created and its status event (response_completed,
 * …) are written so, one row per response instead of two; outbox/fanout.ts reads it back as both.
 */
export function oneRow(events: Recorded[]): Recorded[] {
  if (events.length !== 2) return events;
  const [first, next] = events;
  return [
    {
      id: first.id,
      event: {
        ...first.event,
        data: { ...first.event.data, [NEXT]: { id: next.id, type: next.event.type } },
      },
    },
  ];
}

/** The events an events row stands for, in order (two for a row written by oneRow). */
export function eventsOf<E extends { id: string; type: string; data: string }>(row: E): E[] {
  if (!row.data.includes(NEXT)) return [row];
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    return [row];
  }
  const next = data[NEXT] as { id?: unknown; type?: unknown } | undefined;
  if (typeof next?.id !== 'string' || typeof next.type !== 'string') return [row];
  delete data[NEXT];
  const rest = JSON.stringify(data);
  return [
    { ...row, data: rest },
    { ...row, id: next.id, type: next.type, data: rest },
  ];
}
