// What a respondent has told so far, and what the design does with it on a later page: display
// logic (which questions a page shows) and piping (the recalled values). Pure functions over the
// design index; the rules of which question may refer to which are in domain/surveys/display-logic.ts.
import type { PipeRef } from '../surveys/piping.js';
import type { DisplayLogic } from '../surveys/question-schema.js';
import type { Answer, StoredPage } from './answers.js';
import type { DesignIndex, IndexedQuestion } from './design-index.js';

export interface Known {
  /** answers by question id */
  answers: Map<string, Answer[]>;
  /** the survey link's custom variables */
  variables: Record<string, string>;
  /** the invitation's recipient (email collectors); `custom_1`..`custom_6` its custom fields */
  contact: Partial<Record<string, string>>;
}

export function knownFrom(
  pages: readonly StoredPage[],
  variables: Record<string, string>,
  contact: Known['contact'] = {},
): Known {
  const answers = new Map<string, Answer[]>();
  for (const p of pages) for (const q of p.questions) if (q.answers.length > 0) answers.set(q.id, q.answers);
  return { answers, variables, contact };
}

/** An answer as text: the choice's (or row's) text, or what was typed; several joined by commas. */
export function answerText(q: IndexedQuestion, answers: readonly Answer[]): string {
  const parts: string[] = [];
  for (const a of answers) {
    if (a.other_id !== undefined) parts.push(a.text ?? q.other?.text ?? '');
    else if (a.choice_id !== undefined) {
      const c =
        q.choices.get(a.choice_id) ??
        [...q.cols.values()].find((col) => col.choices.has(a.choice_id!))?.choices.get(a.choice_id);
      const row = a.row_id === undefined ? undefined : q.rows.get(a.row_id);
      if (c) parts.push(row ? `${row.text}: ${c.text}` : c.text);
    } else if (a.text !== undefined) parts.push(a.text);
  }
  return parts.filter(Boolean).join(', ');
}

/** Whether a question with this condition is shown, given what is known. */
export function conditionHolds(index: DesignIndex, d: DisplayLogic, known: Known): boolean {
  let text: string | undefined;
  let picked: Set<string> = new Set();
  if (d.custom_variable !== undefined) text = known.variables[d.custom_variable];
  else {
    const q = index.questions.get(d.question_id!);
    const answers = known.answers.get(d.question_id!) ?? [];
    picked = new Set(answers.flatMap((a) => [a.choice_id, a.other_id].filter((x) => x !== undefined)));
    text = q && answers.length > 0 ? answerText(q, answers) : undefined;
  }
  const norm = (s: string) => s.trim().toLocaleLowerCase();
  switch (d.operator) {
    case 'selected':
      return (d.choice_ids ?? []).some((c) => picked.has(c));
    case 'not_selected':
      return !(d.choice_ids ?? []).some((c) => picked.has(c));
    case 'equals':
      return text !== undefined && norm(text) === norm(d.value ?? '');
    case 'not_equals':
      return text === undefined || norm(text) !== norm(d.value ?? '');
    case 'contains':
      return text !== undefined && norm(text).includes(norm(d.value ?? ''));
    case 'not_answered':
      return !text;
    default:
      return !!text;
  }
}

/** The questions of a page that its display logic hides, given what is known. */
export function hiddenOn(index: DesignIndex, pageId: string, known: Known): Set<string> {
  const hidden = new Set<string>();
  for (const q of index.pageById.get(pageId)?.questions ?? [])
    if (q.doc.display_logic && !conditionHolds(index, q.doc.display_logic, known)) hidden.add(q.id);
  return hidden;
}

/** The value a recall shows: what is known, else its fallback. */
export function recalled(index: DesignIndex, ref: PipeRef, known: Known): string {
  let value: string | undefined;
  if (ref.kind === 'custom_variable') value = known.variables[ref.key];
  else if (ref.kind === 'contact') value = known.contact[ref.key];
  else {
    const q = index.questions.get(ref.key);
    const answers = known.answers.get(ref.key);
    value = q && answers ? answerText(q, answers) : undefined;
  }
  return value?.trim() ? value : ref.fallback;
}
