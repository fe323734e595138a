// The respondent screening (migration 0076): responses kept aside, written and read by
// domain/screening only, and the windowed counters of its per-address limits and duplicate rules.

export interface FlaggedResponsesTable {
  id: string;
  owner_id: string;
  survey_id: string;
  collector_id: string;
  /** JSON list of why it was kept aside: honeypot, too_fast, address_limit, duplicate */
  reasons: string;
  /** what it would be as a response: partial | completed | disqualified */
  response_status: string;
  recipient_id: string;
  custom_value: string;
  /** JSON name -> value */
  custom_variables: string;
  ip_address: string;
  first_name: string;
  last_name: string;
  email_address: string;
  date_created: string;
  date_modified: string;
  /** JSON: the API's `pages` array, as on responses */
  pages: string;
  page_path: string;
  logic_path: string;
  current_page_id: string;
  /** sha256 of the respondent page's session cookie */
  respondent_key: string | null;
}

export interface ScreeningCountersTable {
  key: string;
  /** the window's number (epoch ms / window length) */
  window_start: number;
  count: number;
}

export interface ScreeningTables {
  flagged_responses: FlaggedResponsesTable;
  screening_counters: ScreeningCountersTable;
}
