// Pages and questions of a survey: create, read, replace, move, delete, with positions kept 1..n
// and the survey's counters (page_count, question_count) changed in the same transaction.
import type { Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../core/events.js';
import { countAndPage } from '../core/owned.js';
import type { SurveyRow } from './access.js';
import { checkQuestionType, MAX_QUESTIONS } from './blueprint.js';
import {
  checkLookBack,
  checkPagePipes,
  checkSurveyLookBacks,
  clearConditionsOn,
  pageTextsOf,
} from './display-logic.js';
import {
  checkLogicShape,
  checkRuleConditions,
  checkTargets,
  type PlacedRule,
  parseLogic,
  questionRules,
} from './logic.js';
import { checkRecallSyntax, pagePipes } from './piping.js';
import { clamp, closeGap, makeRoom, move } from './positions.js';
import { answerIds, idsNeeded, normalizeQuestion, storedAsInput } from './question-rules.js';
import type { Logic, PageSorting, QuestionInput, QuestionPatch, StoredQuestion } from './question-schema.js';
import { parseSorting, sortingColumn } from './randomise.js';
import type { Actor } from './surveys.js';

type Trx = Transaction<Database>;

export interface PageRow {
  id: string;
  survey_id: string;
  position: number;
  title: string;
  description: string;
  logic: Logic | null;
  /** the questions' order for respondents (randomise.ts), null: as listed */
  sorting: PageSorting | null;
}

export interface PageWithCount extends PageRow {
  question_count: number;
}

export interface QuestionRow {
  id: string;
  survey_id: string;
  page_id: string;
  position: number;
  family: string;
  subtype: string;
  doc: StoredQuestion;
}

/** Marks the survey modified and records survey_updated, inside the change's transaction. */
async function touch(
  deps: Deps,
  trx: Trx,
  eventId: string,
  survey: SurveyRow,
  actor: Actor,
  data: Record<string, unknown>,
  counts: { pages?: number; questions?: number } = {},
): Promise<void> {
  await trx
    .updateTable('surveys')
    .set((eb) => ({
      date_modified: deps.clock.now().toISOString(),
      design_version: eb('design_version', '+', 1),
      page_count: eb('page_count', '+', counts.pages ?? 0),
      question_count: eb('question_count', '+', counts.questions ?? 0),
    }))
    .where('id', '=', survey.id)
    .execute();
  await recordEvent(deps, trx, eventId, {
    type: 'survey_updated',
    ownerId: survey.owner_id,
    actorId: actor.user.id,
    resourceType: 'survey',
    resourceId: survey.id,
    ip: actor.ip ?? null,
    data: { title: survey.title, ...data },
  });
}

/**
 * The first statement of every page/question change: takes the survey row's lock (PostgreSQL), so
 * changes to one survey's positions and counters run one after another.
 */
async function lockSurvey(deps: Deps, trx: Trx, surveyId: string): Promise<void> {
  await trx
    .updateTable('surveys')
    .set({ date_modified: deps.clock.now().toISOString() })
    .where('id', '=', surveyId)
    .execute();
}

// ---- pages ----------------------------------------------------------------------------------

export async function listPages(
  deps: Deps,
  surveyId: string,
  offset: number,
  limit: number,
): Promise<[number, PageWithCount[]]> {
  const base = deps.db.kysely.selectFrom('survey_pages').where('survey_id', '=', surveyId);
  const { total, rows: pages } = await countAndPage(base, { offset, limit }, (q) =>
    q.select(['id', 'survey_id', 'position', 'title', 'description', 'logic', 'sorting']).orderBy('position'),
  );
  const counts = await questionCounts(deps, surveyId);
  return [
    total,
    pages.map((p) => ({
      ...p,
      logic: parseLogic(p.logic),
      sorting: parseSorting(p.sorting),
      question_count: counts.get(p.id) ?? 0,
    })),
  ];
}

async function questionCounts(deps: Deps, surveyId: string): Promise<Map<string, number>> {
  const rows = await deps.db.kysely
    .selectFrom('survey_questions')
    .select(['page_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('survey_id', '=', surveyId)
    .groupBy('page_id')
    .execute();
  return new Map(rows.map((r) => [r.page_id, Number(r.n)]));
}

export async function getPage(deps: Deps, surveyId: string, pageId: string): Promise<PageWithCount> {
  const page = await deps.db.kysely
    .selectFrom('survey_pages')
    .select(['id', 'survey_id', 'position', 'title', 'description', 'logic', 'sorting'])
    .where('id', '=', pageId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  if (!page) throw new ApiError(1020, 'Page not found.');
  const { n } = await deps.db.kysely
    .selectFrom('survey_questions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('page_id', '=', pageId)
    .executeTakeFirstOrThrow();
  return {
    ...page,
    logic: parseLogic(page.logic),
    sorting: parseSorting(page.sorting),
    question_count: Number(n),
  };
}

export interface PageInput {
  title?: string;
  description?: string;
  position?: number;
  /** skip logic after the page (logic.ts); null removes it */
  logic?: Logic | null;
  /** the questions' order for respondents; null or `default` keeps them as listed */
  sorting?: PageSorting | null;
}

/**
 * Checks every rule of a survey against its page order, inside the transaction of a change that
 * moves or adds pages or rules (so the check sees the order the change leaves). 400/1002 names the
 * first rule that no longer jumps forward to a page of the survey.
 */
async function checkSurveyRules(trx: Trx, surveyId: string): Promise<void> {
  const pages = await trx
    .selectFrom('survey_pages')
    .select(['id', 'logic'])
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
  const questions = await trx
    .selectFrom('survey_questions')
    .select(['page_id', 'position', 'doc'])
    .where('survey_id', '=', surveyId)
    .where('doc', 'like', '%"logic":%')
    .execute();
  const index = new Map(pages.map((p, i) => [p.id, i]));
  const rules: PlacedRule[] = [];
  for (const q of questions)
    rules.push(
      ...questionRules(
        q.page_id,
        JSON.parse(q.doc) as StoredQuestion,
        `pages[${index.get(q.page_id)}].questions[${q.position - 1}]`,
      ),
    );
  pages.forEach((p, i) => {
    const logic = parseLogic(p.logic);
    if (logic) rules.push({ pageId: p.id, field: `pages[${i}].logic`, logic });
  });
  checkTargets(
    pages.map((p) => p.id),
    rules,
  );
}

/** Whether a page's title or description recalls an answer (then where it sits matters). */
const recallsQuestions = (page: { title?: string; description?: string }) =>
  pagePipes(page).some((p) => p.ref.kind === 'question');

/** The survey's page ids in order (to check a question's rules). */
async function pageOrder(deps: Deps, surveyId: string): Promise<string[]> {
  const rows = await deps.db.kysely
    .selectFrom('survey_pages')
    .select('id')
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.id);
}

export async function createPage(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  input: PageInput,
): Promise<PageWithCount> {
  if (input.logic) checkLogicShape(input.logic, 'logic');
  if (input.logic) checkRuleConditions(survey, [{ field: 'logic', logic: input.logic }]);
  checkRecallSyntax(pageTextsOf(input));
  checkPagePipes(survey, input);
  const [pageId, eventId] = await deps.ids.take(2);
  let page!: PageRow;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    const position = await makeRoom(
      trx,
      'survey_pages',
      { column: 'survey_id', value: survey.id },
      input.position,
    );
    page = {
      id: pageId,
      survey_id: survey.id,
      position,
      title: input.title ?? '',
      description: input.description ?? '',
      logic: input.logic ?? null,
      sorting: parseSorting(sortingColumn(input.sorting)),
    };
    await trx
      .insertInto('survey_pages')
      .values({
        ...page,
        logic: page.logic && JSON.stringify(page.logic),
        sorting: sortingColumn(page.sorting),
        owner_id: survey.owner_id,
      })
      .execute();
    // An insertion keeps the other pages' relative order: only the new page's own rule, or its own
    // recalls, can be wrong.
    if (page.logic) await checkSurveyRules(trx, survey.id);
    if (recallsQuestions(page)) await checkSurveyLookBacks(trx, survey.id);
    await touch(deps, trx, eventId, survey, actor, { change: 'page_created', page_id: pageId }, { pages: 1 });
  });
  return { ...page, question_count: 0 };
}

export async function updatePage(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  input: PageInput,
  mode: 'patch' | 'put',
): Promise<PageWithCount> {
  const current = await getPage(deps, survey.id, pageId);
  const [eventId] = await deps.ids.take(1);
  const next = {
    title: input.title ?? (mode === 'put' ? '' : current.title),
    description: input.description ?? (mode === 'put' ? '' : current.description),
    logic: input.logic !== undefined ? input.logic : mode === 'put' ? null : current.logic,
    sorting:
      input.sorting !== undefined
        ? parseSorting(sortingColumn(input.sorting))
        : mode === 'put'
          ? null
          : current.sorting,
  };
  if (next.logic) checkLogicShape(next.logic, 'logic');
  if (next.logic) checkRuleConditions(survey, [{ field: 'logic', logic: next.logic }]);
  checkRecallSyntax(pageTextsOf(input));
  checkPagePipes(survey, next);
  let position = current.position;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    if (input.position !== undefined) {
      const { n } = await trx
        .selectFrom('survey_pages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('survey_id', '=', survey.id)
        .executeTakeFirstOrThrow();
      position = clamp(input.position, 1, Number(n));
      await move(
        trx,
        'survey_pages',
        { column: 'survey_id', value: survey.id },
        pageId,
        current.position,
        position,
      );
    }
    await trx
      .updateTable('survey_pages')
      .set({ ...next, logic: next.logic && JSON.stringify(next.logic), sorting: sortingColumn(next.sorting) })
      .where('id', '=', pageId)
      .execute();
    // A move can turn any rule into a backward jump; a new rule must jump forward.
    if (position !== current.position || next.logic) await checkSurveyRules(trx, survey.id);
    // …and a display condition or a recall into looking forward.
    if (position !== current.position || recallsQuestions(next)) await checkSurveyLookBacks(trx, survey.id);
    await touch(deps, trx, eventId, survey, actor, { change: 'page_updated', page_id: pageId });
  });
  return { ...current, ...next, position };
}

/** The deleted page, and how many rules that jumped to it were cleared. */
export async function deletePage(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
): Promise<PageWithCount & { logic_cleared: number }> {
  const page = await getPage(deps, survey.id, pageId);
  const [eventId] = await deps.ids.take(1);
  let cleared = 0;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    const gone = await trx
      .selectFrom('survey_questions')
      .select('id')
      .where('page_id', '=', pageId)
      .execute();
    const removed = await trx.deleteFrom('survey_questions').where('page_id', '=', pageId).executeTakeFirst();
    const conditions = await clearConditionsOn(trx, survey.id, new Set(gone.map((q) => q.id)));
    await trx.deleteFrom('survey_pages').where('id', '=', pageId).execute();
    await closeGap(trx, 'survey_pages', { column: 'survey_id', value: survey.id }, page.position);
    cleared = await clearRulesTo(trx, survey.id, pageId);
    await touch(
      deps,
      trx,
      eventId,
      survey,
      actor,
      { change: 'page_deleted', page_id: pageId, logic_cleared: cleared, conditions_cleared: conditions },
      {
        pages: -1,
        questions: -Number(removed.numDeletedRows),
      },
    );
  });
  return { ...page, logic_cleared: cleared };
}

/**
 * Deleting a page clears the rules that jumped to it (their respondents then go on to the next
 * page, as without a rule) and answers how many were cleared.
 */
async function clearRulesTo(trx: Trx, surveyId: string, pageId: string): Promise<number> {
  const needle = `%"page_id":"${pageId}"%`;
  const pages = await trx
    .updateTable('survey_pages')
    .set({ logic: null })
    .where('survey_id', '=', surveyId)
    .where('logic', 'like', needle)
    .executeTakeFirst();
  let cleared = Number(pages.numUpdatedRows);
  const questions = await trx
    .selectFrom('survey_questions')
    .select(['id', 'doc'])
    .where('survey_id', '=', surveyId)
    .where('doc', 'like', needle)
    .execute();
  for (const q of questions) {
    const doc = JSON.parse(q.doc) as StoredQuestion;
    for (const c of doc.answers?.choices ?? [])
      if (c.logic?.page_id === pageId) {
        delete c.logic;
        cleared++;
      }
    await trx
      .updateTable('survey_questions')
      .set({ doc: JSON.stringify(doc) })
      .where('id', '=', q.id)
      .execute();
  }
  return cleared;
}

// ---- questions ------------------------------------------------------------------------------

export async function listQuestions(
  deps: Deps,
  pageId: string,
  offset: number,
  limit: number,
): Promise<[number, QuestionRow[]]> {
  const base = deps.db.kysely.selectFrom('survey_questions').where('page_id', '=', pageId);
  const { total, rows } = await countAndPage(base, { offset, limit }, (q) =>
    q.select(['id', 'survey_id', 'page_id', 'position', 'family', 'subtype', 'doc']).orderBy('position'),
  );
  return [total, rows.map((r) => ({ ...r, doc: JSON.parse(r.doc) as StoredQuestion }))];
}

export async function getQuestion(
  deps: Deps,
  surveyId: string,
  pageId: string,
  questionId: string,
): Promise<QuestionRow> {
  const row = await deps.db.kysely
    .selectFrom('survey_questions')
    .select(['id', 'survey_id', 'page_id', 'position', 'family', 'subtype', 'doc'])
    .where('id', '=', questionId)
    .where('page_id', '=', pageId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Question not found.');
  return { ...row, doc: JSON.parse(row.doc) as StoredQuestion };
}

export async function createQuestion(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  input: QuestionInput,
): Promise<QuestionRow> {
  await getPage(deps, survey.id, pageId);
  checkQuestionType(actor.plan, input);
  const ids = await deps.ids.take(idsNeeded(input) + 1);
  const eventId = ids.pop()!;
  let k = 0;
  const next = () => ids[k++];
  const id = next();
  const doc = normalizeQuestion(input, next);
  const rules = questionRules(pageId, doc, '');
  checkRuleConditions(survey, rules);
  if (rules.length > 0) checkTargets(await pageOrder(deps, survey.id), rules);
  await checkLookBack(deps, survey, pageId, undefined, doc);
  let row!: QuestionRow;
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The counter is bumped first and checked after: concurrent creates cannot both slip past 1000.
    const counted = await trx
      .updateTable('surveys')
      .set((eb) => ({ question_count: eb('question_count', '+', 1) }))
      .where('id', '=', survey.id)
      .returning('question_count')
      .executeTakeFirstOrThrow();
    if (Number(counted.question_count) > MAX_QUESTIONS)
      throw new ApiError(1030, `A survey may hold at most ${MAX_QUESTIONS} questions.`);
    const position = await makeRoom(
      trx,
      'survey_questions',
      { column: 'page_id', value: pageId },
      input.position,
    );
    row = {
      id,
      survey_id: survey.id,
      page_id: pageId,
      position,
      family: input.family,
      subtype: input.subtype,
      doc,
    };
    await trx
      .insertInto('survey_questions')
      .values({ ...row, owner_id: survey.owner_id, doc: JSON.stringify(doc) })
      .execute();
    await touch(deps, trx, eventId, survey, actor, {
      change: 'question_created',
      page_id: pageId,
      question_id: id,
    });
  });
  return row;
}

export async function updateQuestion(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  questionId: string,
  input: QuestionInput | QuestionPatch,
  mode: 'patch' | 'put',
): Promise<QuestionRow> {
  const current = await getQuestion(deps, survey.id, pageId, questionId);
  const merged: QuestionInput =
    mode === 'put'
      ? (input as QuestionInput)
      : { ...storedAsInput(current.family, current.subtype, current.doc), ...(input as QuestionPatch) };
  // Changing family/subtype by PATCH drops the old type's answers and type-bound options not resent.
  if (mode === 'patch' && (merged.family !== current.family || merged.subtype !== current.subtype)) {
    const patch = input as QuestionPatch;
    for (const key of ['answers', 'sorting', 'forced_ranking', 'display_options', 'validation'] as const)
      if (patch[key] === undefined) delete merged[key];
  }
  checkQuestionType(actor.plan, merged);
  const ids = await deps.ids.take(idsNeeded(merged) + 1);
  const eventId = ids.pop()!;
  let k = 0;
  const doc = normalizeQuestion(merged, () => ids[k++], answerIds(current.doc));
  const rules = questionRules(pageId, doc, '');
  checkRuleConditions(survey, rules);
  if (rules.length > 0) checkTargets(await pageOrder(deps, survey.id), rules);
  await checkLookBack(deps, survey, pageId, questionId, doc);
  let position = current.position;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    if (input.position !== undefined) {
      const { n } = await trx
        .selectFrom('survey_questions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('page_id', '=', pageId)
        .executeTakeFirstOrThrow();
      position = clamp(input.position, 1, Number(n));
      await move(
        trx,
        'survey_questions',
        { column: 'page_id', value: pageId },
        questionId,
        current.position,
        position,
      );
    }
    await trx
      .updateTable('survey_questions')
      .set({ family: merged.family, subtype: merged.subtype, doc: JSON.stringify(doc) })
      .where('id', '=', questionId)
      .execute();
    await touch(deps, trx, eventId, survey, actor, {
      change: 'question_updated',
      page_id: pageId,
      question_id: questionId,
    });
  });
  return { ...current, family: merged.family, subtype: merged.subtype, doc, position };
}

export async function deleteQuestion(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  questionId: string,
): Promise<QuestionRow> {
  const current = await getQuestion(deps, survey.id, pageId, questionId);
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    await trx.deleteFrom('survey_questions').where('id', '=', questionId).execute();
    await closeGap(trx, 'survey_questions', { column: 'page_id', value: pageId }, current.position);
    const conditions = await clearConditionsOn(trx, survey.id, new Set([questionId]));
    await touch(
      deps,
      trx,
      eventId,
      survey,
      actor,
      {
        change: 'question_deleted',
        page_id: pageId,
        question_id: questionId,
        conditions_cleared: conditions,
      },
      {
        questions: -1,
      },
    );
  });
  return current;
}

/** A copy of a question, placed right after it on its page (fresh ids for it and its answers). */
export async function copyQuestion(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  questionId: string,
): Promise<QuestionRow> {
  const q = await getQuestion(deps, survey.id, pageId, questionId);
  const input = storedAsInput(q.family, q.subtype, q.doc);
  return createQuestion(deps, actor, survey, pageId, { ...input, position: q.position + 1 });
}

/**
 * Moves a question to `position` (clamped) on another page of the survey, keeping its id, so the
 * answers it already has stay with it.
 */
export async function moveQuestionToPage(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  pageId: string,
  questionId: string,
  toPageId: string,
  position?: number,
): Promise<QuestionRow> {
  if (toPageId === pageId) {
    if (position === undefined) return getQuestion(deps, survey.id, pageId, questionId);
    return updateQuestion(deps, actor, survey, pageId, questionId, { position }, 'patch');
  }
  const current = await getQuestion(deps, survey.id, pageId, questionId);
  await getPage(deps, survey.id, toPageId);
  const [eventId] = await deps.ids.take(1);
  let to = 0;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockSurvey(deps, trx, survey.id);
    // Read again under the lock: a concurrent move may have taken it elsewhere already.
    const still = await trx
      .selectFrom('survey_questions')
      .select('position')
      .where('id', '=', questionId)
      .where('page_id', '=', pageId)
      .executeTakeFirst();
    if (!still) throw new ApiError(1020, 'Question not found.');
    await closeGap(trx, 'survey_questions', { column: 'page_id', value: pageId }, still.position);
    to = await makeRoom(trx, 'survey_questions', { column: 'page_id', value: toPageId }, position);
    await trx
      .updateTable('survey_questions')
      .set({ page_id: toPageId, position: to })
      .where('id', '=', questionId)
      .execute();
    // Its choices' rules now start from the new page: they must still jump forward from there.
    if (questionRules(toPageId, current.doc, '').length > 0) await checkSurveyRules(trx, survey.id);
    // Its display condition and recalls, and those naming it, must still look back.
    await checkSurveyLookBacks(trx, survey.id);
    await touch(deps, trx, eventId, survey, actor, {
      change: 'question_moved',
      page_id: toPageId,
      from_page_id: pageId,
      question_id: questionId,
    });
  });
  return { ...current, page_id: toPageId, position: to };
}

/** How many responses answered each question of a survey (what deleting it would lose). */
export async function answerCounts(deps: Deps, surveyId: string): Promise<Map<string, number>> {
  const rows = await deps.db.kysely
    .selectFrom('response_counts')
    .select(['question_id', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('survey_id', '=', surveyId)
    .where('akey', '=', '')
    .groupBy('question_id')
    .execute();
  return new Map(rows.map((r) => [r.question_id, Number(r.n)]));
}
