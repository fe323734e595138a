// Which event types go with which object types (reference §13.2).

export const WEBHOOK_EVENT_TYPES = [
  'response_completed',
  'response_updated',
  'response_disqualified',
  'response_created',
  'response_deleted',
  'response_overquota',
  'collector_created',
  'collector_updated',
  'collector_deleted',
  'survey_created',
  'survey_updated',
  'survey_deleted',
  'app_installed',
  'app_uninstalled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_OBJECT_TYPES = ['survey', 'collector', 'app'] as const;
export type WebhookObjectType = (typeof WEBHOOK_OBJECT_TYPES)[number];

export interface WebhookSubscription {
  event_type: string;
  object_type?: string | null;
  object_ids?: readonly string[] | null;
}

/**
 * Checks a subscription and returns its stored form, or a reason it is invalid:
 * - survey_created watches every new survey of the account: object_type survey (or omitted), no ids;
 * - app_installed / app_uninstalled go with object_type app (and are the only events that do);
 * - object_type collector takes the response events and collector_updated / collector_deleted;
 * - object_type survey takes every survey, collector and response event.
 */
export function checkSubscription(
  s: WebhookSubscription,
): { objectType: WebhookObjectType; objectIds: string[] } | { problem: string } {
  const event = s.event_type as WebhookEventType;
  const ids = [...new Set(s.object_ids ?? [])];
  if (event === 'survey_created') {
    if (s.object_type != null && s.object_type !== 'survey')
      return { problem: 'survey_created webhooks take no object_type (or object_type survey).' };
    if (ids.length > 0) return { problem: 'survey_created webhooks take no object_ids.' };
    return { objectType: 'survey', objectIds: [] };
  }
  if (event === 'app_installed' || event === 'app_uninstalled') {
    if (s.object_type != null && s.object_type !== 'app')
      return { problem: `${event} webhooks need object_type app.` };
    return { objectType: 'app', objectIds: ids };
  }
  if (s.object_type == null) return { problem: `'object_type' is required for ${event} webhooks.` };
  if (s.object_type === 'app')
    return { problem: 'object_type app only goes with app_installed and app_uninstalled.' };
  if (s.object_type === 'collector' && (event === 'collector_created' || event.startsWith('survey_')))
    return { problem: `object_type collector cannot be used with ${event}.` };
  return { objectType: s.object_type as WebhookObjectType, objectIds: ids };
}
