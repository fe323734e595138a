// Files uploaded as answers (migration 0021).
export interface UploadsTable {
  id: string;
  owner_id: string;
  survey_id: string;
  collector_id: string;
  /** The response that refers to it (possibly not committed yet: see the migration). */
  response_id: string;
  question_id: string;
  /** The name the respondent's file had (shown and offered as the download's name). */
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  /** The file's random name under UPLOAD_DIR. */
  storage_key: string;
  created_at: string;
}

export interface UploadTables {
  uploads: UploadsTable;
}
