// The human text of each activity (activity_msg), built once when the activity is recorded from
// the event's data. Events may carry: title (survey), name (collector, workgroup), member (the
// username acted on), old/new (values changed), workgroup (name), resource_id.
import type { ActivityType } from './activity-types.js';

type Data = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function thing(kind: string, data: Data, resourceId: string | null): string {
  const label = str(data.title) ?? str(data.name);
  if (label) return `${kind} "${label}"`;
  return resourceId ? `${kind} ${resourceId}` : `a ${kind}`;
}

export function activityMessage(type: ActivityType, data: Data, resourceId: string | null): string {
  const member = str(data.member) ?? 'a member';
  const survey = thing('survey', data, str(data.survey_id) ?? resourceId);
  const collector = thing('collector', data, resourceId);
  const workgroup = str(data.workgroup) ? ` with workgroup "${str(data.workgroup)}"` : '';
  switch (type) {
    case 'authentication_succeeded':
      return 'Signed in';
    case 'authentication_failed':
      return 'Sign-in failed';
    case 'authentication_signout':
      return 'Signed out';
    case 'group_info_updated_group_name':
      return `Renamed the team from "${str(data.old) ?? ''}" to "${str(data.new) ?? ''}"`;
    case 'invite_created':
      return `Invited ${member} to the team`;
    case 'invite_resent':
      return `Resent the team invitation to ${member}`;
    case 'member_deleted':
      return `Removed ${member} from the team`;
    case 'member_joined':
      return 'Joined the team';
    case 'member_updated_group_member_type':
      return `Changed the member type of ${member} from ${str(data.old) ?? '?'} to ${str(data.new) ?? '?'}`;
    case 'survey_info_create':
      return `Created ${survey}`;
    case 'survey_info_copy':
      return `Created ${survey} as a copy of survey ${str(data.from_survey_id) ?? ''}`.trimEnd();
    case 'survey_info_update':
      return `Updated ${survey}`;
    case 'survey_info_delete':
      return `Deleted ${survey}`;
    case 'survey_info_transfer':
      return `Transferred ${survey}${str(data.to) ? ` to ${str(data.to)}` : ''}`;
    case 'collector_info_created':
      return `Created ${collector}`;
    case 'collector_info_updated':
      return `Updated ${collector}`;
    case 'collector_info_deleted':
      return `Deleted ${collector}`;
    case 'permission_created':
      return `Shared ${survey}${workgroup}`;
    case 'permission_updated':
      return `Changed the sharing of ${survey}${workgroup}`;
    case 'shared_view_created':
      return `Created a shared view of ${survey}`;
    case 'shared_view_updated':
      return `Updated a shared view of ${survey}`;
    case 'export_export_create':
      return `Exported the results of ${survey}`;
    case 'export_downloaded':
      return `Downloaded an export of ${survey}`;
    case 'respondent_updated':
      return `Updated a response to ${survey}`;
    case 'respondent_deleted':
      return `Deleted a response to ${survey}`;
    case 'grant_info_created':
      return `Authorized the app ${str(data.app) ?? str(data.name) ?? ''}`.trimEnd();
    case 'grant_info_deleted':
      return `Removed the app ${str(data.app) ?? str(data.name) ?? ''}`.trimEnd();
    case 'account_updated':
      return `Changed the ${str(data.field) ?? 'account'} of ${member} from ${str(data.old) ?? ''} to ${str(data.new) ?? ''}`;
  }
}
