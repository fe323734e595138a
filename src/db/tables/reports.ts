// Scheduled summaries (migration 0080): a survey's weekly or monthly email of its headline figures.

export interface ReportSchedulesTable {
  survey_id: string;
  owner_id: string;
  /** weekly | monthly */
  frequency: string;
  /** weekly: 0 (Sunday) … 6 */
  weekday: number | null;
  /** monthly: 1 … 31 (a shorter month sends on its last day) */
  day_of_month: number | null;
  /** 0 … 23, local time in `time_zone` */
  hour: number;
  /** an IANA time zone name */
  time_zone: string;
  /** UTC ISO: when the next summary is due */
  next_send_at: string;
  last_sent_at: string | null;
  date_created: string;
  date_modified: string;
}

export interface ReportTables {
  report_schedules: ReportSchedulesTable;
}
