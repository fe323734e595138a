// Surveys: create (Blank, Bulk, Copy), read, list, update, delete. No HTTP here.
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { ownerColumn, titleMatches, titleSearchMode } from '../../db/stores/title-search.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { recordEvent } from '../core/events.js';
import { sharedAtAllQuery, sharedWithQuery } from '../sharing/privileges.js';
import { activeTeamOf } from '../teams/membership.js';
import { releaseTheme, removeThemeLogo } from '../themes/themes.js';
import { removeUploads } from '../uploads/uploads.js';
import { type Caller, requireSurvey, type SurveyRow } from './access.js';
import {
  type Blueprint,
  type BlueprintPage,
  type ButtonsText,
  checkSettings,
  DEFAULT_BUTTONS,
  defaultSettings,
  type QuestionLayout,
  type QuizOptions,
  type SurveySettings,
  settingsColumns,
  writeBlueprint,
} from './blueprint.js';
import { type CalculatedVariable, calculatedOf, checkCalculated } from './calculated.js';
import { parseLogic } from './logic.js';
import { storedAsInput } from './question-rules.js';
import type { Logic, PageSorting, QuestionInput, StoredQuestion } from './question-schema.js';
import { parseSorting } from './randomise.js';
import { findTemplate } from './templates/index.js';

export interface SettingsInput {
  title?: string;
  nickname?: string;
  language?: string;
  buttons_text?: Partial<ButtonsText>;
  custom_variables?: Record<string, string>;
  footer?: boolean;
  folder_id?: string | null;
  theme_id?: number | null;
  quiz_options?: QuizOptions | null;
  logo_url?: string | null;
  theme_color?: string | null;
  question_layout?: QuestionLayout;
  /** PATCH/PUT only (a new survey has no questions to name); PUT without it clears them */
  calculated_variables?: CalculatedVariable[];
}

export interface CreateInput extends SettingsInput {
  from_survey_id?: string;
  from_template_id?: string;
  from_team_template_id?: string;
  pages?: BlueprintPage[];
}

export interface Actor extends Caller {
  plan: Plan;
  ip?: string | null;
}

/** Applies a body to settings: PUT starts from the defaults, PATCH from the current settings. */
export function applySettings(base: SurveySettings, input: SettingsInput): SurveySettings {
  const out = { ...base, buttons_text: { ...base.buttons_text } };
  if (input.title !== undefined) out.title = input.title;
  if (input.nickname !== undefined) out.nickname = input.nickname;
  if (input.language !== undefined) out.language = input.language;
  if (input.buttons_text !== undefined) out.buttons_text = { ...out.buttons_text, ...input.buttons_text };
  if (input.custom_variables !== undefined) out.custom_variables = input.custom_variables;
  if (input.footer !== undefined) out.footer = input.footer;
  if (input.folder_id !== undefined) out.folder_id = input.folder_id === '0' ? null : input.folder_id;
  if (input.theme_id !== undefined) out.theme_id = input.theme_id === null ? null : String(input.theme_id);
  if (input.quiz_options !== undefined) out.quiz_options = input.quiz_options;
  if (input.logo_url !== undefined) out.logo_url = input.logo_url;
  if (input.theme_color !== undefined) out.theme_color = input.theme_color?.toLowerCase() ?? null;
  if (input.question_layout !== undefined) out.question_layout = input.question_layout;
  return out;
}

/** The layout of a survey's questions; a value this release does not know (written by a later one)
 * reads as the default. */
export const questionLayoutOf = (
  row: Pick<SurveyRow, 'question_layout'>,
): SurveySettings['question_layout'] => (row.question_layout === 'one_at_a_time' ? 'one_at_a_time' : 'page');

/** The custom variables a survey declares, by name (without reading its other settings). */
export const customVariableNames = (row: Pick<SurveyRow, 'custom_variables'>): string[] =>
  Object.keys(JSON.parse(row.custom_variables));

export function settingsOf(row: SurveyRow): SurveySettings {
  return {
    title: row.title,
    nickname: row.nickname,
    language: row.language,
    category: row.category,
    folder_id: row.folder_id,
    buttons_text: { ...DEFAULT_BUTTONS, ...(JSON.parse(row.buttons_text) as ButtonsText) },
    custom_variables: JSON.parse(row.custom_variables) as Record<string, string>,
    footer: row.footer === 1,
    theme_id: row.theme_id,
    quiz_options: row.quiz_options ? (JSON.parse(row.quiz_options) as QuizOptions) : null,
    logo_url: row.logo_url,
    theme_color: row.theme_color,
    question_layout: questionLayoutOf(row),
  };
}

/** A survey's design as a blueprint (the source of a copy). */
export async function blueprintOf(deps: Deps, survey: SurveyRow): Promise<Blueprint> {
  const { pages, questions } = await loadDesign(deps, survey.id);
  return {
    ...settingsOf(survey),
    calculated_variables: calculatedOf(survey),
    pages: pages.map((p) => ({
      id: p.id,
      title: p.title,
      description: p.description,
      logic: p.logic,
      sorting: p.sorting,
      questions: (questions.get(p.id) ?? []).map((q) => storedAsInput(q.family, q.subtype, q.doc)),
      questionIds: (questions.get(p.id) ?? []).map((q) => q.id),
    })),
  };
}

/** `presetId`: an id reserved beforehand (the importer records it first, so a re-run never duplicates). */
export async function createSurvey(
  deps: Deps,
  actor: Actor,
  input: CreateInput,
  presetId?: string,
): Promise<SurveyRow> {
  const sources = [input.from_survey_id, input.from_template_id, input.from_team_template_id].filter(
    (x) => x !== undefined,
  );
  if (sources.length > 1)
    throw new ApiError(1002, 'Give only one of from_survey_id, from_template_id, from_team_template_id.');
  const userId = actor.user.id;
  const event = (surveyId: string, data: Record<string, unknown>) => ({
    type: 'survey_created' as const,
    ownerId: userId,
    actorId: userId,
    resourceType: 'survey',
    resourceId: surveyId,
    ip: actor.ip ?? null,
    data,
  });
  if (sources.length === 1) {
    if (input.pages) throw new ApiError(1002, "'pages' cannot be combined with a copy.");
    let source: Blueprint;
    let from: Record<string, string>;
    if (input.from_survey_id !== undefined) {
      const survey = await requireSurvey(deps, actor, input.from_survey_id, 'design', 'read').catch(() => {
        throw new ApiError(1020, `Survey ${input.from_survey_id} not found.`);
      });
      source = await blueprintOf(deps, survey);
      from = { from_survey_id: survey.id };
    } else if (input.from_template_id !== undefined) {
      const template = findTemplate(input.from_template_id);
      if (!template) throw new ApiError(1020, `Template ${input.from_template_id} not found.`);
      source = {
        ...defaultSettings(),
        title: template.title,
        category: template.category,
        pages: template.pages,
      };
      from = { from_template_id: template.id };
    } else {
      const teamTemplate = await findTeamTemplate(deps, userId, input.from_team_template_id!);
      const survey = await deps.db.kysely
        .selectFrom('surveys')
        .selectAll()
        .where('id', '=', teamTemplate.survey_id)
        .executeTakeFirst();
      if (!survey)
        throw new ApiError(1020, `Team template ${input.from_team_template_id} has no survey any more.`);
      source = await blueprintOf(deps, survey);
      from = { from_team_template_id: teamTemplate.id, from_survey_id: survey.id };
    }
    // The copy keeps the source's settings (a copy is identical but for ids) unless the body says otherwise.
    const blueprint: Blueprint = { ...applySettings(source, input), pages: source.pages };
    if (input.folder_id === undefined) blueprint.folder_id = null;
    // One survey_created event; naming from_survey_id makes it a copy (group activity survey_info_copy).
    return writeBlueprint(deps, userId, actor.plan, blueprint, (id) => [
      event(id, { title: blueprint.title, ...from }),
    ]);
  }
  const blueprint: Blueprint = { ...applySettings(defaultSettings(), input), pages: input.pages ?? [] };
  return writeBlueprint(
    deps,
    userId,
    actor.plan,
    blueprint,
    (id) => [event(id, { title: blueprint.title })],
    presetId,
  );
}

async function findTeamTemplate(deps: Deps, userId: string, id: string) {
  const row = await deps.db.kysely
    .selectFrom('team_survey_templates')
    .selectAll()
    .where('id', '=', id)
    .where(await visibleTeamTemplates(deps, userId))
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, `Team template ${id} not found.`);
  return row;
}

/** The team templates a user sees: their active team's, and their own made outside a team. */
export async function visibleTeamTemplates(deps: Deps, userId: string) {
  const team = await activeTeamOf(deps, userId);
  return (eb: ExpressionBuilder<Database, 'team_survey_templates'>) =>
    team
      ? eb.or([eb('team_id', '=', team), eb.and([eb('team_id', 'is', null), eb('owner_id', '=', userId)])])
      : eb.and([eb('team_id', 'is', null), eb('owner_id', '=', userId)]);
}

export async function updateSurvey(
  deps: Deps,
  actor: Actor,
  surveyId: string,
  input: SettingsInput,
  mode: 'patch' | 'put',
): Promise<SurveyRow> {
  const survey = await requireSurvey(deps, actor, surveyId, 'design', 'write');
  const base = mode === 'put' ? { ...defaultSettings(), category: survey.category } : settingsOf(survey);
  const next = applySettings(base, input);
  await checkSettings(deps, survey.owner_id, actor.plan, {
    ...input,
    buttons_text: undefined,
    theme_id: undefined,
    folder_id: next.folder_id,
    custom_variables: input.custom_variables,
    quiz_options: next.quiz_options,
  });
  const calculated =
    input.calculated_variables ?? (mode === 'put' && survey.calculated_variables ? [] : undefined);
  const checked = calculated && (await checkedCalculated(deps, survey.id, next, calculated));
  const [eventId] = await deps.ids.take(1);
  const now = deps.clock.now().toISOString();
  const columns = {
    ...settingsColumns(next),
    date_modified: now,
    ...(checked && { calculated_variables: checked.length > 0 ? JSON.stringify(checked) : null }),
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('surveys')
      .set((eb) => ({
        ...columns,
        // The design index (with the parsed formulas) is kept per design_version.
        ...(checked && { design_version: eb('design_version', '+', 1) }),
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
      data: { title: next.title, fields: Object.keys(input) },
    });
  });
  return { ...survey, ...columns, design_version: survey.design_version + (checked ? 1 : 0) };
}

/** The calculated variables as stored, checked against the survey's questions and custom
 * variables (400/1002 naming the field). */
async function checkedCalculated(
  deps: Deps,
  surveyId: string,
  settings: SurveySettings,
  list: CalculatedVariable[],
): Promise<CalculatedVariable[]> {
  const questions =
    list.length === 0
      ? []
      : await deps.db.kysely
          .selectFrom('survey_questions')
          .select('id')
          .where('survey_id', '=', surveyId)
          .where('family', '!=', 'presentation')
          .execute();
  return checkCalculated(list, {
    questionIds: new Set(questions.map((q) => q.id)),
    customVariables: new Set(Object.keys(settings.custom_variables)),
  });
}

/** The survey if `actor` may delete it. Sharing grants work on a survey, not ownership of it: only
 * the owner deletes. */
export async function deletableSurvey(deps: Deps, actor: Caller, surveyId: string): Promise<SurveyRow> {
  const survey = await requireSurvey(deps, actor, surveyId, 'design', 'write');
  if (survey.owner_id !== actor.user.id) throw new ApiError(1016, "Only the survey's owner may delete it.");
  return survey;
}

/** A copy of a survey (POST /v3/surveys with from_survey_id) named "Copy of <title>". */
export async function copySurvey(deps: Deps, actor: Actor, surveyId: string): Promise<SurveyRow> {
  const source = await requireSurvey(deps, actor, surveyId, 'design', 'read');
  return createSurvey(deps, actor, {
    from_survey_id: source.id,
    title: `Copy of ${source.title}`.slice(0, 250),
  });
}

export async function deleteSurvey(deps: Deps, actor: Actor, surveyId: string): Promise<SurveyRow> {
  const survey = await deletableSurvey(deps, actor, surveyId);
  const [eventId] = await deps.ids.take(1);
  const oldLogo = await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('survey_translations').where('survey_id', '=', survey.id).execute();
    await trx.deleteFrom('survey_questions').where('survey_id', '=', survey.id).execute();
    await trx.deleteFrom('survey_pages').where('survey_id', '=', survey.id).execute();
    await trx.deleteFrom('team_survey_templates').where('survey_id', '=', survey.id).execute();
    await trx.deleteFrom('surveys').where('id', '=', survey.id).execute();
    await recordEvent(deps, trx, eventId, {
      type: 'survey_deleted',
      ownerId: survey.owner_id,
      actorId: actor.user.id,
      resourceType: 'survey',
      resourceId: survey.id,
      ip: actor.ip ?? null,
      data: { title: survey.title },
    });
    return releaseTheme(trx, survey.id);
  });
  // Its responses went with it (cascade); their files and its theme's logo follow.
  await removeUploads(deps, { surveyId: survey.id });
  await removeThemeLogo(deps, oldLogo);
  return survey;
}

export interface ListQuery {
  offset: number;
  limit: number;
  sortBy?: 'title' | 'date_modified' | 'num_responses';
  sortOrder?: 'ASC' | 'DESC';
  filters: Array<'shared_with' | 'shared_by' | 'owned'>;
  title?: string;
  startModified?: string;
  endModified?: string;
  folderId?: string;
}

/** The columns a survey list item can show. */
const LIST_COLUMNS = [
  'id',
  'title',
  'nickname',
  'language',
  'question_count',
  'response_count',
  'date_created',
  'date_modified',
  'preview_token',
  'manage_token',
] as const;
/** The columns the workspace's survey list adds. */
export const WORKSPACE_COLUMNS = [...LIST_COLUMNS, 'owner_id', 'folder_id', 'page_count'] as const;
export type ListColumn = (typeof WORKSPACE_COLUMNS)[number];
export type SurveyListRow = Pick<SurveyRow, (typeof LIST_COLUMNS)[number]>;

type ListStatement = (...args: unknown[]) => Promise<unknown[][]>;

/** What one list reads before its page: the owner's survey count and change stamp (survey_totals,
 * migration 0041) and whether they are in any workgroup. */
interface ListHead {
  owned: number;
  stamp: number;
  member: boolean;
}

async function listHead(deps: Deps, userId: string): Promise<ListHead> {
  const { db } = deps;
  const read = deps.caches.surveyListHead.get(() =>
    prepareQuery(
      db,
      1,
      (user) =>
        db.kysely.selectNoFrom((eb) => [
          eb.selectFrom('survey_totals').select('surveys').where('owner_id', '=', user).as('surveys'),
          eb.selectFrom('survey_totals').select('stamp').where('owner_id', '=', user).as('stamp'),
          // Any share may reach the user: as a workgroup member, or shared with them in person.
          eb
            .or([
              eb.exists(eb.selectFrom('workgroup_members').select('user_id').where('user_id', '=', user)),
              eb.exists(eb.selectFrom('person_shares').select('user_id').where('user_id', '=', user)),
            ])
            .as('member'),
        ]),
      { arrays: true },
    ),
  );
  const [[owned, stamp, member]] = await read(userId);
  return { owned: Number(owned ?? 0), stamp: Number(stamp ?? 0), member: Boolean(Number(member)) };
}

/**
 * The surveys a user owns or may read, filtered, sorted and paged: [total, rows]. Reads only
 * `columns` (and the id) of each survey: a list shows few of them, and each column read costs.
 */
export async function listSurveys<C extends ListColumn = (typeof LIST_COLUMNS)[number]>(
  deps: Deps,
  userId: string,
  q: ListQuery,
  columns: readonly C[] = LIST_COLUMNS as readonly ListColumn[] as readonly C[],
): Promise<[number, Array<Pick<SurveyRow, C | 'id'>>]> {
  const { total, columns: names, rows } = await listSurveyRows(deps, userId, q, columns);
  return [
    total,
    rows.map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]]))) as Array<
      Pick<SurveyRow, C | 'id'>
    >,
  ];
}

export interface SurveyListRows {
  total: number;
  columns: ListColumn[];
  rows: unknown[][];
}

/** The longest answer surveyListAnswer remembers (a page of 50 with every include is ~15 KB). */
const MAX_REMEMBERED = 32 * 1024;

/**
 * The API's answer to a survey list, as `render` writes it from listSurveyRows' page, remembered per
 * user and `key` (what else the answer depends on: the host and the request's URL) under the
 * owner's change stamp (survey_totals.stamp, moved by triggers in every transaction that creates,
 * deletes or changes a survey in a way the list shows, in any process). A remembered answer is
 * served only while the stamp read for this request, after it arrived and before the page would be
 * read, is still the one it was built at: a write anywhere before that read moves it.
 *
 * Only lists of the user's own surveys are remembered: not those with workgroup shares (other
 * owners' changes), nor those that show or sort by the response count (every response moves it and
 * the stamp ignores it on purpose), nor a `key` of null (the caller adds data from elsewhere).
 */
export async function surveyListAnswer<Text extends string>(
  deps: Deps,
  userId: string,
  q: ListQuery,
  columns: readonly ListColumn[],
  key: string | null,
  render: (list: SurveyListRows) => Promise<Text>,
): Promise<Text> {
  const head = await listHead(deps, userId);
  const remember =
    key !== null &&
    !sharesIn(q, head) &&
    !q.filters.includes('shared_by') &&
    q.sortBy !== 'num_responses' &&
    !columns.includes('response_count');
  const answers = deps.caches.surveyAnswers;
  const full = `${userId} ${key}`;
  if (remember) {
    const known = answers.get(full);
    // The text `render` made for this very key (the caller's answer type), kept as a string.
    if (known?.stamp === head.stamp) return known.text as Text;
  }
  const text = await render(await listRows(deps, userId, q, columns, head));
  if (remember && text.length <= MAX_REMEMBERED) answers.set(full, { stamp: head.stamp, text });
  return text;
}

/** Whether the list includes surveys shared with the user through their workgroups. */
function sharesIn(q: ListQuery, head: ListHead): boolean {
  return (q.filters.length === 0 || q.filters.includes('shared_with')) && head.member;
}

/**
 * listSurveys' page with each row as an array of `columns`' values (the id first): the API's list
 * builds its answer from these directly.
 *
 * One statement per page, the shares folded in as subqueries, prepared once per shape (columns,
 * sort, which filters are present) and then only bound: building and compiling a Kysely query
 * cost more than running it. A user in no workgroup (the common case, read with the owner's count
 * in one prepared statement) gets the shape without the shared-surveys term, which the
 * (owner_id, date_modified) index serves in order, however many surveys the account has.
 *
 * The total: an unfiltered list's (no title, dates or folder) is the owner's survey count
 * (survey_totals, one row) plus, with shares, a count of the shared ones; a filtered list's is its
 * page's rows when the page is the last one, else a count of the matching surveys.
 */
export async function listSurveyRows(
  deps: Deps,
  userId: string,
  q: ListQuery,
  columns: readonly ListColumn[],
): Promise<SurveyListRows> {
  return listRows(deps, userId, q, columns, await listHead(deps, userId));
}

async function listRows(
  deps: Deps,
  userId: string,
  q: ListQuery,
  columns: readonly ListColumn[],
  head: ListHead,
): Promise<SurveyListRows> {
  const withShared = sharesIn(q, head);
  const select = [...new Set<ListColumn>(['id', ...columns])];
  const folder = q.folderId === undefined ? 'any' : q.folderId === '0' ? 'none' : 'one';
  const shape = JSON.stringify([
    select,
    q.sortBy,
    q.sortOrder,
    [...q.filters].sort(),
    withShared,
    q.title ? titleSearchMode(q.title) : null,
    Boolean(q.startModified),
    Boolean(q.endModified),
    folder,
  ]);
  const unfiltered =
    !q.title &&
    !q.startModified &&
    !q.endModified &&
    folder === 'any' &&
    q.filters.every((f) => f === 'owned' || f === 'shared_with');
  let statements = deps.caches.surveyLists.get(shape);
  if (!statements) {
    statements = listStatementsFor(deps, q, select, withShared, folder, unfiltered);
    deps.caches.surveyLists.set(shape, statements);
  }
  const pattern = q.title ? `%${q.title.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const args = [userId, pattern, q.startModified ?? null, q.endModified ?? null, q.folderId ?? null];
  if (unfiltered) {
    const owned = q.filters.length === 0 || q.filters.includes('owned') ? head.owned : 0;
    const [page, shared] = await Promise.all([
      statements.page(...args, q.limit, q.offset),
      withShared ? statements.count(...args) : [[0]],
    ]);
    return { total: owned + Number(shared[0][0]), columns: select, rows: page };
  }
  // One row more than the page: when the page is the last one its rows give the total, and the
  // count query is needed only for lists longer than the page.
  const page = await statements.page(...args, q.limit + 1, q.offset);
  if (page.length <= q.limit && (page.length > 0 || q.offset === 0))
    return { total: q.offset + page.length, columns: select, rows: page };
  const [[total]] = await statements.count(...args);
  return { total: Number(total), columns: select, rows: page.slice(0, q.limit) };
}

/** The page and count statements of one shape of listSurveys; arguments: userId, title pattern,
 * start and end of date_modified, folder id (each referenced only by the shapes that use it),
 * then the page's limit and offset. An unfiltered shape's count counts only the shared surveys (the
 * owned ones are survey_totals' count). */
function listStatementsFor(
  deps: Deps,
  q: ListQuery,
  select: ListColumn[],
  withShared: boolean,
  folder: 'any' | 'none' | 'one',
  unfiltered: boolean,
): { page: ListStatement; count: ListStatement } {
  const { kysely } = deps.db;
  const filtered = (userId: string, pattern: string, start: string, end: string, folderId: string) => {
    const owner = ownerColumn(deps.db, q.title ? titleSearchMode(q.title) : null);
    let query = kysely.selectFrom('surveys').where((eb) => {
      const parts = [];
      const all = q.filters.length === 0;
      if (all || q.filters.includes('owned')) parts.push(eb(owner, '=', userId));
      if (withShared)
        parts.push(eb.and([eb('id', 'in', sharedWithQuery(kysely, userId)), eb(owner, '!=', userId)]));
      if (q.filters.includes('shared_by'))
        parts.push(eb.and([eb(owner, '=', userId), eb('id', 'in', sharedAtAllQuery(kysely))]));
      return parts.length > 0 ? eb.or(parts) : sql<SqlBool>`1 = 0`;
    });
    if (q.title) query = query.where(titleMatches(deps.db, titleSearchMode(q.title), pattern));
    if (q.startModified) query = query.where('date_modified', '>=', start);
    if (q.endModified) query = query.where('date_modified', '<=', end);
    if (folder === 'none') query = query.where('folder_id', 'is', null);
    if (folder === 'one') query = query.where('folder_id', '=', folderId);
    return query;
  };
  const column =
    q.sortBy === 'title' ? 'title' : q.sortBy === 'num_responses' ? 'response_count' : 'date_modified';
  const order =
    q.sortOrder === 'ASC' ? 'asc' : q.sortOrder === 'DESC' ? 'desc' : column === 'title' ? 'asc' : 'desc';
  const page = prepareQuery(
    deps.db,
    7,
    (userId, pattern, start, end, folderId, limit, offset) =>
      filtered(userId, pattern, start, end, folderId)
        .select(select)
        .orderBy(column === 'title' ? sql`lower(title)` : column, order)
        .orderBy('id', order)
        .limit(sql<number>`${limit}`)
        .offset(sql<number>`${offset}`),
    { arrays: true },
  );
  const count = prepareQuery(
    deps.db,
    5,
    (userId, pattern, start, end, folderId) =>
      (unfiltered
        ? kysely
            .selectFrom('surveys')
            .where((eb) =>
              eb.and([eb('id', 'in', sharedWithQuery(kysely, userId)), eb('owner_id', '!=', userId)]),
            )
        : filtered(userId, pattern, start, end, folderId)
      ).select((eb) => eb.fn.countAll<number>().as('total')),
    { arrays: true },
  );
  return { page: page as ListStatement, count: count as ListStatement };
}

export interface DesignPage {
  id: string;
  position: number;
  title: string;
  description: string;
  logic: Logic | null;
  sorting: PageSorting | null;
}

export interface DesignQuestion {
  id: string;
  page_id: string;
  position: number;
  family: string;
  subtype: string;
  doc: StoredQuestion;
}

/** A question row with its design still as the stored JSON text. */
export interface RawQuestion extends Omit<DesignQuestion, 'doc'> {
  doc: string;
}

/**
 * A survey's pages and questions in two queries, the designs left as stored JSON text
 * (GET /details splices them into its answer without parsing and re-serialising 1000 of them).
 */
export async function loadDesignRaw(
  deps: Deps,
  surveyId: string,
): Promise<{ pages: DesignPage[]; questions: Map<string, RawQuestion[]> }> {
  const k = deps.db.kysely;
  const [pageRows, rows] = await Promise.all([
    k
      .selectFrom('survey_pages')
      .select(['id', 'position', 'title', 'description', 'logic', 'sorting'])
      .where('survey_id', '=', surveyId)
      .orderBy('position')
      .execute(),
    k
      .selectFrom('survey_questions')
      .select(['id', 'page_id', 'position', 'family', 'subtype', 'doc'])
      .where('survey_id', '=', surveyId)
      .orderBy('page_id')
      .orderBy('position')
      .execute(),
  ]);
  const questions = new Map<string, RawQuestion[]>();
  for (const r of rows) {
    let list = questions.get(r.page_id);
    if (!list) {
      list = [];
      questions.set(r.page_id, list);
    }
    list.push(r);
  }
  return {
    pages: pageRows.map((p) => ({ ...p, logic: parseLogic(p.logic), sorting: parseSorting(p.sorting) })),
    questions,
  };
}

/** A survey's pages and their questions, designs parsed. */
export async function loadDesign(
  deps: Deps,
  surveyId: string,
): Promise<{ pages: DesignPage[]; questions: Map<string, DesignQuestion[]> }> {
  const { pages, questions: raw } = await loadDesignRaw(deps, surveyId);
  const questions = new Map<string, DesignQuestion[]>();
  for (const [pageId, list] of raw)
    questions.set(
      pageId,
      list.map((q) => ({ ...q, doc: JSON.parse(q.doc) as StoredQuestion })),
    );
  return { pages, questions };
}

export type { QuestionInput };
