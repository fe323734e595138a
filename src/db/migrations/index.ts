// Every migration, in order. Each area adds its own file and one line here; names sort by prefix.
// Each file says its kind: 'rolling-safe' (the previous release's processes may keep serving while
// it runs, and after) or 'needs-stop' (stop every process of the older release before migrating).
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.js';
import * as m0003 from './0003_oauth.js';
import * as m0004 from './0004_teams.js';
import * as m0005 from './0005_surveys.js';
import * as m0006 from './0006_collect.js';
import * as m0007 from './0007_reach.js';
import * as m0008 from './0008_shares.js';
import * as m0009 from './0009_invitations.js';
import * as m0010 from './0010_hot_lookups.js';
import * as m0011 from './0011_exports.js';
import * as m0012 from './0012_app_revisions.js';
import * as m0013 from './0013_window_counters.js';
import * as m0014 from './0014_account_tokens.js';
import * as m0015 from './0015_respondent_flow.js';
import * as m0020 from './0020_imports.js';
import * as m0021 from './0021_uploads.js';
import * as m0023 from './0023_import_page.js';
import * as m0024 from './0024_pg_hot_paths.js';
import * as m0025 from './0025_responses_created.js';
import * as m0026 from './0026_account_keys.js';
import * as m0027 from './0027_cache_keys.js';
import * as m0028 from './0028_themes.js';
import * as m0030 from './0030_notify.js';
import * as m0031 from './0031_title_search.js';
import * as m0033 from './0033_page_sorting.js';
import * as m0035 from './0035_integrations.js';
import * as m0037 from './0037_shared_results.js';
import * as m0039 from './0039_numeric_rollup.js';
import * as m0041 from './0041_survey_totals.js';
import * as m0043 from './0043_scale_indexes.js';
import * as m0045 from './0045_response_keys.js';
import * as m0047 from './0047_write_indexes.js';
import * as m0049 from './0049_results_stamp.js';
import * as m0050 from './0050_upload_bytes.js';
import * as m0052 from './0052_send_limits.js';
import * as m0053 from './0053_email_owner_index.js';
import * as m0058 from './0058_name_keys.js';
import * as m0062 from './0062_outbox_first_attempt.js';
import * as m0063 from './0063_worker_heartbeats.js';
import * as m0066 from './0066_person_shares.js';
import * as m0069 from './0069_alert_recipients.js';
import * as m0070 from './0070_sso_identities.js';
import * as m0071 from './0071_two_factor.js';
import * as m0072 from './0072_session_details.js';
import * as m0073 from './0073_audit_log.js';
import * as m0074 from './0074_email_match_indexes.js';
import * as m0075 from './0075_resume_links.js';
import * as m0076 from './0076_screening.js';
import * as m0077 from './0077_quotas.js';
import * as m0078 from './0078_calculated_variables.js';
import * as m0079 from './0079_question_layout.js';
import * as m0080 from './0080_report_schedules.js';
import * as m0081 from './0081_answer_sentiment.js';
import * as m0085 from './0085_email_attachment.js';
import * as m0086 from './0086_unlogged_counters.js';

export type MigrationKind = 'rolling-safe' | 'needs-stop';

export const migrations: Record<string, Migration & { kind: MigrationKind }> = {
  '0001_platform': m0001,
  '0003_oauth': m0003,
  '0004_teams': m0004,
  '0005_surveys': m0005,
  '0006_collect': m0006,
  '0007_reach': m0007,
  '0008_shares': m0008,
  '0009_invitations': m0009,
  '0010_hot_lookups': m0010,
  '0011_exports': m0011,
  '0012_app_revisions': m0012,
  '0013_window_counters': m0013,
  '0014_account_tokens': m0014,
  '0015_respondent_flow': m0015,
  '0020_imports': m0020,
  '0021_uploads': m0021,
  '0023_import_page': m0023,
  '0024_pg_hot_paths': m0024,
  '0025_responses_created': m0025,
  '0026_account_keys': m0026,
  '0027_cache_keys': m0027,
  '0028_themes': m0028,
  '0030_notify': m0030,
  '0031_title_search': m0031,
  '0033_page_sorting': m0033,
  '0035_integrations': m0035,
  '0037_shared_results': m0037,
  '0039_numeric_rollup': m0039,
  '0041_survey_totals': m0041,
  '0043_scale_indexes': m0043,
  '0045_response_keys': m0045,
  '0047_write_indexes': m0047,
  '0049_results_stamp': m0049,
  '0050_upload_bytes': m0050,
  '0052_send_limits': m0052,
  '0053_email_owner_index': m0053,
  '0058_name_keys': m0058,
  '0062_outbox_first_attempt': m0062,
  '0063_worker_heartbeats': m0063,
  '0066_person_shares': m0066,
  '0069_alert_recipients': m0069,
  '0070_sso_identities': m0070,
  '0071_two_factor': m0071,
  '0072_session_details': m0072,
  '0073_audit_log': m0073,
  '0074_email_match_indexes': m0074,
  '0075_resume_links': m0075,
  '0076_screening': m0076,
  '0077_quotas': m0077,
  '0078_calculated_variables': m0078,
  '0079_question_layout': m0079,
  '0080_report_schedules': m0080,
  '0081_answer_sentiment': m0081,
  '0085_email_attachment': m0085,
  '0086_unlogged_counters': m0086,
};
