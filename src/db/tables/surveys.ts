// Tables of the survey design model: surveys, their pages and questions, folders, team templates
// and translations. Every row carries its owning account id (owner_id, the distribution key).
// A question is one row holding its whole design as a JSON document (`doc`), with the columns
// needed to find and order it (survey, page, position, family, subtype).

import type { Generated } from 'kysely';

export interface SurveysTable {
  id: string;
  owner_id: string;
  title: string;
  nickname: string;
  language: string;
  category: string;
  /** null when the survey is in no folder (the API shows "0") */
  folder_id: string | null;
  /** JSON {next_button, prev_button, exit_button, done_button} */
  buttons_text: string;
  /** JSON name -> label */
  custom_variables: string;
  footer: number;
  theme_id: string | null;
  /** JSON quiz options or null */
  quiz_options: string | null;
  /** https URL of the logo on respondent pages, or null */
  logo_url: string | null;
  /** #rrggbb accent colour of respondent pages, or null */
  theme_color: string | null;
  /** 'page' or 'one_at_a_time': how the respondent pages show the questions (migration 0079) */
  question_layout: Generated<string>;
  /** JSON [{name, formula}] of calculated variables (domain/surveys/calculated.ts), or null for none */
  calculated_variables: string | null;
  /** Kept in the transaction of every page/question change, so reading them is one row. */
  question_count: number;
  page_count: number;
  /** Moved by every page/question change (the key of the design index a process keeps). */
  design_version: Generated<number>;
  /** Kept by the responses area. */
  response_count: number;
  /** Unguessable token of the public preview URL. */
  preview_token: string;
  /** Unguessable token of the owner's edit/collect/analyze/summary URLs. */
  manage_token: string;
  date_created: string;
  date_modified: string;
}

export interface SurveyPagesTable {
  id: string;
  survey_id: string;
  owner_id: string;
  position: number;
  title: string;
  description: string;
  /** JSON skip-logic rule {action, page_id?} applied after the page, or null */
  logic: string | null;
  /** JSON question order for respondents {type, ignore_last} (domain/surveys/randomise.ts), or null */
  sorting: string | null;
}

export interface SurveyQuestionsTable {
  id: string;
  survey_id: string;
  page_id: string;
  owner_id: string;
  position: number;
  family: string;
  subtype: string;
  /** JSON: the stored question design (see domain/surveys/question-schema.ts StoredQuestion) */
  doc: string;
}

export interface SurveyFoldersTable {
  id: string;
  owner_id: string;
  title: string;
  created_at: string;
}

export interface TeamSurveyTemplatesTable {
  id: string;
  /** the account that made it (the distribution key) */
  owner_id: string;
  /** the team whose members see it; null: only its owner (an account in no team) */
  team_id: string | null;
  name: string;
  survey_id: string;
  created_at: string;
}

export interface SurveyTranslationsTable {
  survey_id: string;
  language: string;
  owner_id: string;
  enabled: number;
  /** JSON array of {default, translation, context, resource_id} */
  translations: string;
  created_at: string;
  updated_at: string;
}

/** Per owner: how many surveys they own and a stamp every list-visible change to one of them moves
 * (kept by triggers, migration 0041; read by the survey list). */
export interface SurveyTotalsTable {
  owner_id: string;
  surveys: number;
  stamp: number;
}

export interface SurveyTables {
  surveys: SurveysTable;
  survey_totals: SurveyTotalsTable;
  survey_pages: SurveyPagesTable;
  survey_questions: SurveyQuestionsTable;
  survey_folders: SurveyFoldersTable;
  team_survey_templates: TeamSurveyTemplatesTable;
  survey_translations: SurveyTranslationsTable;
}
