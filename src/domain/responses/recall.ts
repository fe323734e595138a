// What a respondent has told so far, and what the design does with it on a later page: display
// logic (which questions a page shows) and piping (the recalled values). Pure functions over the
// design index; the rules of which question may refer to which are in domain/surveys/display-logic.ts.
import { evaluate, formatValue, type Ref } from '../surveys/formula.js';
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
  /** the calculated variables' values, computed from the above on first use (calculatedValues) */
  calculated?: ReadonlyMap<string, number | null>;
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

/** What is known on `pageId` of a response that took `path`: the answers of the pages before it. */
export function knownAlong(
  pages: readonly StoredPage[],
  path: readonly string[],
  pageId: string,
  variables: Record<string, string>,
): Known {
  const k = path.indexOf(pageId);
  const before = new Set(k >= 0 ? path.slice(0, k) : path);
  return knownFrom(
    pages.filter((p) => before.has(p.id)),
    variables,
  );
}

/** What is known once a page's answers are added (the page's skip rules see them). */
export function withAnswers(known: Known, page: ReadonlyArray<{ id: string; answers: Answer[] }>): Known {
  const answers = new Map(known.answers);
  for (const q of page) if (q.answers.length > 0) answers.set(q.id, q.answers);
  return { answers, variables: known.variables, contact: known.contact };
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

/** A number typed as text ('' and words are none). */
const numberOf = (text: string | undefined): number | null => {
  const t = text?.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

/** What a picked choice counts in a formula's question(): its weight, else its quiz score. */
function choiceNumber(q: IndexedQuestion, a: Answer): number | null {
  if (a.choice_id === undefined || a.other_id !== undefined) return null;
  const c =
    q.choices.get(a.choice_id) ??
    [...q.cols.values()].find((col) => col.choices.has(a.choice_id!))?.choices.get(a.choice_id);
  return c?.weight ?? c?.quiz_options?.score ?? null;
}

/**
 * A formula reference's value (formula.ts): `question` sums the picked choices' weights (else
 * their quiz scores) and the numbers typed, empty when there is none; `score` sums the picked
 * choices' quiz scores, 0 when unanswered (as quiz scoring counts it); a custom variable of the
 * link counts when it is a number.
 */
function refValue(
  index: DesignIndex,
  known: Known,
  values: ReadonlyMap<string, number | null>,
  ref: Ref,
): number | null {
  if (ref.kind === 'variable') return values.get(ref.key) ?? null;
  if (ref.kind === 'custom_variable') return numberOf(known.variables[ref.key]);
  const q = index.questions.get(ref.key);
  const answers = known.answers.get(ref.key) ?? [];
  if (!q) return null;
  if (ref.kind === 'score') {
    let sum = 0;
    for (const a of answers) {
      const c =
        a.choice_id === undefined || a.other_id !== undefined ? undefined : q.choices.get(a.choice_id);
      sum += c?.quiz_options?.score ?? 0;
    }
    return sum;
  }
  let sum: number | null = null;
  for (const a of answers) {
    const n = a.choice_id !== undefined ? choiceNumber(q, a) : numberOf(a.text);
    if (n !== null) sum = (sum ?? 0) + n;
  }
  return sum;
}

/** Every calculated variable's value from what is known (each computed once per `known`). */
export function calculatedValues(index: DesignIndex, known: Known): ReadonlyMap<string, number | null> {
  if (known.calculated) return known.calculated;
  const values = new Map<string, number | null>();
  // Definitions come each after those it uses (calculated.ts parsedCalculated).
  for (const v of index.calculated ?? [])
    values.set(v.name, v.tree ? evaluate(v.tree, (ref) => refValue(index, known, values, ref)) : null);
  known.calculated = values;
  return values;
}

/** Whether a question with this condition is shown, given what is known. */
export function conditionHolds(index: DesignIndex, d: DisplayLogic, known: Known): boolean {
  let text: string | undefined;
  let picked: Set<string> = new Set();
  if (d.custom_variable !== undefined) text = known.variables[d.custom_variable];
  else if (d.variable !== undefined)
    text = formatValue(calculatedValues(index, known).get(d.variable) ?? null) || undefined;
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
    case 'greater_than':
    case 'less_than': {
      const n = numberOf(text);
      const than = numberOf(d.value);
      if (n === null || than === null) return false;
      return d.operator === 'greater_than' ? n > than : n < than;
    }
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
  else if (ref.kind === 'variable') value = formatValue(calculatedValues(index, known).get(ref.key) ?? null);
  else if (ref.kind === 'contact') value = known.contact[ref.key];
  else {
    const q = index.questions.get(ref.key);
    const answers = known.answers.get(ref.key);
    value = q && answers ? answerText(q, answers) : undefined;
  }
  return value?.trim() ? value : ref.fallback;
}
