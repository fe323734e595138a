// Shared results (migration 0037): a survey's read-only results page by link.

export interface SharedResultsTable {
  survey_id: string;
  /** the survey's owner (the owning account) */
  owner_id: string;
  /** SHA-256 of the link's token; null while the page is off */
  token_hash: string | null;
  /** the random value the token is derived from (HMAC under the server key); null while off */
  nonce: string | null;
  /** scrypt hash of the page's password, or null for none */
  password_hash: string | null;
  /** ISO time the link stops working, or null for never */
  expires_at: string | null;
  /** JSON array of the question ids the page shows */
  question_ids: string;
  /** the fixed results filter as a URL query (domain/analysis/filters.ts), '' for none */
  filter_query: string;
  created_at: string;
  updated_at: string;
}

export interface SharedResultsTables {
  shared_results: SharedResultsTable;
}
