// Aggregates kept by triggers (migration 0043) so reads stay flat with data.

/** Responses per survey, collector, day begun (YYYY-MM-DD of date_created) and status, with the sum
 * of their total_time. `slot`: 0 on SQLite; on PostgreSQL the writing transaction's id until
 * `fold_response_days` folds it into 0. Readers sum every slot. */
export interface ResponseDaysTable {
  survey_id: string;
  collector_id: string;
  day: string;
  response_status: string;
  slot: number;
  n: number;
  total_time: number;
}

/** Contacts per account and status (slots as response_days). */
export interface ContactCountsTable {
  owner_id: string;
  status: string;
  slot: number;
  n: number;
}

export interface ScaleTables {
  response_days: ResponseDaysTable;
  contact_counts: ContactCountsTable;
}
