// Imports (migration 0020_imports): a job per (owner, source URL, source account) and its id map.

export interface ImportJobsTable {
  id: string;
  owner_id: string;
  /** The source API's base URL, normalised (no trailing slash, no /v3). */
  source_url: string;
  /** The source account (GET /users/me), so one token of another account is another job. */
  source_user_id: string;
  /** running | paused | done | failed | stopped (its server process stopped) */
  state: string;
  /** JSON: the phases done and, per survey, the responses pass in progress. */
  cursor: string;
  /** JSON: copied (created or updated) per kind, over every run. */
  counts: string;
  /** JSON: what could not be copied, by name. */
  skipped: string;
  requests_total: number;
  /** The UTC day (YYYY-MM-DD) budget_used counts for; the source resets at 00:00 GMT. */
  budget_day: string;
  budget_used: number;
  daily_budget: number;
  created_at: string;
  updated_at: string;
  /** Refreshed while a server process runs (or waits to resume) the job; null when none does. */
  heartbeat_at: string | null;
  /** Why the last run failed (a message about the source, never the token). */
  last_error: string | null;
  /** JSON: what the source holds ({surveys, responses, contacts}), for the progress bar. */
  totals: string;
}

export interface ImportIdsTable {
  job_id: string;
  /** folder | survey | page | question | answer | collector | response | list | contact */
  kind: string;
  source_id: string;
  local_id: string;
  /** The source's date_modified when copied: a newer one means "changed". */
  source_stamp: string;
}

export interface ImportTables {
  import_jobs: ImportJobsTable;
  import_ids: ImportIdsTable;
}
