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

/** Bytes uploaded per key (an account, a client address) in a one-hour window (migration 0050). */
export interface UploadByteWindowsTable {
  key: string;
  /** the window's number: epoch ms / one hour */
  window_start: number;
  bytes: number;
}

export interface UploadTables {
  uploads: UploadsTable;
  upload_byte_windows: UploadByteWindowsTable;
}
