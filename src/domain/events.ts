// The event outbox. Every change other parts must hear about (webhooks, group activity, emails)
// is written here in the same transaction as the change itself, so an event exists if and only
// if its change committed. Consumers read the table; nothing is lost if a process dies.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../context.js';
import type { Database } from '../db/schema.js';
import { type EventFields, eventRow } from '../db/stores/responses.js';
import { recordActivity } from './activity/record.js';

/**
 * Event types. Webhook-visible events use the public API's webhook names; the others use the
 * group-activity action type they become.
 */
export const EVENT_TYPES = [
  // webhook event types (reference §13.2)
  'survey_created',
  'survey_updated',
  'survey_deleted',
  'collector_created',
  'collector_updated',
  'collector_deleted',
  'response_created',
  'response_updated',
  'response_completed',
  'response_disqualified',
  'response_overquota',
  'response_deleted',
  'app_installed',
  'app_uninstalled',
  // activity-only types (spec "Group activities")
  'authentication_succeeded',
  'authentication_failed',
  'authentication_signout',
  'group_info_updated_group_name',
  'invite_created',
  'invite_resent',
  'member_deleted',
  'member_joined',
  'member_updated_group_member_type',
  'survey_info_copy',
  'survey_info_transfer',
  'permission_created',
  'permission_updated',
  'shared_view_created',
  'shared_view_updated',
  'export_export_create',
  'export_downloaded',
  'respondent_updated',
  'respondent_deleted',
  'grant_info_created',
  'grant_info_deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event (its row is mapped by eventRow, db/stores/responses.ts, for every writer). */
export interface NewEvent extends EventFields {
  type: EventType;
  /**
   * The team whose activity log the event belongs to. Omit it: the actor's team (their active
   * membership at the time) is used. Name it only when acting on a team the actor is not in.
   */
  groupId?: string | null;
}

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
