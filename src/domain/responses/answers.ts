// Answers checked against the survey's questions (reference §6.5 last column, §10.4–10.5): every
// page, question, choice, row, column and "other" id must belong where it is given, and each family
// takes only its own answer shape. Errors are 400/1002 naming the field and what is wrong.
import { ApiError } from '../../platform/errors.js';
import type {
  Answer,
  AnswerIn,
  DesignIndex,
  IndexedQuestion,
  PageIn,
  StoredPage,
  StoredQuestionAnswers,
} from './types.js';

export { answerKeys, countKeys } from '../../db/stores/response-keys.js';
export type { Answer, AnswerIn, PageIn, QuestionIn, StoredPage, StoredQuestionAnswers } from './types.js';

const bad = (detail: string) => new ApiError(1002, detail);

type Field = keyof AnswerIn;

function only(a: AnswerIn, allowed: Field[], where: string, what: string): void {
  for (const k of Object.keys(a) as Field[])
    if (!allowed.includes(k))
      throw bad(`'${where}.${k}' is not allowed for ${what} questions (allowed: ${allowed.join(', ')}).`);
}

function checkOther(q: IndexedQuestion, a: AnswerIn, where: string): boolean {
  if (a.other_id === undefined) return false;
  if (!q.other || q.other.id !== a.other_id)
    throw bad(`'${where}.other_id' ${a.other_id} is not the "other" option of question ${q.id}.`);
  if (a.text === undefined) throw bad(`'${where}.text' is required with other_id.`);
  if (a.row_id !== undefined && !q.rows.has(a.row_id))
    throw bad(`'${where}.row_id' ${a.row_id} is not a row of question ${q.id}.`);
  if (a.choice_id !== undefined || a.col_id !== undefined)
    throw bad(`'${where}' gives other_id with choice_id or col_id; send the other answer on its own.`);
  return true;
}

function checkAnswer(q: IndexedQuestion, a: AnswerIn, where: string): void {
  const what = `${q.family} ${q.subtype}`;
  if (Object.keys(a).length === 0) throw bad(`'${where}' is empty.`);
  if (checkOther(q, a, where)) return;
  const choice = () => {
    if (a.choice_id === undefined) throw bad(`'${where}.choice_id' is required for ${what} questions.`);
    if (!q.choices.has(a.choice_id))
      throw bad(`'${where}.choice_id' ${a.choice_id} is not a choice of question ${q.id}.`);
  };
  const row = () => {
    if (a.row_id === undefined) throw bad(`'${where}.row_id' is required for ${what} questions.`);
    if (!q.rows.has(a.row_id)) throw bad(`'${where}.row_id' ${a.row_id} is not a row of question ${q.id}.`);
  };
  const text = () => {
    if (a.text === undefined) throw bad(`'${where}.text' is required for ${what} questions.`);
  };
  switch (q.family) {
    case 'single_choice':
    case 'multiple_choice':
      only(a, ['choice_id'], where, what);
      choice();
      return;
    case 'matrix':
      if (q.subtype === 'menu') {
        only(a, ['row_id', 'col_id', 'choice_id'], where, what);
        row();
        if (a.col_id === undefined) throw bad(`'${where}.col_id' is required for matrix menu questions.`);
        const col = q.cols.get(a.col_id);
        if (!col) throw bad(`'${where}.col_id' ${a.col_id} is not a column of question ${q.id}.`);
        if (a.choice_id === undefined)
          throw bad(`'${where}.choice_id' is required for matrix menu questions.`);
        if (!col.choices.has(a.choice_id))
          throw bad(
            `'${where}.choice_id' ${a.choice_id} is not a choice of column ${a.col_id} of question ${q.id}.`,
          );
        return;
      }
      only(a, ['row_id', 'choice_id'], where, what);
      row();
      choice();
      return;
    case 'open_ended':
      if (q.subtype === 'multi' || q.subtype === 'numerical') {
        only(a, ['row_id', 'text'], where, what);
        row();
        text();
        if (q.subtype === 'numerical' && a.text!.trim() !== '' && !Number.isFinite(Number(a.text)))
          throw bad(`'${where}.text' must be a number for open_ended numerical questions.`);
        return;
      }
      if (q.displayType === 'file_upload') {
        // Files arrive only through the respondent page (multipart); through the API a file-upload
        // answer can carry a note as text, never a file or a link to one.
        if (a.download_url !== undefined || (a.content_type !== undefined && a.upload_id === undefined))
          throw bad(
            `'${where}.${a.download_url !== undefined ? 'download_url' : 'content_type'}' cannot be sent: files are uploaded on the survey's respondent page; through the API a file upload question takes text only.`,
          );
        only(a, ['text', 'upload_id', 'content_type'], where, what);
        if (a.upload_id === undefined) text();
        return;
      }
      only(a, ['text'], where, what);
      text();
      return;
    case 'demographic':
    case 'datetime':
      only(a, ['row_id', 'text'], where, what);
      row();
      text();
      return;
    default:
      throw bad(`'${where}' answers are not allowed for ${q.family} questions.`);
  }
}

/** How many answers of one kind a question may carry (single answers per question or per row). */
function checkCardinality(q: IndexedQuestion, answers: AnswerIn[], where: string): void {
  const choices = answers.filter((a) => a.other_id === undefined);
  if (q.family === 'single_choice' && choices.length > 1)
    throw bad(`'${where}' holds ${choices.length} choices; single_choice questions take one.`);
  if (q.family === 'matrix' && ['single', 'rating', 'ranking'].includes(q.subtype)) {
    const seen = new Set<string>();
    for (const a of choices) {
      if (seen.has(a.row_id!))
        throw bad(`'${where}' answers row ${a.row_id} twice; matrix ${q.subtype} takes one per row.`);
      seen.add(a.row_id!);
    }
  }
  if (q.family === 'matrix' && q.subtype === 'menu') {
    const seen = new Set<string>();
    for (const a of choices) {
      const key = `${a.row_id}:${a.col_id}`;
      if (seen.has(key)) throw bad(`'${where}' answers row ${a.row_id} column ${a.col_id} twice.`);
      seen.add(key);
    }
  }
  if (['open_ended', 'demographic', 'datetime'].includes(q.family)) {
    const seen = new Set<string>();
    for (const a of choices) {
      const key = a.row_id ?? '';
      if (seen.has(key))
        throw bad(`'${where}' answers ${a.row_id ? `row ${a.row_id}` : 'the question'} twice.`);
      seen.add(key);
    }
  }
  if (answers.filter((a) => a.other_id !== undefined && a.row_id === undefined).length > 1)
    throw bad(`'${where}' gives the "other" answer twice.`);
}

const ANSWER_FIELDS = [
  'choice_id',
  'row_id',
  'col_id',
  'other_id',
  'text',
  'download_url',
  'content_type',
  // internal: presented as download_url (api/v3/responses/present.ts)
  'upload_id',
] as const;

function inApiOrder(a: AnswerIn): Answer {
  const out: Record<string, unknown> = {};
  for (const k of ANSWER_FIELDS) if (a[k as keyof AnswerIn] !== undefined) out[k] = a[k as keyof AnswerIn];
  return out as Answer;
}

/**
 * Checks `pages` against the design; returns them in the stored form (questions without answers
 * dropped, pages in the survey's order).
 */
export function checkPages(index: DesignIndex, pages: PageIn[]): StoredPage[] {
  const seenPages = new Set<string>();
  const out: StoredPage[] = [];
  pages.forEach((p, pi) => {
    const page = index.pageById.get(p.id);
    if (!page) throw bad(`'pages.${pi}.id' ${p.id} is not a page of survey ${index.surveyId}.`);
    if (seenPages.has(p.id)) throw bad(`'pages.${pi}.id' ${p.id} appears twice.`);
    seenPages.add(p.id);
    const seenQ = new Set<string>();
    const questions: StoredQuestionAnswers[] = [];
    (p.questions ?? []).forEach((qi, i) => {
      const where = `pages.${pi}.questions.${i}`;
      const q = index.questions.get(qi.id);
      if (!q) throw bad(`'${where}.id' ${qi.id} is not a question of survey ${index.surveyId}.`);
      if (q.pageId !== p.id)
        throw bad(`'${where}.id' question ${qi.id} is on page ${q.pageId}, not on page ${p.id}.`);
      if (seenQ.has(qi.id)) throw bad(`'${where}.id' ${qi.id} appears twice.`);
      seenQ.add(qi.id);
      const answers = qi.answers ?? [];
      answers.forEach((a, ai) => {
        checkAnswer(q, a, `${where}.answers.${ai}`);
      });
      checkCardinality(q, answers, `${where}.answers`);
      if (answers.length === 0) return;
      // Stored with the API's field order (id, variable_id, answers; answer fields as in the
      // Response schema), so the bulk export can splice the stored text as it is.
      const stored: StoredQuestionAnswers =
        qi.variable_id !== undefined
          ? { id: qi.id, variable_id: qi.variable_id, answers: answers.map(inApiOrder) }
          : { id: qi.id, answers: answers.map(inApiOrder) };
      questions.push(stored);
    });
    out.push({ id: p.id, questions });
  });
  const order = new Map(index.pages.map((p, i) => [p.id, i]));
  return out.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** PATCH semantics: the given questions replace theirs; a question with no answers is erased. */
export function mergePages(
  index: DesignIndex,
  current: StoredPage[],
  patch: StoredPage[],
  given: PageIn[],
): StoredPage[] {
  const byPage = new Map(current.map((p) => [p.id, new Map(p.questions.map((q) => [q.id, q]))]));
  for (const p of given) {
    const qs = byPage.get(p.id) ?? new Map<string, StoredQuestionAnswers>();
    for (const q of p.questions ?? []) qs.delete(q.id);
    byPage.set(p.id, qs);
  }
  for (const p of patch) {
    const qs = byPage.get(p.id)!;
    for (const q of p.questions) qs.set(q.id, q);
  }
  const out: StoredPage[] = [];
  for (const page of index.pages) {
    const qs = byPage.get(page.id);
    if (!qs) continue;
    const ordered = page.questions.map((q) => qs.get(q.id)).filter((q): q is StoredQuestionAnswers => !!q);
    // answers to questions no longer in the design are kept at the end of their page
    for (const q of qs.values()) if (!index.questions.has(q.id)) ordered.push(q);
    out.push({ id: page.id, questions: ordered });
  }
  for (const p of current) if (!index.pageById.has(p.id)) out.push(p);
  return out;
}
