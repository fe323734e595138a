// Tables of collecting: collectors, responses (one row per response holding all its answers as one
// JSON document, so export pages stream without per-answer joins), per-survey response ordinals, and
// rollup counts kept in the transaction of every response change (so rollups never rescan).
import type { Generated } from 'kysely';

export interface CollectorsTable {
  id: string;
  survey_id: string;
  owner_id: string;
  type: string;
  /** new | open | closed */
  status: string;
  name: string;
  /** Unguessable token of the weblink URL (/r/<token>); null for other types. */
  url_token: string | null;
  /** scrypt hash of the respondent password, or null. */
  password_hash: string | null;
  /** ISO instant or null */
  close_date: string | null;
  response_limit: number | null;
  response_count: number;
  /** JSON: every other option of the reference (thank-you, redirect, anonymity, popup, ...) */
  options: string;
  date_created: string;
  date_modified: string;
}

export interface ResponsesTable {
  id: string;
  survey_id: string;
  collector_id: string;
  owner_id: string;
  /** 1, 2, 3 ... within the survey, never reused: export order and the basic plan's 25. */
  ordinal: number;
  recipient_id: string;
  /** completed | partial | overquota | disqualified */
  response_status: string;
  collection_mode: string;
  custom_value: string;
  /** JSON name -> value */
  custom_variables: string;
  ip_address: string;
  first_name: string;
  last_name: string;
  email_address: string;
  /** seconds */
  total_time: number;
  date_created: string;
  date_modified: string;
  /** JSON: the API's `pages` array [{id, questions: [{id, variable_id?, answers: [...]}]}] */
  pages: string;
  /** JSON array of page ids in the order visited */
  page_path: string;
  /** JSON page id -> the skip-logic rule that fired after it (domain/responses/flow.ts) */
  logic_path: string;
  /** JSON metadata object */
  metadata: string;
  /** the page the respondent is on ("0" when completed) */
  current_page_id: string;
  /** Unguessable token of edit_url / analyze_url. */
  edit_token: string;
  /** sha256 of the respondent page's session cookie, or null for API-created responses. */
  respondent_key: string | null;
}

export interface SurveyResponseSeqTable {
  survey_id: string;
  owner_id: string;
  next_ordinal: number;
  /** response updates so far (a trigger, migration 0049): with next_ordinal, a results stamp */
  edits: Generated<number>;
}

/** Counts per answer key: '' = question answered, 'c:<choice>', 'o:<other>', 'r:<row>:c:<choice>',
 * 'r:<row>:k:<col>:c:<choice>', 'r:<row>' (row answered). Per collector, so collector filters are cheap. */
export interface ResponseCountsTable {
  survey_id: string;
  collector_id: string;
  question_id: string;
  akey: string;
  n: number;
}

/** The numeric rollup (migration 0039, db/stores/response-numbers.ts): exact = 1 rows count one
 * value, exact = 0 rows a 3-significant-digit bucket with its sum and sum of squares. */
export interface ResponseNumbersTable {
  survey_id: string;
  question_id: string;
  /** The answer's row ('' for a question without rows). */
  row_id: string;
  exact: number;
  value: number;
  collector_id: string;
  n: number;
  total: number;
  squares: number;
}

/** A response's answers in compact form (migration 0045, db/stores/response-keys.ts), beside the
 * columns the results filter reads, so filtered rollups, compares and figures scan short rows instead
 * of parsing `pages`. Keyed like the response (survey, ordinal); written with the response. */
export interface ResponseKeysTable {
  survey_id: string;
  ordinal: number;
  collector_id: string;
  response_status: string;
  date_created: string;
  total_time: number;
  /** ' q|key q|key … ': what the rollup counts (domain/responses/answers.ts answerKeys). */
  keys: string;
  /** ' q:choice … ': every choice (or "other") the response answered, what an answer filter tests. */
  choices: string;
  /** ' q:label … ': the sentiment of each open-ended answer (migration 0081); null: not scored yet. */
  sentiments: string | null;
}

export interface CollectTables {
  collectors: CollectorsTable;
  responses: ResponsesTable;
  survey_response_seq: SurveyResponseSeqTable;
  response_counts: ResponseCountsTable;
  response_numbers: ResponseNumbersTable;
  response_keys: ResponseKeysTable;
}
