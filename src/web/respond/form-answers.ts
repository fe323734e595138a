// The respondent page's form fields <-> answers. Field names follow the shared question renderer
// (src/web/surveys/render-question.ts). The answers' rules (required, formats, files) are the
// respondent flow's (src/domain/responses/flow.ts and checks.ts); this is only the translation.
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
