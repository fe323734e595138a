// Display logic and piping look back: a question is shown only when an earlier answer (or a custom
// variable of the link) meets its condition, and its texts may recall earlier answers. "Earlier"
// means on an earlier page: the respondent pages work without script, so only answers already
// sent are known when a page is drawn. Here are the rules of the design (which question may refer
// to which); domain/responses/recall.ts evaluates them against a respondent's answers.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { checkPipeShape, questionPipes } from './piping.js';
import type { DisplayLogic, StoredQuestion } from './question-schema.js';

const bad = (field: string, text: string) => new ApiError(1002, `'display_logic${field}': ${text}`);

/** The condition's own shape: one source, and what its operator needs. Returns it as stored. */
export function displayLogicShape(d: DisplayLogic): DisplayLogic {
  if ((d.question_id === undefined) === (d.custom_variable === undefined))
    throw bad('', 'give either question_id (an earlier question) or custom_variable, not both.');
  const operator = d.operator ?? (d.choice_ids ? 'selected' : d.value !== undefined ? 'equals' : 'answered');
  if (operator === 'selected' || operator === 'not_selected') {
    if (d.question_id === undefined)
      throw bad(
        '.operator',
        `${operator} compares the choices of a question; use equals or contains for a custom variable.`,
      );
    if (!d.choice_ids) throw bad('.choice_ids', `${operator} needs the choice ids to compare with.`);
  } else if (d.choice_ids)
    throw bad('.choice_ids', `choice_ids is only allowed with selected or not_selected.`);
  if (['equals', 'not_equals', 'contains'].includes(operator) && d.value === undefined)
    throw bad('.value', `${operator} needs a value to compare with.`);
  if (['answered', 'not_answered', 'selected', 'not_selected'].includes(operator) && d.value !== undefined)
    throw bad('.value', `value is only allowed with equals, not_equals or contains.`);
  return { ...d, operator };
}

/** What the check needs of the survey: its pages in order, each with its questions' designs. */
interface Place {
  pageIndex: number;
  doc: StoredQuestion;
}

async function places(
  deps: Deps,
  surveyId: string,
): Promise<{ pages: string[]; questions: Map<string, Place> }> {
  const pages = await deps.db.kysely
    .selectFrom('survey_pages')
    .select('id')
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
  const at = new Map(pages.map((p, i) => [p.id, i]));
  const rows = await deps.db.kysely
    .selectFrom('survey_questions')
    .select(['id', 'page_id', 'doc'])
    .where('survey_id', '=', surveyId)
    .execute();
  return {
    pages: pages.map((p) => p.id),
    questions: new Map(
      rows.map((r) => [
        r.id,
        { pageIndex: at.get(r.page_id) ?? -1, doc: JSON.parse(r.doc) as StoredQuestion },
      ]),
    ),
  };
}

/**
 * 400/1002 naming the field when a question's display condition or a recall in its texts refers to
 * itself, to a question that is not in the survey, or to one that is not on an earlier page; and
 * when a condition names a choice the question does not have. `questionId` is undefined for a new
 * question. Costs no query for a question that refers to nothing.
 */
export async function checkLookBack(
  deps: Deps,
  survey: { id: string; custom_variables: string },
  pageId: string,
  questionId: string | undefined,
  doc: StoredQuestion,
): Promise<void> {
  checkPipeShape(doc);
  const declared = JSON.parse(survey.custom_variables || '{}') as Record<string, string>;
  const unknownVariable = (name: string) => !Object.hasOwn(declared, name);
  if (doc.display_logic?.custom_variable && unknownVariable(doc.display_logic.custom_variable))
    throw bad(
      '.custom_variable',
      `the survey has no custom variable "${doc.display_logic.custom_variable}".`,
    );
  for (const p of questionPipes(doc))
    if (p.ref.kind === 'custom_variable' && unknownVariable(p.ref.key))
      throw new ApiError(1002, `'${p.field}': the survey has no custom variable "${p.ref.key}".`);
  const pipes = questionPipes(doc).filter((p) => p.ref.kind === 'question');
  const d = doc.display_logic;
  if (!d?.question_id && pipes.length === 0) return;
  const { pages, questions } = await places(deps, survey.id);
  const here = pages.indexOf(pageId);
  const earlier = (id: string, field: string) => {
    if (id === questionId) throw new ApiError(1002, `'${field}': a question cannot refer to itself.`);
    const q = questions.get(id);
    if (!q) throw new ApiError(1002, `'${field}': question ${id} is not in this survey.`);
    if (q.pageIndex >= here)
      throw new ApiError(
        1002,
        `'${field}': question ${id} is not on an earlier page; a question can only look back at answers given on the pages before it.`,
      );
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
