// The group activity action types (spec "Group activities") and how each event of the outbox
// becomes one. Webhook-named events map to their activity names; activity-only events are
// recorded under the activity name itself.
import type { EventType, NewEvent } from './event-types.js';

export const ACTIVITY_TYPES = [
  'authentication_succeeded',
  'authentication_failed',
  'authentication_signout',
  'group_info_updated_group_name',
  'invite_created',
  'invite_resent',
  'member_deleted',
  'member_joined',
  'survey_info_create',
  'survey_info_delete',
  'survey_info_copy',
  'survey_info_update',
  'survey_info_transfer',
  'collector_info_created',
  'collector_info_deleted',
  'collector_info_updated',
  'member_updated_group_member_type',
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
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export function isActivityType(value: string): value is ActivityType {
  return (ACTIVITY_TYPES as readonly string[]).includes(value);
}

const RENAMED: Partial<Record<EventType, ActivityType>> = {
  survey_created: 'survey_info_create',
  survey_updated: 'survey_info_update',
  survey_deleted: 'survey_info_delete',
  collector_created: 'collector_info_created',
  collector_updated: 'collector_info_updated',
  collector_deleted: 'collector_info_deleted',
  response_updated: 'respondent_updated',
  response_deleted: 'respondent_deleted',
  app_installed: 'grant_info_created',
  app_uninstalled: 'grant_info_deleted',
};

/**
 * The activity an event becomes, or null. Only a person's action is activity: an event without an
 * actor (a respondent answering, the worker) is not. A survey_created event whose data names
 * `from_survey_id` is a copy (survey_info_copy); record survey_created once, not also survey_info_copy.
 */
export function activityTypeOf(event: Pick<NewEvent, 'type' | 'actorId' | 'data'>): ActivityType | null {
  if (!event.actorId) return null;
  if (event.type === 'survey_created' && event.data?.from_survey_id) return 'survey_info_copy';
  const renamed = RENAMED[event.type];
  if (renamed) return renamed;
  return isActivityType(event.type) ? event.type : null;
}
