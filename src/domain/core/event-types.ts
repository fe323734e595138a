// What an event is: its types and the fields a change records (events.ts writes them).
import type { EventFields } from '../../db/stores/responses.js';

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
  'account_updated',
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
