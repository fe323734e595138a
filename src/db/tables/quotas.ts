// Quotas (migration 0077): limits on a survey's completed responses by their answers.

export interface QuotasTable {
  id: string;
  survey_id: string;
  /** the survey's owner (the owning account) */
  owner_id: string;
  name: string;
  /** at most this many completed responses meeting the conditions */
  response_limit: number;
  /** completed responses counted so far (the counter, raised only while below the limit) */
  response_count: number;
  /** JSON array of {question_id, choice_id}, every one to be met */
  conditions: string;
  /** end | disqualify | redirect | close_collector */
  action: string;
  /** the end page's message (action end) */
  message: string;
  /** where the respondent goes (action redirect) */
  redirect_url: string;
  date_created: string;
  date_modified: string;
}

export interface QuotaTables {
  quotas: QuotasTable;
}
