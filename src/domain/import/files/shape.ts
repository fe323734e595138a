// What the file converters share: reading the tool's JSON (a clear BadImportFile on anything else),
// stable ids, and the builders of a survey's details and responses in the shape the importer reads
// from SurveyMonkey (GET /surveys/{id}/details, the items of /responses/bulk).
import { createHash } from 'node:crypto';
import { type Static, type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import type { Logic } from '../../surveys/question-schema.js';
import type { Skipped } from '../design.js';
import { problem } from '../source.js';
import { BadImportFile } from './converted.js';

/** `file` as JSON, or BadImportFile naming it (a truncated download is the usual cause). */
export function parseJson(file: Buffer, what: string): unknown {
  try {
    return JSON.parse(file.toString('utf8'));
  } catch (err) {
    throw new BadImportFile(
      `${what} is not JSON (${err instanceof Error ? err.message : String(err)}): is the file complete?`,
    );
  }
}

/** `value` as `schema` says, or BadImportFile naming what is wrong and where. */
export function checked<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  if (Value.Check(schema, value)) return value;
  throw new BadImportFile(`${what} is not what the tool exports: ${problem(schema, value)}`);
}

/** An optional field that may also be null. */
export const Opt = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/**
 * Digit ids (as SurveyMonkey's, which skip-logic page ids must be) derived from the tool's own ids,
 * so converting the same export again gives the same ids and a second import updates the first.
 */
export function idMaker(survey: string): (...key: string[]) => string {
  return (...key) => {
    const hex = createHash('sha256')
      .update([survey, ...key].join('\u0000'))
      .digest('hex');
    return String(100_000_000_000_000n + (BigInt(`0x${hex.slice(0, 15)}`) % 900_000_000_000_000n));
  };
}

export interface SmChoice {
  id: string;
  text: string;
  weight?: number;
  image?: { url: string };
  logic?: Logic;
  quiz_options?: { score: number };
}
export interface SmRow {
  id: string;
  text: string;
  type?: string;
}
export interface SmOther {
  id: string;
  text: string;
}
export interface SmQuestion {
  id: string;
  family: string;
  subtype: string;
  headings: Array<{ heading: string; description?: string; image?: { url: string } }>;
  answers?: { choices?: SmChoice[]; rows?: SmRow[]; other?: SmOther };
  display_options?: Record<string, unknown>;
  required?: { type: 'all' };
  quiz_options?: { scoring_enabled: boolean };
}
export interface SmPage {
  id: string;
  title: string;
  description: string;
  logic?: Logic;
  questions: SmQuestion[];
}
export interface SmAnswer {
  choice_id?: string;
  row_id?: string;
  col_id?: string;
  other_id?: string;
  text?: string;
}
export interface SmResponse {
  id: string;
  date_created: string;
  date_modified: string;
  response_status: 'completed' | 'partial';
  custom_variables: Record<string, string>;
  email_address?: string;
  pages: Array<{ id: string; questions: Array<{ id: string; answers: SmAnswer[] }> }>;
}
export interface SmDetails {
  id: string;
  title: string;
  language: string;
  date_created?: string;
  date_modified?: string;
  custom_variables: Record<string, string>;
  quiz_options?: Record<string, unknown>;
  pages: SmPage[];
}

const head = (heading: string, description?: string) => [
  description ? { heading, description } : { heading },
];
const req = (required: boolean | null | undefined) =>
  required ? { required: { type: 'all' as const } } : {};

/** The question builders, one per shape this service has. */
export const Q = {
  text: (id: string, heading: string, long: boolean, required?: boolean | null): SmQuestion => ({
    id,
    family: 'open_ended',
    subtype: long ? 'essay' : 'single',
    headings: head(heading),
    ...req(required),
  }),
  choice: (
    id: string,
    heading: string,
    o: { multi?: boolean; menu?: boolean; choices: SmChoice[]; other?: SmOther; images?: boolean },
    required?: boolean | null,
  ): SmQuestion => ({
    id,
    family: o.multi ? 'multiple_choice' : 'single_choice',
    subtype: o.menu && !o.multi ? 'menu' : 'vertical',
    headings: head(heading),
    answers: { choices: o.choices, ...(o.other ? { other: o.other } : {}) },
    ...(o.images && !o.menu ? { display_options: { display_type: 'image_choice' } } : {}),
    ...req(required),
  }),
  /** A one-row rating (rating, opinion scale, NPS, linear scale): choices weigh their value. */
  scale: (
    id: string,
    heading: string,
    row: string,
    choices: SmChoice[],
    emoji?: 'star' | 'smiley' | 'heart' | 'thumb',
    required?: boolean | null,
  ): SmQuestion => ({
    id,
    family: 'matrix',
    subtype: 'rating',
    headings: head(heading),
    answers: { rows: [{ id: row, text: '' }], choices },
    ...(emoji ? { display_options: { display_type: 'emoji', display_subtype: emoji } } : {}),
    ...req(required),
  }),
  grid: (
    id: string,
    heading: string,
    rows: SmRow[],
    cols: SmChoice[],
    multi: boolean,
    required?: boolean | null,
  ): SmQuestion => ({
    id,
    family: 'matrix',
    subtype: multi ? 'multi' : 'single',
    headings: head(heading),
    answers: { rows, choices: cols },
    ...req(required),
  }),
  /** Items to rank (rows) and the ranks 1..n (choices). */
  ranking: (id: string, heading: string, rows: SmRow[], rank: (i: number) => string): SmQuestion => ({
    id,
    family: 'matrix',
    subtype: 'ranking',
    headings: head(heading),
    answers: { rows, choices: rows.map((_, i) => ({ id: rank(i), text: String(i + 1), weight: i + 1 })) },
  }),
  /** Labelled text boxes: numerical (a number) or multi (several texts). */
  boxes: (
    id: string,
    heading: string,
    rows: SmRow[],
    numerical: boolean,
    required?: boolean | null,
  ): SmQuestion => ({
    id,
    family: 'open_ended',
    subtype: numerical ? 'numerical' : 'multi',
    headings: head(heading),
    answers: { rows },
    ...req(required),
  }),
  address: (id: string, heading: string, rows: SmRow[], required?: boolean | null): SmQuestion => ({
    id,
    family: 'demographic',
    subtype: 'international',
    headings: head(heading),
    answers: { rows },
    ...req(required),
  }),
  date: (
    id: string,
    heading: string,
    row: string,
    subtype: 'date_only' | 'time_only' | 'both',
    required?: boolean | null,
  ): SmQuestion => ({
    id,
    family: 'datetime',
    subtype,
    headings: head(heading),
    answers: { rows: [{ id: row, text: '' }] },
    ...req(required),
  }),
  statement: (id: string, heading: string, description?: string): SmQuestion => ({
    id,
    family: 'presentation',
    subtype: 'descriptive_text',
    headings: head(heading || ' ', description),
  }),
  image: (id: string, heading: string, url: string): SmQuestion => ({
    id,
    family: 'presentation',
    subtype: 'image',
    headings: [{ heading: heading || ' ', image: { url } }],
  }),
};

/** Choices weighing `from`..`to` (a scale's values), each named by its value. */
export function scaleChoices(idOf: (v: number) => string, from: number, to: number): SmChoice[] {
  const out: SmChoice[] = [];
  for (let v = from; v <= to; v++) out.push({ id: idOf(v), text: String(v), weight: v });
  return out;
}

/**
 * Cuts a tool's one-question-a-screen list into pages: a page ends after a question whose answer
 * decides where to go (its rules become the page's skip logic) and before a question something jumps
 * to; `page` starts a page of its own (a group, a section).
 */
export class Pager {
  readonly pages: SmPage[] = [];
  /** The page of each question (its id here). */
  readonly pageOf = new Map<string, SmPage>();
  private open: SmPage | null = null;
  constructor(private readonly newId: (n: number) => string) {}
  page(title = '', description = ''): SmPage {
    this.open = { id: this.newId(this.pages.length), title, description, questions: [] };
    this.pages.push(this.open);
    return this.open;
  }
  /** Ends the open page: the next question starts a new one. */
  close() {
    this.open = null;
  }
  add(q: SmQuestion, o: { startsPage?: boolean } = {}): SmPage {
    if (!this.open || (o.startsPage && this.open.questions.length > 0)) this.page();
    this.open!.questions.push(q);
    this.pageOf.set(q.id, this.open!);
    return this.open!;
  }
  /** Pages without questions are dropped (a tool's empty section): this service needs none. */
  result(): SmPage[] {
    return this.pages.filter((p) => p.questions.length > 0);
  }
}

/** One response's answers, gathered per question and laid out on the details' pages. */
export class Answers {
  private readonly byQuestion = new Map<string, SmAnswer[]>();
  add(question: string, ...answers: SmAnswer[]) {
    const list = this.byQuestion.get(question) ?? [];
    list.push(...answers);
    this.byQuestion.set(question, list);
  }
  /** How many answers were gathered. */
  get size(): number {
    let n = 0;
    for (const a of this.byQuestion.values()) n += a.length;
    return n;
  }
  pages(pages: SmPage[]): SmResponse['pages'] {
    return pages
      .map((p) => ({
        id: p.id,
        questions: p.questions
          .filter((q) => (this.byQuestion.get(q.id) ?? []).length > 0)
          .map((q) => ({ id: q.id, answers: this.byQuestion.get(q.id)! })),
      }))
      .filter((p) => p.questions.length > 0);
  }
}

/** 2024-01-15 (an ISO date, with or without a time) as this service stores a date: 01/15/2024. */
export function usDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : isoDate;
}

/** 13:45 as this service stores a time: 1:45 PM. */
export function ampm(time: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!m) return time;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? 'AM' : 'PM'}`;
}

/** A custom variable's name as this service takes it (letters, digits, underscore; 50 at most). */
export function variableName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 50) || 'variable';
}

/** Text without HTML tags, as the tools' rich text reads. */
export const plain = (s: string | null | undefined) =>
  String(s ?? '')
    .replace(/<[^>]*>/g, '')
    .trim();

/** Collects what a conversion leaves out, one entry per thing, named after the survey. */
export class Report {
  readonly skipped: Skipped[] = [];
  constructor(private readonly title: string) {}
  skip(kind: string, name: string, reason: string) {
    this.skipped.push({ kind, name: name ? `${this.title} / ${name}` : this.title, reason });
  }
}
