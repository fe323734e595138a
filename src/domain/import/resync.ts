// A copied design brought up to the source's when the survey changed there and nobody edited the
// copy here: pages and questions that still exist keep their ids (and answer options theirs), so
// the answers already here stay attached; new ones are created, and what the source deleted is
// deleted here too (with its answers, as there).
import type { SurveyRow } from '../surveys/access.js';
import {
  createPage,
  createQuestion,
  deletePage,
  deleteQuestion,
  moveQuestionToPage,
  updatePage,
  updateQuestion,
} from '../surveys/design.js';
import { remapLogic } from '../surveys/logic.js';
import type { Logic, QuestionInput } from '../surveys/question-schema.js';
import { loadDesign } from '../surveys/surveys.js';
import { blueprintPages, pairAnswers, supported } from './design.js';
import { record } from './jobs.js';
import type { RunContext } from './run-context.js';
import type { SurveyDetails } from './source.js';

export async function resyncDesign(run: RunContext, details: SurveyDetails, survey: SurveyRow) {
  const { deps, actor } = run;
  const ids = await run.designMap();
  const design = await loadDesign(deps, survey.id);
  const pageOfQuestion = new Map(
    [...design.questions.values()].flat().map((q) => [q.id, q.page_id] as const),
  );
  const sourcePages = details.pages ?? [];
  const blueprint = blueprintPages(details, run.skipped);
  // 1. Pages in the source's order, their rules cleared until every page is in place.
  const pageMap = new Map<string, string>();
  for (const [i, p] of sourcePages.entries()) {
    const fields = { title: p.title ?? '', description: p.description ?? '', position: i + 1 };
    let id = ids.get(String(p.id));
    if (id && design.pages.some((x) => x.id === id))
      await updatePage(deps, actor, survey, id, { ...fields, logic: null }, 'patch');
    else {
      id = (await createPage(deps, actor, survey, fields)).id;
      await run.remember('page', String(p.id), id);
    }
    pageMap.set(String(p.id), id);
  }
  const keptPages = new Set(pageMap.values());
  for (const p of design.pages) if (!keptPages.has(p.id)) await deletePage(deps, actor, survey, p.id);
  // 2. Questions, page by page, with their answer options' ids (and rules' pages) mapped.
  const keptQuestions = new Set<string>();
  for (const [i, p] of sourcePages.entries()) {
    const pageId = pageMap.get(String(p.id))!;
    const questions = (p.questions ?? []).filter(supported);
    for (const [j, q] of questions.entries()) {
      const input = {
        ...localAnswerIds(blueprint[i].questions[j], ids, pageMap),
        position: j + 1,
      };
      const known = ids.get(String(q.id));
      const at = known && pageOfQuestion.get(known);
      let row: { id: string; doc: { answers?: unknown } };
      if (known && at && keptPages.has(at)) {
        if (at !== pageId) await moveQuestionToPage(deps, actor, survey, at, known, pageId);
        row = await updateQuestion(deps, actor, survey, pageId, known, input, 'put');
      } else {
        row = await createQuestion(deps, actor, survey, pageId, input);
        await run.remember('question', String(q.id), row.id);
      }
      keptQuestions.add(row.id);
      await record(
        deps,
        run.job.id,
        'answer',
        pairAnswers(q.answers, row.doc.answers).map(([source, local]) => ({ source, local })),
      );
    }
  }
  for (const [qid, pageId] of pageOfQuestion)
    if (!keptQuestions.has(qid) && keptPages.has(pageId))
      await deleteQuestion(deps, actor, survey, pageId, qid);
  // 3. The pages' rules, now that every page is where the source has it.
  for (const p of sourcePages) {
    const logic = p.logic ? remapLogic(p.logic, pageMap) : undefined;
    if (logic) await updatePage(deps, actor, survey, pageMap.get(String(p.id))!, { logic }, 'patch');
  }
}

/**
 * A source question's input with its answer options' ids as the copy's (unknown ones dropped, so
 * new options get new ids) and its choices' rules jumping to the copy's pages.
 */
export function localAnswerIds(
  input: QuestionInput,
  ids: Map<string, string>,
  pages: Map<string, string>,
): QuestionInput {
  const mapItem = (item: unknown): unknown => {
    if (!item || typeof item !== 'object') return item;
    const { id, logic, ...rest } = item as { id?: unknown; logic?: Logic } & Record<string, unknown>;
    const local = id === undefined || id === null ? undefined : ids.get(String(id));
    const out: Record<string, unknown> = { ...rest, ...(local ? { id: local } : {}) };
    if (logic) {
      const mappedLogic = remapLogic(logic, pages);
      if (mappedLogic) out.logic = mappedLogic;
    }
    for (const k of ['choices', 'rows', 'cols'])
      if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(mapItem);
    if (out.other) out.other = mapItem(out.other);
    return out;
  };
  return input.answers ? { ...input, answers: mapItem(input.answers) as QuestionInput['answers'] } : input;
}
