// Export jobs (migration 0011_exports): one row per requested export file. The worker claims a
// pending row with a lease like an outbox row, writes the file under EXPORT_DIR, and prunes rows
// and files past `expires_at`.

export interface ExportsTable {
  id: string;
  owner_id: string;
  survey_id: string;
  /** The user who asked for it (only they and others with analyze access fetch it). */
  user_id: string;
  format: string;
  /** JSON: values mode, BOM, filters, and the basic plan's ordinal ceiling. */
  options: string;
  /** pending: waiting, or running under a lease. */
  status: 'pending' | 'completed' | 'failed';
  total: number;
  done: number;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  claim_token: string | null;
  file_name: string | null;
  size: number | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
  expires_at: string;
}

export interface ExportTables {
  exports: ExportsTable;
}
