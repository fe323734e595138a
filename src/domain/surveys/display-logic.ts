// Display logic and piping look back: a question is shown only when an earlier answer (or a custom
// variable of the link) meets its condition, and its texts may recall earlier answers. "Earlier"
// means on an earlier page: the respondent pages work without script, so only answers already
// sent are known when a page is drawn. Here are the rules of the design (which question may refer
// to which); domain/responses/recall.ts evaluates them against a respondent's answers.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { calculatedOf } from './calculated.js';
import {
  CONTACT_FIELDS,
  checkRecallSyntax,
  type PipeRef,
  pagePipes,
  pipedTexts,
  questionPipes,
} from './piping.js';
import type { DisplayLogic, StoredQuestion } from './question-schema.js';

const bad = (field: string, text: string) => new ApiError(1002, `'display_logic${field}': ${text}`);

/** The condition's own shape: one source, and what its operator needs. Returns it as stored. */
export function displayLogicShape(d: DisplayLogic): DisplayLogic {
  const sources = [d.question_id, d.custom_variable, d.variable].filter((x) => x !== undefined);
  if (sources.length !== 1)
    throw bad(
      '',
      'give one of question_id (an earlier question), custom_variable or variable (a calculated variable).',
    );
  const operator = d.operator ?? (d.choice_ids ? 'selected' : d.value !== undefined ? 'equals' : 'answered');
  if (operator === 'selected' || operator === 'not_selected') {
    if (d.question_id === undefined)
      throw bad(
        '.operator',
        `${operator} compares the choices of a question; use equals, contains, greater_than or less_than for a variable.`,
      );
    if (!d.choice_ids) throw bad('.choice_ids', `${operator} needs the choice ids to compare with.`);
  } else if (d.choice_ids)
    throw bad('.choice_ids', `choice_ids is only allowed with selected or not_selected.`);
  const numeric = operator === 'greater_than' || operator === 'less_than';
  if ((numeric || ['equals', 'not_equals', 'contains'].includes(operator)) && d.value === undefined)
    throw bad('.value', `${operator} needs a value to compare with.`);
  if (numeric && !Number.isFinite(Number(d.value)))
    throw bad('.value', `${operator} compares numbers: "${d.value}" is not a number.`);
  if (['answered', 'not_answered', 'selected', 'not_selected'].includes(operator) && d.value !== undefined)
    throw bad(
      '.value',
      `value is only allowed with equals, not_equals, contains, greater_than or less_than.`,
    );
  return { ...d, operator };
}

/** What the checks need of the survey: its pages in order (with their texts, which may recall),
 * each question's page, place and design. */
interface Place {
  pageIndex: number;
  position: number;
  doc: StoredQuestion;
}

type Executor = Kysely<Database> | Transaction<Database>;

async function places(
  db: Executor,
  surveyId: string,
): Promise<{
  pages: Array<{ id: string; title: string; description: string }>;
  questions: Map<string, Place>;
}> {
  const pages = await db
    .selectFrom('survey_pages')
    .select(['id', 'title', 'description'])
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
  const at = new Map(pages.map((p, i) => [p.id, i]));
  const rows = await db
    .selectFrom('survey_questions')
    .select(['id', 'page_id', 'position', 'doc'])
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
  return {
    pages,
    questions: new Map(
      rows.map((r) => [
        r.id,
        {
          pageIndex: at.get(r.page_id) ?? -1,
          position: r.position,
          doc: JSON.parse(r.doc) as StoredQuestion,
        },
      ]),
    ),
  };
}

const notEarlier = (field: string, id: string) =>
  new ApiError(
    1002,
    `'${field}': question ${id} is not on an earlier page; a question can only look back at answers given on the pages before it.`,
  );

/** What names a survey declares: its custom variables, and its calculated variables (when known). */
interface Declares {
  custom_variables: string;
  calculated_variables?: string | null;
}

const calculatedNames = (survey: Declares) => new Set(calculatedOf(survey).map((v) => v.name));

/** 400/1002 naming the field for a recall of an unknown contact field, custom or calculated variable. */
function checkRecallNames(survey: Declares, recalls: Array<{ field: string; ref: PipeRef }>): void {
  const declared = JSON.parse(survey.custom_variables || '{}') as Record<string, string>;
  const calculated = calculatedNames(survey);
  for (const { field, ref } of recalls) {
    if (ref.kind === 'contact' && !(CONTACT_FIELDS as readonly string[]).includes(ref.key))
      throw new ApiError(
        1002,
        `'${field}': contact("${ref.key}") is not a contact field; piping recalls ${CONTACT_FIELDS.join(', ')}.`,
      );
    if (ref.kind === 'custom_variable' && !Object.hasOwn(declared, ref.key))
      throw new ApiError(1002, `'${field}': the survey has no custom variable "${ref.key}".`);
    if (ref.kind === 'variable' && !calculated.has(ref.key))
      throw new ApiError(1002, `'${field}': the survey has no calculated variable "${ref.key}".`);
  }
}

/** The page texts a change writes, with their fields (an unsent one is not checked again). */
export function pageTextsOf(page: { title?: string; description?: string }) {
  const out: Array<{ field: string; text: string }> = [];
  for (const field of ['title', 'description'] as const) {
    const text = page[field];
    if (text !== undefined) out.push({ field, text });
  }
  return out;
}

/** 400/1002 for a page text's recall of an unknown contact field or custom variable (where its
 * recalls of questions look is checkSurveyLookBacks'). */
export function checkPagePipes(survey: Declares, page: { title?: string; description?: string }): void {
  checkRecallNames(survey, pagePipes(page));
}

/**
 * Every look-back of the survey (display conditions, recalls in questions and in page texts) still
 * names a question on an earlier page. Run in the transaction of a change that moves a page or a
 * question, or gives a page a recall, so it sees the order the change leaves: a move that would
 * leave a condition looking forward (never known when the page is drawn) is refused, 400/1002
 * naming the first such field. A reference to a question no longer in the survey is not this
 * check's: deleting a question clears the conditions on it (clearConditionsOn).
 */
export async function checkSurveyLookBacks(trx: Transaction<Database>, surveyId: string): Promise<void> {
  const { pages, questions } = await places(trx, surveyId);
  const look = (field: string, id: string, here: number) => {
    const q = questions.get(id);
    if (q && q.pageIndex >= here) throw notEarlier(field, id);
  };
  const ordered = [...questions.entries()].sort(
    ([, a], [, b]) => a.pageIndex - b.pageIndex || a.position - b.position,
  );
  for (const [id, q] of ordered) {
    const at = `pages[${q.pageIndex}].questions[${q.position - 1}]`;
    const d = q.doc.display_logic;
    if (d?.question_id) {
      if (d.question_id === id)
        throw new ApiError(1002, `'${at}.display_logic.question_id': a question cannot refer to itself.`);
      look(`${at}.display_logic.question_id`, d.question_id, q.pageIndex);
    }
    for (const p of questionPipes(q.doc))
      if (p.ref.kind === 'question') look(`${at}.${p.field}`, p.ref.key, q.pageIndex);
  }
  pages.forEach((p, i) => {
    for (const { field, ref } of pagePipes(p))
      if (ref.kind === 'question') look(`pages[${i}].${field}`, ref.key, i);
  });
}

/**
 * Deleting questions clears the display conditions that name them (left, they would hide their
 * question from everyone, or show it to everyone, for an answer no one can give): those questions
 * are then always shown, as a page rule to a deleted page is cleared. Answers how many were cleared.
 */
export async function clearConditionsOn(
  trx: Transaction<Database>,
  surveyId: string,
  deleted: ReadonlySet<string>,
): Promise<number> {
  if (deleted.size === 0) return 0;
  const rows = await trx
    .selectFrom('survey_questions')
    .select(['id', 'doc'])
    .where('survey_id', '=', surveyId)
    .where('doc', 'like', '%"display_logic":%')
    .execute();
  let cleared = 0;
  for (const r of rows) {
    const doc = JSON.parse(r.doc) as StoredQuestion;
    const on = doc.display_logic?.question_id;
    if (!on || !deleted.has(on) || deleted.has(r.id)) continue;
    delete doc.display_logic;
    cleared++;
    await trx
      .updateTable('survey_questions')
      .set({ doc: JSON.stringify(doc) })
      .where('id', '=', r.id)
      .execute();
  }
  return cleared;
}

/**
 * 400/1002 naming the field when a question's display condition or a recall in its texts refers to
 * itself, to a question that is not in the survey, or to one that is not on an earlier page; and
 * when a condition names a choice the question does not have. `questionId` is undefined for a new
 * question. Costs no query for a question that refers to nothing.
 */
export async function checkLookBack(
  deps: Deps,
  survey: Declares & { id: string },
  pageId: string,
  questionId: string | undefined,
  doc: StoredQuestion,
): Promise<void> {
  checkRecallSyntax(pipedTexts(doc));
  const declared = JSON.parse(survey.custom_variables || '{}') as Record<string, string>;
  if (doc.display_logic?.custom_variable && !Object.hasOwn(declared, doc.display_logic.custom_variable))
    throw bad(
      '.custom_variable',
      `the survey has no custom variable "${doc.display_logic.custom_variable}".`,
    );
  if (doc.display_logic?.variable && !calculatedNames(survey).has(doc.display_logic.variable))
    throw bad('.variable', `the survey has no calculated variable "${doc.display_logic.variable}".`);
  checkRecallNames(survey, questionPipes(doc));
  const pipes = questionPipes(doc).filter((p) => p.ref.kind === 'question');
  const d = doc.display_logic;
  if (!d?.question_id && pipes.length === 0) return;
  const { pages, questions } = await places(deps.db.kysely, survey.id);
  const here = pages.findIndex((p) => p.id === pageId);
  const earlier = (id: string, field: string) => {
    if (id === questionId) throw new ApiError(1002, `'${field}': a question cannot refer to itself.`);
    const q = questions.get(id);
    if (!q) throw new ApiError(1002, `'${field}': question ${id} is not in this survey.`);
    if (q.pageIndex >= here) throw notEarlier(field, id);
    return q;
  };
  if (d?.question_id) {
    const q = earlier(d.question_id, 'display_logic.question_id');
    const ids = new Set((q.doc.answers?.choices ?? []).map((c) => c.id));
    if (q.doc.answers?.other) ids.add(q.doc.answers.other.id);
    d.choice_ids?.forEach((c, i) => {
      if (!ids.has(c))
        throw new ApiError(
          1002,
          `'display_logic.choice_ids[${i}]': choice ${c} is not a choice of question ${d.question_id}.`,
        );
    });
  }
  for (const p of pipes) earlier(p.ref.key, p.field);
}
