// The "all individual responses" layout: respondent columns first, then one column per answer cell
// of every question in design order, under two header rows (the question, then the choice, row or
// sub-field). A response becomes one row of cells; values are the answer's text or its numeric
// code (a choice's weight when it has one, otherwise its position), as the owner chooses.

import type { Cell } from '../../platform/csv.js';
import { JsonObject, parseAs } from '../../platform/json.js';
import { isOneOf } from '../../platform/lists.js';
import type { Answer } from '../responses/answers.js';
import { responseValues } from '../responses/calculated.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { choiceLabel } from '../responses/readable.js';
import { type ExportRow, storedPages } from '../responses/responses.js';
import { readSentiments, SENTIMENT_LABELS, SENTIMENTS, type SentimentLabel } from '../responses/sentiment.js';
import type { Choice } from '../surveys/question-schema.js';

export type ValuesMode = 'text' | 'numeric';

/** The sentiment column's numeric codes (SPSS value labels); "not analysed" has none (missing). */
const SENTIMENT_CODES: Readonly<Partial<Record<SentimentLabel, number>>> = {
  positive: 1,
  neutral: 0,
  negative: -1,
};

/** Whether a question's written answers are scored (analysis/filters.ts isSentimentQuestion: open-ended
 * text, not numbers or files, or an "Other" text): it gets a Sentiment column after its own. */
const hasSentiment = (q: IndexedQuestion) =>
  q.family === 'open_ended'
    ? !numericText(q) && q.displayType !== 'file_upload'
    : q.family !== 'presentation' && q.other !== null;

/** A coded value: what it reads as, and its numeric code. */
export interface Coded {
  text: string;
  code: number;
}

export interface Column {
  /** Header row 1: the question (only on its first column), or the respondent field. */
  question: string;
  /** Header row 2: the choice, row or sub-field. */
  detail: string;
  /** The question this column belongs to (respondent columns: none). */
  questionId?: string;
  /** Labels of the numeric codes this column can hold (for the codebook and SPSS). */
  codes?: Coded[];
  /** The calculated variable this column holds (after every question's). */
  calculated?: string;
}

interface QuestionSlots {
  q: IndexedQuestion;
  /** Answer key (see slotKey) → column index. */
  slots: Map<string, number>;
  /** Choice id (matrix menu: `col:choice`) → its value. */
  values: Map<string, Coded>;
}

export interface Layout {
  columns: Column[];
  /** The survey's custom variable names (one column each after Custom Data 1). */
  customVariables: string[];
  questions: Map<string, QuestionSlots>;
  /** The design, when it has calculated variables (their values are computed per response). */
  calculatedFrom?: DesignIndex;
}

const RESPONDENT = [
  'Respondent ID',
  'Collector ID',
  'Start Date',
  'End Date',
  'IP Address',
  'Email Address',
  'First Name',
  'Last Name',
  'Custom Data 1',
  'Response Status',
];

/** Columns before the survey's custom variables and questions. */
export const RESPONDENT_COLUMNS = RESPONDENT.length;

/** Headings and choice texts may hold HTML (bold, links): exports carry the words. */
export const plainText = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** A choice's words (textless star and 0–10 choices read as "4 stars", "9") and its code. */
const coded = (q: IndexedQuestion, c: Choice): Coded => ({
  text: plainText(choiceLabel(q, c)),
  code: c.weight ?? c.position,
});

/** A row's words; the one textless row of a star or 0–10 rating reads as the answer itself. */
export const rowLabel = (r: { text: string; type?: string }) => plainText(r.text) || r.type || 'Response';

/** Questions whose typed answer is a number (numeric mode writes it as one). */
const numericText = (q: IndexedQuestion) =>
  q.family === 'open_ended' && (q.subtype === 'numerical' || q.displayType === 'slider');

/** The slot of a question's Sentiment column (no answer's slotKey is '~'). */
const SENTIMENT_SLOT = '~';

/** Which slot an answer fills within its question (the key the layout maps to a column). */
function slotKey(q: IndexedQuestion, a: Answer): string {
  if (a.other_id !== undefined) return 'o';
  switch (q.family) {
    case 'multiple_choice':
      return `c:${a.choice_id}`;
    case 'matrix':
      if (q.subtype === 'menu') return `r:${a.row_id}:k:${a.col_id}`;
      if (q.subtype === 'multi') return `r:${a.row_id}:c:${a.choice_id}`;
      return `r:${a.row_id}`;
    case 'open_ended':
    case 'demographic':
    case 'datetime':
      return a.row_id !== undefined ? `r:${a.row_id}` : '';
    default:
      return '';
  }
}

/** The columns of one question, as [slot key, header row 2, codes]. */
function questionColumns(q: IndexedQuestion): Array<[string, string, Coded[] | undefined]> {
  const rowText = rowLabel;
  const choices = [...q.choices.values()].map((c) => coded(q, c));
  const rows = [...q.rows.values()];
  const out: Array<[string, string, Coded[] | undefined]> = [];
  switch (q.family) {
    case 'presentation':
      return [];
    case 'single_choice':
      out.push(['', 'Response', choices]);
      break;
    case 'multiple_choice':
      for (const c of q.choices.values())
        out.push([`c:${c.id}`, plainText(choiceLabel(q, c)), [coded(q, c)]]);
      break;
    case 'matrix':
      for (const r of rows) {
        if (q.subtype === 'menu')
          for (const { col, choices: cc } of q.cols.values())
            out.push([
              `r:${r.id}:k:${col.id}`,
              `${rowText(r)} - ${plainText(col.text)}`,
              [...cc.values()].map((c) => coded(q, c)),
            ]);
        else if (q.subtype === 'multi')
          for (const c of q.choices.values())
            out.push([
              `r:${r.id}:c:${c.id}`,
              `${rowText(r)} - ${plainText(choiceLabel(q, c))}`,
              [coded(q, c)],
            ]);
        else out.push([`r:${r.id}`, rowText(r), choices]);
      }
      break;
    case 'open_ended':
      if (q.subtype === 'multi' || q.subtype === 'numerical')
        for (const r of rows) out.push([`r:${r.id}`, rowText(r), undefined]);
      else out.push(['', 'Open-Ended Response', undefined]);
      break;
    default:
      for (const r of rows) out.push([`r:${r.id}`, rowText(r), undefined]);
  }
  if (q.other) out.push(['o', plainText(q.other.text) || 'Other (please specify)', undefined]);
  if (hasSentiment(q))
    out.push([
      SENTIMENT_SLOT,
      'Sentiment',
      Object.entries(SENTIMENT_CODES).map(([label, code]) => ({
        text: isOneOf(SENTIMENTS, label) ? SENTIMENT_LABELS[label] : label,
        code,
      })),
    ]);
  return out;
}

export function buildLayout(index: DesignIndex, customVariables: string[]): Layout {
  const columns: Column[] = RESPONDENT.map((question) => ({ question, detail: '' }));
  for (const name of customVariables) columns.push({ question: name, detail: '' });
  const questions = new Map<string, QuestionSlots>();
  for (const page of index.pages)
    for (const q of page.questions) {
      const cols = questionColumns(q);
      if (cols.length === 0) continue;
      const slots = new Map<string, number>();
      const values = new Map<string, Coded>();
      for (const c of q.choices.values()) values.set(c.id, coded(q, c));
      for (const { col, choices } of q.cols.values())
        for (const c of choices.values()) values.set(`${col.id}:${c.id}`, coded(q, c));
      cols.forEach(([key, detail, codes], i) => {
        slots.set(key, columns.length);
        columns.push({ question: i === 0 ? plainText(q.label) : '', detail, questionId: q.id, codes });
      });
      questions.set(q.id, { q, slots, values });
    }
  // A number each (empty when it has no value): numeric in SPSS, no codes to label.
  for (const v of index.calculated ?? [])
    columns.push({ question: v.name, detail: 'Calculated value', calculated: v.name, codes: [] });
  const calculated = (index.calculated?.length ?? 0) > 0;
  return { columns, customVariables, questions, ...(calculated && { calculatedFrom: index }) };
}

const spaced = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;

/** One response as a row of raw cells (the file writers neutralise text). `dates` makes Date cells (XLSX). */
export function responseCells(
  layout: Layout,
  row: ExportRow,
  mode: ValuesMode,
  dates: 'text' | 'date',
): Cell[] {
  const cells: Cell[] = new Array(layout.columns.length).fill(null);
  const date = (iso: string) => (dates === 'date' ? new Date(iso) : spaced(iso));
  cells[0] = row.id;
  cells[1] = row.collector_id;
  cells[2] = date(row.date_created);
  cells[3] = date(row.date_modified);
  cells[4] = row.ip_address;
  cells[5] = row.email_address;
  cells[6] = row.first_name;
  cells[7] = row.last_name;
  cells[8] = row.custom_value;
  cells[9] = row.response_status;
  if (layout.customVariables.length > 0) {
    const vars = parseAs(JsonObject, row.custom_variables);
    layout.customVariables.forEach((name, i) => {
      cells[RESPONDENT_COLUMNS + i] = String(vars[name] ?? '');
    });
  }
  const sentiments = readSentiments(row.sentiments ?? null);
  for (const [id, slots] of layout.questions) {
    const at = slots.slots.get(SENTIMENT_SLOT);
    const label = sentiments.get(id);
    if (at === undefined || label === undefined) continue;
    cells[at] = mode === 'numeric' ? (SENTIMENT_CODES[label] ?? null) : SENTIMENT_LABELS[label];
  }
  const pages = storedPages(row);
  for (const p of pages)
    for (const qa of p.questions) {
      const slots = layout.questions.get(qa.id);
      if (!slots) continue; // a question since deleted from the design
      for (const a of qa.answers) {
        const at = slots.slots.get(slotKey(slots.q, a));
        if (at === undefined) continue;
        cells[at] = answerValue(slots, a, mode);
      }
    }
  if (layout.calculatedFrom) {
    const values = responseValues(layout.calculatedFrom, row);
    layout.columns.forEach((c, i) => {
      if (c.calculated !== undefined) cells[i] = values.get(c.calculated) ?? null;
    });
  }
  return cells;
}

function answerValue(slots: QuestionSlots, a: Answer, mode: ValuesMode): Cell {
  if (a.other_id === undefined && a.choice_id !== undefined) {
    const v = slots.values.get(a.col_id !== undefined ? `${a.col_id}:${a.choice_id}` : a.choice_id);
    if (v) return mode === 'numeric' ? v.code : v.text;
  }
  const text = a.text ?? a.download_url ?? '';
  if (mode === 'numeric' && numericText(slots.q) && text.trim() !== '') {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  return text;
}
