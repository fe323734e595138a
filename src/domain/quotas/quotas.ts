// Quotas: per survey, at most `limit` completed responses whose answers meet every condition (a
// choice question answered with one of its choices); a respondent beyond it is not completed but
// `overquota`, and gets the quota's action. The rules live here: what a quota may say (validation),
// which quotas a response's answers meet (matching) and the exact count (countQuotas, one
// conditional UPDATE per quota in the transaction that completes the response).
//
// A condition naming a question or choice the design no longer has is kept as it is and can never
// be met, so its quota stops counting until the owner changes it: editing the design is never
// refused because of a quota, and a quota never quietly widens to more respondents.

import type { Transaction } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import type { QuotasTable } from '../../db/tables/quotas.js';
import { ApiError } from '../../platform/errors.js';
import { parseAs } from '../../platform/json.js';
import { isOneOf } from '../../platform/lists.js';
import { recordEvent } from '../core/events.js';
import type { SurveyRow } from '../surveys/access.js';
import { loadDesign } from '../surveys/surveys.js';

export const QUOTA_ACTIONS = ['end_survey', 'disqualify', 'redirect', 'close_collector'] as const;
export type QuotaActionType = (typeof QUOTA_ACTIONS)[number];

export const QuotaCondition = Type.Object({ question_id: Type.String(), choice_id: Type.String() });
export type QuotaCondition = Static<typeof QuotaCondition>;
const Conditions = Type.Array(QuotaCondition);

/** The end message when the owner wrote none. */
export const DEFAULT_QUOTA_MESSAGE =
  'Thank you for your time. This survey already has all the responses it needs from people like you.';
const MAX_CONDITIONS = 20;
const MAX_MESSAGE = 2000;

export interface QuotaAction {
  type: QuotaActionType;
  /** shown to the respondent (end_survey, close_collector) */
  message: string;
  /** where the respondent goes (redirect) */
  url: string;
}

export interface Quota {
  id: string;
  surveyId: string;
  name: string;
  limit: number;
  count: number;
  conditions: QuotaCondition[];
  action: QuotaAction;
  dateCreated: string;
  dateModified: string;
}

export interface QuotaInput {
  name?: string;
  limit?: number;
  conditions?: QuotaCondition[];
  action?: { type: QuotaActionType; message?: string; url?: string };
}

type QuotaRow = QuotasTable;

function quotaOf(row: QuotaRow): Quota {
  const type = isOneOf(QUOTA_ACTIONS, row.action) ? row.action : 'end_survey';
  return {
    id: row.id,
    surveyId: row.survey_id,
    name: row.name,
    limit: Number(row.response_limit),
    count: Number(row.response_count),
    conditions: parseAs(Conditions, row.conditions),
    action: { type, message: row.message, url: row.redirect_url },
    dateCreated: row.date_created,
    dateModified: row.date_modified,
  };
}

/** The choice questions of a survey (question id → its choice ids), what conditions may name. */
async function choiceQuestions(deps: Deps, surveyId: string): Promise<Map<string, Set<string>>> {
  const { questions } = await loadDesign(deps, surveyId);
  const out = new Map<string, Set<string>>();
  for (const list of questions.values())
    for (const q of list) {
      const a = q.doc.answers;
      // Matrix questions have rows: their choices are cells, not what a condition names.
      if (a?.choices?.length && !a.rows?.length) out.set(q.id, new Set(a.choices.map((c) => c.id)));
    }
  return out;
}

const bad = (field: string, why: string) => new ApiError(1002, `'${field}': ${why}`);

/** http(s) URLs only: a quota must not send respondents to a script or a local file. */
function httpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The quota's values after `input` (all of them for a new one or a PUT), checked: 400/1002 naming
 * the field otherwise. */
async function checked(
  deps: Deps,
  survey: SurveyRow,
  input: QuotaInput,
  current: Quota | undefined,
): Promise<Omit<Quota, 'id' | 'surveyId' | 'count' | 'dateCreated' | 'dateModified'>> {
  const name = (input.name ?? current?.name ?? '').trim();
  if (!name) throw bad('name', 'a quota needs a name.');
  if (name.length > 200) throw bad('name', 'at most 200 characters.');
  const limit = input.limit ?? current?.limit;
  if (limit === undefined || !Number.isInteger(limit) || limit < 1 || limit > 1_000_000_000)
    throw bad('limit', 'a whole number of at least 1.');
  const conditions = input.conditions ?? current?.conditions ?? [];
  if (conditions.length === 0) throw bad('conditions', 'a quota needs at least one condition.');
  if (conditions.length > MAX_CONDITIONS) throw bad('conditions', `at most ${MAX_CONDITIONS} conditions.`);
  const design = await choiceQuestions(deps, survey.id);
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const choices = design.get(c.question_id);
    if (!choices)
      throw bad(
        `conditions[${i}].question_id`,
        `question ${c.question_id} is not a choice question of this survey.`,
      );
    if (!choices.has(c.choice_id))
      throw bad(`conditions[${i}].choice_id`, `${c.choice_id} is not a choice of question ${c.question_id}.`);
    const key = `${c.question_id}|${c.choice_id}`;
    if (seen.has(key)) throw bad(`conditions[${i}]`, 'the same condition is given twice.');
    seen.add(key);
  });
  const given = input.action;
  const type = given?.type ?? current?.action.type ?? 'end_survey';
  if (!isOneOf(QUOTA_ACTIONS, type)) throw bad('action.type', `one of ${QUOTA_ACTIONS.join(', ')}.`);
  const message = (given ? (given.message ?? '') : (current?.action.message ?? '')).trim();
  if (message.length > MAX_MESSAGE) throw bad('action.message', `at most ${MAX_MESSAGE} characters.`);
  const url = (given ? (given.url ?? '') : (current?.action.url ?? '')).trim();
  if (type === 'redirect' && !httpUrl(url))
    throw bad('action.url', 'a redirect needs an http:// or https:// address.');
  if (url && type !== 'redirect') throw bad('action.url', 'only a redirect takes a URL.');
  if (url.length > 2000) throw bad('action.url', 'at most 2000 characters.');
  return { name, limit, conditions, action: { type, message, url } };
}

/** The survey's quotas in the order they were made. */
export async function listQuotas(deps: Deps, survey: Pick<SurveyRow, 'id'>): Promise<Quota[]> {
  const rows = await deps.db.kysely
    .selectFrom('quotas')
    .selectAll()
    .where('survey_id', '=', survey.id)
    .orderBy('date_created')
    .orderBy('id')
    .execute();
  return rows.map(quotaOf);
}

/** One quota of the survey, or 404/1020. */
export async function getQuota(deps: Deps, survey: Pick<SurveyRow, 'id'>, quotaId: string): Promise<Quota> {
  const row = await deps.db.kysely
    .selectFrom('quotas')
    .selectAll()
    .where('id', '=', quotaId)
    .where('survey_id', '=', survey.id)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Quota not found.');
  return quotaOf(row);
}

export async function createQuota(deps: Deps, survey: SurveyRow, input: QuotaInput): Promise<Quota> {
  const q = await checked(deps, survey, input, undefined);
  const [id] = await deps.ids.take(1);
  const now = deps.clock.now().toISOString();
  const row: QuotaRow = {
    id,
    survey_id: survey.id,
    owner_id: survey.owner_id,
    name: q.name,
    response_limit: q.limit,
    response_count: 0,
    conditions: JSON.stringify(q.conditions),
    action: q.action.type,
    message: q.action.message,
    redirect_url: q.action.url,
    date_created: now,
    date_modified: now,
  };
  await deps.db.kysely.insertInto('quotas').values(row).execute();
  return quotaOf(row);
}

/** Changes a quota (PATCH: the given fields; PUT: `input` is the whole quota). Its count stays:
 * a lower limit than the count simply makes it full. */
export async function updateQuota(
  deps: Deps,
  survey: SurveyRow,
  quotaId: string,
  input: QuotaInput,
  mode: 'patch' | 'put',
): Promise<Quota> {
  const current = await getQuota(deps, survey, quotaId);
  const q = await checked(deps, survey, input, mode === 'put' ? undefined : current);
  const now = deps.clock.now().toISOString();
  // Only the definition changes: the counter is the completing transactions' alone.
  const res = await deps.db.kysely
    .updateTable('quotas')
    .set({
      name: q.name,
      response_limit: q.limit,
      conditions: JSON.stringify(q.conditions),
      action: q.action.type,
      message: q.action.message,
      redirect_url: q.action.url,
      date_modified: now,
    })
    .where('id', '=', quotaId)
    .where('survey_id', '=', survey.id)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new ApiError(1020, 'Quota not found.');
  return getQuota(deps, survey, quotaId);
}

/** Deletes a quota; answers it as it was. */
export async function deleteQuota(deps: Deps, survey: SurveyRow, quotaId: string): Promise<Quota> {
  const current = await getQuota(deps, survey, quotaId);
  await deps.db.kysely
    .deleteFrom('quotas')
    .where('id', '=', quotaId)
    .where('survey_id', '=', survey.id)
    .execute();
  return current;
}

// ---- counting -----------------------------------------------------------------------------------

/** A response's answers as matching reads them (the responses area's stored pages). */
export interface AnsweredPages {
  pages: ReadonlyArray<{
    questions: ReadonlyArray<{ id: string; answers: ReadonlyArray<{ choice_id?: string }> }>;
  }>;
}

/** Whether the answers meet every condition of the quota. */
export function meets(quota: Pick<Quota, 'conditions'>, answers: AnsweredPages): boolean {
  if (quota.conditions.length === 0) return false;
  const chosen = new Set<string>();
  for (const p of answers.pages)
    for (const q of p.questions)
      for (const a of q.answers) if (a.choice_id) chosen.add(`${q.id}|${a.choice_id}`);
  return quota.conditions.every((c) => chosen.has(`${c.question_id}|${c.choice_id}`));
}

/** A quota the response meets was full: the completing transaction rolls back. */
export class QuotaFull extends Error {
  constructor(readonly quota: Quota) {
    super(`quota ${quota.id} is full`);
  }
}

/**
 * Counts a completing response against every quota of `quotas` its answers meet, in `trx` (the
 * transaction writing the response as completed): one conditional UPDATE each, so concurrent
 * completions queue on the quota's row and never pass its limit. Throws QuotaFull (rolling the
 * transaction back) at the first full one; the response is then written `overquota` instead and
 * counts against none. Rows are taken in id order so two completions never wait on each other.
 */
export async function countQuotas(
  trx: Transaction<Database>,
  quotas: Quota[],
  answers: AnsweredPages,
): Promise<void> {
  const met = quotas.filter((q) => meets(q, answers)).sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const q of met) {
    const res = await trx
      .updateTable('quotas')
      .set((eb) => ({ response_count: eb('response_count', '+', 1) }))
      .where('id', '=', q.id)
      .where((eb) => eb('response_count', '<', eb.ref('response_limit')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new QuotaFull(q);
  }
}

/** Closes the collector an overquota response came through (the close_collector action), with the
 * collector_updated event a close through the API writes. */
export async function closeCollectorForQuota(deps: Deps, collectorId: string): Promise<void> {
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable('collectors')
      .set({ status: 'closed', date_modified: deps.clock.now().toISOString() })
      .where('id', '=', collectorId)
      .where('status', '<>', 'closed')
      .returning(['owner_id', 'survey_id'])
      .executeTakeFirst();
    if (!closed) return;
    await recordEvent(deps, trx, eventId, {
      type: 'collector_updated',
      ownerId: closed.owner_id,
      actorId: null,
      resourceType: 'collector',
      resourceId: collectorId,
      ip: null,
      data: { survey_id: closed.survey_id, fields: ['status'] },
    });
  });
}
