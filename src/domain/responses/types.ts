// The shapes of answers and of an indexed design, apart from the code that checks and builds them:
// modules that only name them (the cache registry, src/caches.ts) import this file and no code of the
// responses area.
import type { ResponseRow } from '../../db/stores/responses.js';
import type { ParsedVariable } from '../surveys/calculated.js';
import type {
  Choice,
  Col,
  Logic,
  Other,
  PageSorting,
  Row,
  StoredQuestion,
} from '../surveys/question-schema.js';

export interface AnswerIn {
  choice_id?: string;
  row_id?: string;
  col_id?: string;
  other_id?: string;
  text?: string;
  download_url?: string;
  content_type?: string;
  /** A file-upload answer's file (domain/uploads): set by the respondent flow only; the API's
   * input schema has no such field, and its output turns it into download_url. */
  upload_id?: string;
}
export interface QuestionIn {
  id: string;
  variable_id?: string;
  answers?: AnswerIn[];
}
export interface PageIn {
  id: string;
  questions?: QuestionIn[];
}

export type Answer = AnswerIn;
export interface StoredQuestionAnswers {
  id: string;
  variable_id?: string;
  answers: Answer[];
}
export interface StoredPage {
  id: string;
  questions: StoredQuestionAnswers[];
}

export interface IndexedQuestion {
  id: string;
  pageId: string;
  position: number;
  family: string;
  subtype: string;
  heading: string;
  /** the heading as owners read it: each recall written "[answer to Q2]", "[First name]" (piping.ts
   * readableRecalls); analyze, exports and shared results show this, never the recall syntax */
  label: string;
  displayType: string | null;
  doc: StoredQuestion;
  choices: Map<string, Choice>;
  rows: Map<string, Row>;
  cols: Map<string, { col: Col; choices: Map<string, Choice> }>;
  other: Other | null;
}

export interface IndexedPage {
  id: string;
  position: number;
  title: string;
  description: string;
  /** the page's skip-logic rule (choice rules are on the questions' choices) */
  logic: Logic | null;
  /** the order of its questions for each respondent (randomise.ts), or null: as listed */
  sorting: PageSorting | null;
  questions: IndexedQuestion[];
}

export interface DesignIndex {
  surveyId: string;
  pages: IndexedPage[];
  pageById: Map<string, IndexedPage>;
  questions: Map<string, IndexedQuestion>;
  /** the survey's calculated variables, each after those it uses (domain/surveys/calculated.ts) */
  calculated?: ParsedVariable[];
}

/** The statements of the seek (kept in deps.caches.pageSeeks; the marks in deps.caches.seekMarks,
 * a key and a number each, the oldest forgotten first). */
export interface Seeks {
  version: (surveyId: string) => Promise<unknown[][]>;
  /** The ordinal of the row `offset` rows past `after`, read on the (scope, ordinal) index alone. */
  surveyBoundary: (surveyId: string, after: number, offset: number) => Promise<unknown[][]>;
  collectorBoundary: (collectorId: string, after: number, offset: number) => Promise<unknown[][]>;
  survey: (surveyId: string, after: number, limit: number, offset: number) => Promise<ResponseRow[]>;
  collector: (collectorId: string, after: number, limit: number, offset: number) => Promise<ResponseRow[]>;
}
