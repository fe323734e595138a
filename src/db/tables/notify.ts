// Notification tables (migration 0030): account preferences and survey alerts.

export interface AccountPreferencesTable {
  user_id: string;
  /** an IANA time zone name: the account's pages show and take times in it */
  time_zone: string;
  /** 1: no response alerts, whatever the surveys ask */
  alerts_opt_out: number;
}

export interface SurveyAlertsTable {
  survey_id: string;
  owner_id: string;
  /** each | daily (no row: off) */
  mode: string;
  /** the next daily digest counts responses completed from here */
  digest_since: string;
}

/** Migration 0069: the people a survey's alerts go to (none: its owner). */
export interface SurveyAlertRecipientsTable {
  survey_id: string;
  user_id: string;
}

export interface NotifyTables {
  account_preferences: AccountPreferencesTable;
  survey_alerts: SurveyAlertsTable;
  survey_alert_recipients: SurveyAlertRecipientsTable;
}
