// The respondent page's "Finish later" links (migration 0075, domain/responses/resume.ts).
export interface ResumeLinksTable {
  /** SHA-256 of the link's token */
  token_hash: string;
  response_id: string;
  created_at: string;
  expires_at: string;
  /** how many times the link was emailed */
  emails: number;
}

export interface ResumeTables {
  resume_links: ResumeLinksTable;
}
