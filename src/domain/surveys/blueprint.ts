// Writing a whole survey at once: Blank, Bulk, copies of surveys and (team) templates all become
// a blueprint (settings + pages of question bodies) written in one transaction with its events.
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { type Plan, questionTypes } from '../../platform/plans.js';
import type { NewEvent } from '../core/event-types.js';
import { recordEvent } from '../core/events.js';
import { ownedRow } from '../core/owned.js';
import type { SurveyRow } from './access.js';
import { type CalculatedVariable, remapFormula } from './calculated.js';
import { checkPagePipes } from './display-logic.js';
import {
  checkRuleConditions,
  checkTargets,
  type PlacedRule,
  questionRules,
  remapLogic,
  remapQuestion,
} from './logic.js';
import {
  checkRecallSyntax,
  pagePipes,
  pipedTexts,
  questionPipes,
  remapPipes,
  remapQuestionPipes,
} from './piping.js';
import { idsNeeded, normalizeQuestion, questionTypeFlag } from './question-rules.js';
import type { Logic, PageSorting, QuestionInput, StoredQuestion } from './question-schema.js';
import { sortingColumn } from './randomise.js';

export const MAX_QUESTIONS = 1000;

export interface ButtonsText {
  next_button: string;
  prev_button: string;
  exit_button: string;
  done_button: string;
}

export interface QuizOptions {
  is_quiz_mode: boolean;
  show_results_type: 'disabled' | 'results_only' | 'results_and_answers';
  feedback: {
    ranges_type: 'percentage' | 'points' | 'disabled';
    ranges: Array<{ min: number; max: number; message: string }>;
  };
  default_question_feedback?: { correct_text: string; incorrect_text: string; partial_text: string };
}

export interface SurveySettings {
  title: string;
  nickname: string;
  language: string;
  category: string;
  folder_id: string | null;
  buttons_text: ButtonsText;
  custom_variables: Record<string, string>;
  footer: boolean;
  theme_id: string | null;
  quiz_options: QuizOptions | null;
  /** respondent pages' logo (https URL) and accent colour (#rrggbb): extensions */
  logo_url: string | null;
  theme_color: string | null;
  /** how respondent pages show the questions: a page at a time, or one question a screen (an extension) */
  question_layout: QuestionLayout;
}

export const QUESTION_LAYOUTS = ['page', 'one_at_a_time'] as const;
export type QuestionLayout = (typeof QUESTION_LAYOUTS)[number];

export interface BlueprintPage {
  /** the source page's id (copies): rules that jump to it are remapped to its copy */
  id?: string;
  title?: string;
  description?: string;
  logic?: Logic | null;
  sorting?: PageSorting | null;
  questions: QuestionInput[];
  /** the source questions' ids (copies, imports), in order: recalls of them are remapped to their copies */
  questionIds?: string[];
}

export interface Blueprint extends SurveySettings {
  pages: BlueprintPage[];
  /** a copy's calculated variables, naming the source's question ids (remapped when written) */
  calculated_variables?: CalculatedVariable[];
}

export const DEFAULT_BUTTONS: ButtonsText = {
  next_button: 'Next',
  prev_button: 'Prev',
  exit_button: 'Exit',
  done_button: 'Done',
};

export function defaultSettings(): SurveySettings {
  return {
    title: 'New Survey',
    nickname: '',
    language: 'en',
    category: '',
    folder_id: null,
    buttons_text: { ...DEFAULT_BUTTONS },
    custom_variables: {},
    footer: true,
    theme_id: null,
    quiz_options: null,
    logo_url: null,
    theme_color: null,
    question_layout: 'page',
  };
}

export function token(): string {
  return randomBytes(18).toString('base64url');
}

/** 403/1015 when the plan lacks the question's type (users/me question_types). */
export function checkQuestionType(plan: Plan, q: QuestionInput, where = ''): void {
  const flag = questionTypeFlag(q);
  if (flag && !questionTypes(plan)[flag])
    throw new ApiError(
      1015,
      `${where}${q.family} ${q.subtype}${q.display_options?.display_type ? ` (${q.display_options.display_type})` : ''} questions need ${flag}, which this plan does not include.`,
    );
}

/** Settings rules beyond the schema: quiz ranges inclusive and non-overlapping, paid-only fields. */
export async function checkSettings(
  deps: Deps,
  ownerId: string,
  plan: Plan,
  s: Partial<SurveySettings>,
): Promise<void> {
  if (s.custom_variables && Object.keys(s.custom_variables).length > 0 && plan === 'basic')
    throw new ApiError(1015, 'custom_variables need a paid plan.');
  const q = s.quiz_options;
  if (q) {
    const field = (i: number) => `'quiz_options.feedback.ranges.${i}'`;
    const ranges = q.feedback.ranges.map((r, i) => ({ ...r, i })).sort((a, b) => a.min - b.min);
    for (const [k, r] of ranges.entries()) {
      if (r.min > r.max) throw new ApiError(1002, `${field(r.i)} has min ${r.min} above its max ${r.max}.`);
      if (q.feedback.ranges_type === 'percentage' && (r.min < 0 || r.max > 100))
        throw new ApiError(1002, `${field(r.i)}: percentages must lie within 0..100.`);
      const prev = ranges[k - 1];
      if (prev && r.min <= prev.max)
        throw new ApiError(
          1002,
          `${field(r.i)} (${r.min}-${r.max}) overlaps ${field(prev.i)} (${prev.min}-${prev.max}); ranges are inclusive.`,
        );
    }
  }
  if (s.folder_id)
    await ownedRow(
      deps.db.kysely,
      'survey_folders',
      ownerId,
      s.folder_id,
      `Folder ${s.folder_id} not found.`,
    );
}

export function settingsColumns(s: SurveySettings) {
  return {
    title: s.title,
    nickname: s.nickname,
    language: s.language,
    category: s.category,
    folder_id: s.folder_id,
    buttons_text: JSON.stringify(s.buttons_text),
    custom_variables: JSON.stringify(s.custom_variables),
    footer: s.footer ? 1 : 0,
    theme_id: s.theme_id,
    quiz_options: s.quiz_options ? JSON.stringify(s.quiz_options) : null,
    logo_url: s.logo_url,
    theme_color: s.theme_color,
    question_layout: s.question_layout,
  };
}

export interface PreparedQuestion {
  id: string;
  family: string;
  subtype: string;
  doc: StoredQuestion;
}

/** Reserves ids and normalises every question of a blueprint (outside any transaction). */
export async function prepareQuestions(
  deps: Deps,
  plan: Plan,
  pages: BlueprintPage[],
): Promise<PreparedQuestion[][]> {
  const total = pages.reduce((n, p) => n + p.questions.length, 0);
  if (total > MAX_QUESTIONS)
    throw new ApiError(
      1030,
      `A survey may hold at most ${MAX_QUESTIONS} questions; this one would hold ${total}.`,
    );
  for (const [i, p] of pages.entries())
    for (const [j, q] of p.questions.entries()) checkQuestionType(plan, q, `pages.${i}.questions.${j}: `);
  const need = pages.reduce((n, p) => n + p.questions.reduce((m, q) => m + idsNeeded(q), 0), 0);
  const ids = await deps.ids.take(need);
  let k = 0;
  const next = () => ids[k++];
  return pages.map((p, i) =>
    p.questions.map((q, j) => {
      const id = next();
      try {
        return { id, family: q.family, subtype: q.subtype, doc: normalizeQuestion(q, next) };
      } catch (err) {
        if (err instanceof ApiError && err.code === 1002)
          throw new ApiError(1002, `pages.${i}.questions.${j}: ${err.detail ?? ''}`.trim());
        throw err;
      }
    }),
  );
}

/**
 * A copy's (or import's) recalls and display logic name the source's questions and choices: each
 * is rewritten to name its copy (choices paired by position, as normalizeQuestion keeps them).
 */
function remapRecalls(
  pages: BlueprintPage[],
  prepared: PreparedQuestion[][],
  questionIds: ReadonlyMap<string, string>,
): void {
  const choiceIds = new Map<string, string>();
  for (const [i, p] of pages.entries())
    for (const [j, q] of p.questions.entries()) {
      const to = prepared[i][j]?.doc.answers;
      q.answers?.choices?.forEach((c, k) => {
        const id = (c as { id?: string }).id;
        const copy = to?.choices?.[k]?.id;
        if (id && copy) choiceIds.set(String(id), copy);
      });
      const other = (q.answers?.other as { id?: string } | undefined)?.id;
      if (other && to?.other?.id) choiceIds.set(String(other), to.other.id);
    }
  for (const q of prepared.flat()) {
    q.doc = remapQuestionPipes(q.doc, questionIds);
    const d = q.doc.display_logic;
    const copy = d?.question_id && questionIds.get(d.question_id);
    if (d && copy)
      q.doc.display_logic = {
        ...d,
        question_id: copy,
        ...(d.choice_ids && { choice_ids: d.choice_ids.map((id) => choiceIds.get(id) ?? id) }),
      };
  }
}

/**
 * A survey written in one request (not a copy or an import) has no question ids yet, so a recall or a
 * display condition in it can only name a question of another survey: 400/1002 naming the field, as
 * the same text gets when a question is added on its own.
 */
function refuseRecalls(prepared: PreparedQuestion[][]): void {
  for (const [i, qs] of prepared.entries())
    for (const [j, q] of qs.entries()) {
      const at = `pages[${i}].questions[${j}]`;
      checkRecallSyntax(pipedTexts(q.doc).map((t) => ({ field: `${at}.${t.field}`, text: t.text })));
      const d = q.doc.display_logic;
      if (d?.question_id)
        throw new ApiError(
          1002,
          `'${at}.display_logic.question_id': question ${d.question_id} is not in this survey.`,
        );
      for (const p of questionPipes(q.doc))
        if (p.ref.kind === 'question')
          throw new ApiError(1002, `'${at}.${p.field}': question ${p.ref.key} is not in this survey.`);
    }
}

/**
 * The pages' titles and descriptions, whose recalls a copy (or import) points at its own questions;
 * in a survey written in one request a recall of a question can only name another survey's
 * (400/1002, as for a question's texts).
 */
function pageTexts(
  blueprint: Blueprint,
  pages: BlueprintPage[],
  sourceIds: ReadonlyMap<string, string>,
): Array<{ title: string; description: string }> {
  const survey = {
    custom_variables: JSON.stringify(blueprint.custom_variables ?? {}),
    calculated_variables: JSON.stringify(sourceIds.size > 0 ? (blueprint.calculated_variables ?? []) : []),
  };
  return pages.map((p, i) => {
    const page = { title: p.title ?? '', description: p.description ?? '' };
    checkPagePipes(survey, page);
    if (sourceIds.size > 0)
      return {
        title: remapPipes(page.title, sourceIds),
        description: remapPipes(page.description, sourceIds),
      };
    checkRecallSyntax([
      { field: `pages[${i}].title`, text: page.title },
      { field: `pages[${i}].description`, text: page.description },
    ]);
    for (const { field, ref } of pagePipes(page))
      if (ref.kind === 'question')
        throw new ApiError(1002, `'pages[${i}].${field}': question ${ref.key} is not in this survey.`);
    return page;
  });
}

/** Writes a whole new survey with its pages and questions, and its events, in one transaction. */
export async function writeBlueprint(
  deps: Deps,
  ownerId: string,
  plan: Plan,
  blueprint: Blueprint,
  events: (surveyId: string) => NewEvent[],
  presetId?: string,
): Promise<SurveyRow> {
  await checkSettings(deps, ownerId, plan, blueprint);
  const pages = blueprint.pages.length > 0 ? blueprint.pages : [{ questions: [] }];
  const prepared = await prepareQuestions(deps, plan, pages);
  const [minted, ...rest] = await deps.ids.take(1 + pages.length + 1);
  const surveyId = presetId ?? minted;
  const pageIds = rest.slice(0, pages.length);
  const eventIds = rest.slice(pages.length);
  const now = deps.clock.now().toISOString();
  const questionCount = prepared.reduce((n, p) => n + p.length, 0);
  // A copy's rules jump to the copies of their pages; then every rule must jump forward.
  const copied = new Map(pages.flatMap((p, i) => (p.id ? [[p.id, pageIds[i]] as const] : [])));
  const pageLogic = pages.map((p) => (copied.size > 0 ? remapLogic(p.logic ?? undefined, copied) : p.logic));
  const rules: PlacedRule[] = [];
  prepared.forEach((qs, i) => {
    pageLogic[i] && rules.push({ pageId: pageIds[i], field: `pages[${i}].logic`, logic: pageLogic[i]! });
    qs.forEach((q, j) => {
      if (copied.size > 0) q.doc = remapQuestion(q.doc, copied);
      rules.push(...questionRules(pageIds[i], q.doc, `pages[${i}].questions[${j}]`));
    });
  });
  checkTargets(pageIds, rules);
  const sourceIds = new Map(
    pages.flatMap((p, i) =>
      (p.questionIds ?? []).flatMap((id, j) => (prepared[i][j] ? [[id, prepared[i][j].id] as const] : [])),
    ),
  );
  // A copy keeps its variables (and the rules conditioned on them); a new survey has none.
  checkRuleConditions(
    sourceIds.size > 0
      ? { calculated_variables: JSON.stringify(blueprint.calculated_variables ?? []) }
      : undefined,
    rules,
  );
  if (sourceIds.size > 0) remapRecalls(pages, prepared, sourceIds);
  else refuseRecalls(prepared);
  const texts = pageTexts(blueprint, pages, sourceIds);
  const row: SurveyRow = {
    id: surveyId,
    owner_id: ownerId,
    ...settingsColumns(blueprint),
    question_count: questionCount,
    page_count: pages.length,
    design_version: 0,
    // A copy's formulas name the copies of the source's questions; other new surveys have none.
    calculated_variables:
      sourceIds.size > 0 && blueprint.calculated_variables?.length
        ? JSON.stringify(
            blueprint.calculated_variables.map((v) => ({
              name: v.name,
              formula: remapFormula(v.formula, sourceIds),
            })),
          )
        : null,
    response_count: 0,
    preview_token: token(),
    manage_token: token(),
    date_created: now,
    date_modified: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('surveys').values(row).execute();
    await trx
      .insertInto('survey_pages')
      .values(
        pages.map((p, i) => ({
          id: pageIds[i],
          survey_id: surveyId,
          owner_id: ownerId,
          position: i + 1,
          ...texts[i],
          logic: pageLogic[i] ? JSON.stringify(pageLogic[i]) : null,
          sorting: sortingColumn(p.sorting),
        })),
      )
      .execute();
    await insertQuestions(
      trx,
      prepared.flatMap((qs, i) =>
        qs.map((q, j) => ({
          id: q.id,
          survey_id: surveyId,
          page_id: pageIds[i],
          owner_id: ownerId,
          position: j + 1,
          family: q.family,
          subtype: q.subtype,
          doc: JSON.stringify(q.doc),
        })),
      ),
    );
    const evs = events(surveyId);
    for (const [i, e] of evs.entries()) await recordEvent(deps, trx, eventIds[i], e);
  });
  return row;
}

type QuestionRow = Database['survey_questions'];

/** Inserts question rows in chunks (SQLite caps the number of bound parameters per statement). */
export async function insertQuestions(trx: Transaction<Database>, rows: QuestionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100)
    await trx
      .insertInto('survey_questions')
      .values(rows.slice(i, i + 100))
      .execute();
}
