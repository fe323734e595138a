// The respondent page's form fields <-> answers. Field names follow the shared question renderer
// (src/web/surveys/render-question.ts). Required answers and formats are checked here, on the
// server, with the question's own messages.
import type { StoredQuestionAnswers } from '../../domain/responses/answers.js';
import type { IndexedQuestion } from '../../domain/responses/design-index.js';

export type Form = Record<string, string | string[] | undefined>;
export type Values = Record<string, string | string[]>;

const list = (v: string | string[] | undefined): string[] =>
  (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((x) => x !== '');
const one = (v: string | string[] | undefined): string => (list(v)[0] ?? '').trim();

const pad = (n: number) => String(n).padStart(2, '0');

/** 2026-01-31 -> 01/31/2026 (answers come back in US format, reference §6.5). */
function usDate(iso: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : null;
}
/** 14:05 -> 02:05 PM */
function ampm(hhmm: string): string | null {
  const m = /^(\d{2}):(\d{2})/.exec(hhmm);
  if (!m) return null;
  const h = Number(m[1]);
  return `${pad(h % 12 === 0 ? 12 : h % 12)}:${m[2]} ${h < 12 ? 'AM' : 'PM'}`;
}
function fromUsDate(text: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(text);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : '';
}
function from12h(text: string): string {
  const m = /(\d{2}):(\d{2}) (AM|PM)$/.exec(text);
  if (!m) return '';
  const h = (Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0);
  return `${pad(h)}:${m[2]}`;
}

/** The answers a page's form gives for one question (no checks). */
export function answersFromForm(q: IndexedQuestion, form: Form): StoredQuestionAnswers['answers'] {
  const name = `q_${q.id}`;
  const other = q.other;
  const otherText = one(form[`${name}_other`]);
  const out: StoredQuestionAnswers['answers'] = [];
  const addComment = () => {
    if (other && !other.is_answer_choice && otherText) out.push({ other_id: other.id, text: otherText });
  };
  switch (q.family) {
    case 'single_choice':
    case 'multiple_choice': {
      for (const v of list(form[name])) {
        if (other && v === other.id) out.push({ other_id: other.id, text: otherText });
        else if (q.choices.has(v)) out.push({ choice_id: v });
      }
      addComment();
      break;
    }
    case 'matrix': {
      for (const row of q.rows.values()) {
        if (!row.visible) continue;
        if (q.subtype === 'menu') {
          for (const { col, choices } of q.cols.values()) {
            const v = one(form[`${name}_${row.id}_${col.id}`]);
            if (choices.has(v)) out.push({ row_id: row.id, col_id: col.id, choice_id: v });
          }
        } else
          for (const v of list(form[`${name}_${row.id}`]))
            if (q.choices.has(v)) out.push({ row_id: row.id, choice_id: v });
      }
      addComment();
      break;
    }
    case 'open_ended': {
      if (q.subtype === 'multi' || q.subtype === 'numerical') {
        for (const row of q.rows.values()) {
          const v = one(form[`${name}_${row.id}`]);
          if (row.visible && v) out.push({ row_id: row.id, text: v });
        }
      } else if (q.displayType !== 'file_upload') {
        const v = one(form[name]);
        if (v) out.push({ text: v });
      }
      break;
    }
    case 'demographic': {
      for (const row of q.rows.values()) {
        const v = one(form[`${name}_${row.id}`]);
        if (row.visible && v) out.push({ row_id: row.id, text: v });
      }
      break;
    }
    case 'datetime': {
      for (const row of q.rows.values()) {
        if (!row.visible) continue;
        const d = one(form[`${name}_${row.id}_date`]);
        const t = one(form[`${name}_${row.id}_time`]);
        const parts = [d ? (usDate(d) ?? d) : '', t ? (ampm(t) ?? t) : ''].filter(Boolean);
        if (parts.length) out.push({ row_id: row.id, text: parts.join(' ') });
      }
      break;
    }
  }
  return out;
}

/** Stored answers as the form values that redisplay them. */
export function valuesFromAnswers(q: IndexedQuestion, answers: StoredQuestionAnswers['answers']): Values {
  const name = `q_${q.id}`;
  const v: Values = {};
  const push = (k: string, x: string) => {
    const cur = v[k];
    v[k] = cur === undefined ? x : Array.isArray(cur) ? [...cur, x] : [cur, x];
  };
  for (const a of answers) {
    if (a.other_id !== undefined) {
      v[`${name}_other`] = a.text ?? '';
      if (q.other?.is_answer_choice) push(name, a.other_id);
    } else if (q.family === 'datetime' && a.row_id) {
      const text = a.text ?? '';
      if (q.subtype !== 'time_only') v[`${name}_${a.row_id}_date`] = fromUsDate(text);
      if (q.subtype !== 'date_only') v[`${name}_${a.row_id}_time`] = from12h(text);
    } else if (a.col_id !== undefined) v[`${name}_${a.row_id}_${a.col_id}`] = a.choice_id ?? '';
    else if (a.row_id !== undefined && a.choice_id !== undefined) push(`${name}_${a.row_id}`, a.choice_id);
    else if (a.row_id !== undefined) v[`${name}_${a.row_id}`] = a.text ?? '';
    else if (a.choice_id !== undefined) push(name, a.choice_id);
    else if (a.text !== undefined) v[name] = a.text;
  }
  return v;
}

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

/** The message to show for a question's answers, or null when they are acceptable. */
export function checkAnswers(q: IndexedQuestion, answers: StoredQuestionAnswers['answers']): string | null {
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
    if (!ok) return req.text;
  }
  if (q.family === 'demographic') {
    for (const r of visibleRows) {
      const a = answers.find((x) => x.row_id === r.id);
      if (r.required && !a) return `${r.text.replace(/:$/, '')} is required.`;
      if (r.type === 'email' && a?.text && !EMAIL.test(a.text)) return 'Please enter a valid email address.';
    }
  }
  if (q.family === 'open_ended' && q.subtype === 'numerical')
    for (const a of answers)
      if (a.text && !DEC.test(a.text)) return q.doc.validation?.text ?? 'Please enter a number.';
  if (q.family === 'open_ended' || q.family === 'datetime')
    for (const a of answers)
      if (a.text !== undefined && a.other_id === undefined && formatError(q, a.text))
        return q.doc.validation?.text ?? 'The answer is in an invalid format.';
  if (
    q.family === 'open_ended' &&
    q.subtype === 'numerical' &&
    q.doc.validation?.sum != null &&
    answers.length
  ) {
    const sum = answers.reduce((s, a) => s + Number(a.text ?? 0), 0);
    if (sum !== q.doc.validation.sum)
      return q.doc.validation.sum_text ?? `The numbers must add up to ${q.doc.validation.sum}.`;
  }
  if (q.other?.is_answer_choice && answers.some((a) => a.other_id !== undefined && !a.text))
    return q.other.error_text;
  return null;
}
