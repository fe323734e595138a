// The rules a respondent's answers to one question must meet on the respondent pages: the
// question's `required` (type and amount), its `validation` (formats, ranges, numerical sums), the
// demographic rows' own required flags and email format, and the "other" text. Each failure is the
// question's own message, or a catalog message (platform/i18n) the page shows in the respondent's
// language; an owner's message left at its English default counts as the catalog's. The respondent flow (flow.ts) applies them; responses sent through the
// API are not held to them (see flow.ts: the original API stores what an integration sends).
import { defaultMessage, type Message, type MessageKey } from '../../platform/i18n/index.js';
import type { StoredQuestionAnswers } from './answers.js';
import type { IndexedQuestion } from './design-index.js';

const INT = /^-?\d+$/;
const DEC = /^-?(\d+\.?\d*|\.\d+)$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function formatError(q: IndexedQuestion, text: string): boolean {
  const v = q.doc.validation;
  if (!v || v.type === 'any') return false;
  const min = v.min === null ? null : v.min;
  const max = v.max === null ? null : v.max;
  switch (v.type) {
    case 'integer':
    case 'decimal': {
      if (!(v.type === 'integer' ? INT : DEC).test(text)) return true;
      const n = Number(text);
      return (min !== null && n < Number(min)) || (max !== null && n > Number(max));
    }
    case 'email':
      return !EMAIL.test(text);
    case 'text_length':
      return (min !== null && text.length < Number(min)) || (max !== null && text.length > Number(max));
    case 'regex':
      try {
        return max !== null && !new RegExp(max).test(text);
      } catch {
        return false;
      }
    case 'date_us':
    case 'date_intl':
      return q.family !== 'datetime' && !/^\d{2}\/\d{2}\/\d{4}$/.test(text);
    default:
      return false;
  }
}

// The service's defaults an owner's message may still carry (question-rules.ts).
const OWNER_DEFAULTS: readonly MessageKey[] = [
  'required',
  'comment_format',
  'whole_number',
  'number',
  'date',
  'email',
  'comment',
];
const owner = (text: string): Message => defaultMessage(text, OWNER_DEFAULTS);

/** The message to show for a question's answers, or null when they are acceptable. */
export function answerProblem(q: IndexedQuestion, answers: StoredQuestionAnswers['answers']): Message | null {
  const req = q.doc.required;
  const visibleRows = [...q.rows.values()].filter((r) => r.visible);
  if (req) {
    const rowsAnswered = new Set(answers.map((a) => a.row_id).filter(Boolean)).size;
    const unit = q.family === 'matrix' ? rowsAnswered : answers.length;
    const [lo, hi] = req.amount.split(',').map(Number);
    let ok: boolean;
    switch (req.type) {
      case 'at_least':
        ok = unit >= Math.max(1, lo);
        break;
      case 'at_most':
        ok = answers.length > 0 && unit <= lo;
        break;
      case 'exactly':
        ok = unit === lo;
        break;
      case 'range':
        ok = unit >= lo && unit <= (hi ?? lo);
        break;
      default:
        ok = q.family === 'matrix' ? rowsAnswered >= visibleRows.length : answers.length > 0;
    }
    if (!ok) return owner(req.text);
  }
  if (q.family === 'demographic') {
    for (const r of visibleRows) {
      const a = answers.find((x) => x.row_id === r.id);
      if (r.required && !a) return { key: 'field_required', params: { field: r.text.replace(/:$/, '') } };
      if (r.type === 'email' && a?.text && !EMAIL.test(a.text)) return { key: 'email' };
    }
  }
  if (q.family === 'open_ended' && q.subtype === 'numerical')
    for (const a of answers)
      if (a.text && !DEC.test(a.text))
        return q.doc.validation?.text ? owner(q.doc.validation.text) : { key: 'number' };
  if (q.family === 'open_ended' || q.family === 'datetime')
    for (const a of answers)
      if (a.text !== undefined && a.other_id === undefined && formatError(q, a.text))
        return q.doc.validation?.text ? owner(q.doc.validation.text) : { key: 'format' };
  if (
    q.family === 'open_ended' &&
    q.subtype === 'numerical' &&
    q.doc.validation?.sum != null &&
    answers.length
  ) {
    const sum = answers.reduce((s, a) => s + Number(a.text ?? 0), 0);
    if (sum !== q.doc.validation.sum)
      return q.doc.validation.sum_text
        ? owner(q.doc.validation.sum_text)
        : { key: 'sum', params: { sum: q.doc.validation.sum } };
  }
  if (q.other?.is_answer_choice && answers.some((a) => a.other_id !== undefined && !a.text))
    return owner(q.other.error_text);
  return null;
}
