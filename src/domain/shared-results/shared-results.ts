// Shared results: a survey's owner publishes a read-only results page at
// /results/<token>, seen without signing in. Not to be confused with domain/sharing (workgroup
// shares of a survey with other accounts).
//
// The rules, all here:
// - One link per survey (`shared_results`, primary key survey_id; written by one upsert under the
//   survey's row lock). Only the survey's owner changes it (403/1016 for a team member), and only on
//   a plan that may share results (platform/plans.ts `mayShareResults`: paid plans; 403/1015 on
//   basic). Turning it off is always allowed.
// - The token is never stored: it is an HMAC (server key) of a random 144-bit nonce, 256 bits of
//   base64url; the row keeps its SHA-256 to find it. Turning off clears both, so the link dies at
//   once (each view reads the row) and turning on again gives a new link; "new link" re-mints it.
// - A view's figures may be served from a page rendered earlier under the same stamp
//   (`OpenShare.stamp`, deps.caches.sharedResults); the throttle, the link, its expiry, the owner's
//   plan and the password are checked on every request all the same.
// - Optional password (scrypt like collector passwords; guesses counted per link and client
//   address, and per link across addresses, by limits/attempts.ts; a visitor's unlock is signed
//   with its time and holds for UNLOCK_MS), optional expiry (a day in the owner's time zone, the account
//   setting: the link works through that day there; kept as the instant it ends, so a later change
//   of zone moves only how the day is shown),
//   the questions shown (text answers are off unless chosen), and a fixed filter stored as the
//   results filter's URL query and parsed against the current design on every view (an edited
//   design drops what it no longer knows).
// - A view answers nothing (a plain 404) when the link is unknown, off or expired, when the survey is
//   gone (cascade), or when its owner is not active or no longer on a plan that may share results.
// - Views and password tries are throttled per client address (RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS,
//   fixed one-minute windows counted by one upsert, as the respondent page's submissions are).
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import { addressKey } from '../../platform/addresses.js';
import { parseApiDate } from '../../platform/dates.js';
import { ApiError } from '../../platform/errors.js';
import { isPlan, mayShareResults, type Plan } from '../../platform/plans.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { localTime, utcOfLocal } from '../../platform/time-zones.js';
import { preferencesOf } from '../accounts/preferences.js';
import {
  type FilterQuery,
  filterQuery,
  isTextQuestion,
  parseFilter,
  type ResultFilter,
} from '../analysis/filters.js';
import { checkGuardedPassword, type PasswordCheck, type Policy } from '../limits/attempts.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { bump } from '../responses/submission-limit.js';
import type { SurveyRow } from '../surveys/access.js';

/** Password guesses per link and client address: slower after 5, locked (15 minutes) at 20. */
export const RESULTS_PASSWORD_POLICY: Policy = { slowAfter: 5, lockAt: 20 };
const MAX_PASSWORD = 100;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Questions whose results are words people wrote (the results filter's text questions): off
 * unless the owner chooses them. */
export function isWrittenAnswers(q: IndexedQuestion): boolean {
  return isTextQuestion(q);
}

/** The questions a shared page can show (every one but presentation blocks), in design order. */
export function shareableQuestions(index: DesignIndex): IndexedQuestion[] {
  return index.pages.flatMap((p) => p.questions).filter((q) => q.family !== 'presentation');
}

/** The owner's view of a survey's shared results. */
export interface SharedResults {
  on: boolean;
  /** the link's token while on */
  token: string | null;
  hasPassword: boolean;
  /** the owner's time zone, which the expiry day is in */
  zone: string;
  /** the last day the link works (YYYY-MM-DD in `zone`), or null */
  expiresOn: string | null;
  /** the instant the link stops working (ISO), or null */
  expiresAt: string | null;
  expired: boolean;
  questionIds: string[];
  /** the fixed filter's URL query ('' for none) */
  filterQuery: string;
}

const tokenOf = (deps: Deps, surveyId: string, nonce: string) =>
  deps.secrets.sign('shared-results', `${surveyId}:${nonce}`);

/** The survey's shared results as its owner sees them: off, with every non-text question, until set. */
export async function sharedResultsOf(
  deps: Deps,
  survey: SurveyRow,
  index: DesignIndex,
): Promise<SharedResults> {
  const row = await deps.db.kysely
    .selectFrom('shared_results')
    .selectAll()
    .where('survey_id', '=', survey.id)
    .executeTakeFirst();
  const known = new Set(shareableQuestions(index).map((q) => q.id));
  const { time_zone: zone } = await preferencesOf(deps, survey.owner_id);
  if (!row)
    return {
      on: false,
      token: null,
      hasPassword: false,
      zone,
      expiresOn: null,
      expiresAt: null,
      expired: false,
      questionIds: shareableQuestions(index)
        .filter((q) => !isWrittenAnswers(q))
        .map((q) => q.id),
      filterQuery: '',
    };
  const on = row.nonce !== null && row.token_hash !== null;
  return {
    on,
    token: on ? tokenOf(deps, survey.id, row.nonce!) : null,
    hasPassword: row.password_hash !== null,
    zone,
    // The day holding the link's last millisecond, in the owner's zone.
    expiresOn: row.expires_at
      ? localTime(new Date(Date.parse(row.expires_at) - 1).toISOString(), zone).slice(0, 10)
      : null,
    expiresAt: row.expires_at,
    expired: row.expires_at !== null && row.expires_at <= deps.clock.now().toISOString(),
    questionIds: (JSON.parse(row.question_ids) as string[]).filter((id) => known.has(id)),
    filterQuery: row.filter_query,
  };
}

/** What the owner's form asks for. */
export interface SharedResultsInput {
  on: boolean;
  /** a new password ('' or undefined: keep the one there is) */
  password?: string;
  removePassword?: boolean;
  /** YYYY-MM-DD, the last day the link works in the owner's time zone, or '' for no expiry */
  expiresOn: string;
  questionIds: string[];
  /** a results filter query to fix into the page, '' to fix none, undefined to keep the one there is */
  filter?: FilterQuery | '';
  /** mint a new link (the old one dies) */
  newLink?: boolean;
}

/**
 * Sets a survey's shared results. Only its owner may (403/1016); turning on or changing a page that
 * is on needs a plan that may share results (403/1015); bad input is 400/1002 naming the field.
 */
export async function saveSharedResults(
  deps: Deps,
  actor: { user: { id: string; account_type: string } },
  survey: SurveyRow,
  index: DesignIndex,
  input: SharedResultsInput,
): Promise<void> {
  if (actor.user.id !== survey.owner_id)
    throw new ApiError(1016, "Only the survey's owner can share its results.");
  const plan = actor.user.account_type;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const k = deps.db.kysely;
  if (!input.on) {
    await k
      .updateTable('shared_results')
      .set({ token_hash: null, nonce: null, updated_at: nowIso })
      .where('survey_id', '=', survey.id)
      .execute();
    return;
  }
  if (!isPlan(plan) || !mayShareResults(plan))
    throw new ApiError(1015, 'Sharing results by link needs a paid plan.');
  const known = new Set(shareableQuestions(index).map((q) => q.id));
  const questionIds = [...new Set(input.questionIds)].filter((id) => known.has(id));
  if (questionIds.length === 0) throw new ApiError(1002, 'Choose at least one question to show.');
  let expiresAt: string | null = null;
  if (input.expiresOn !== '') {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(input.expiresOn) ? parseApiDate(input.expiresOn) : null;
    if (!day) throw new ApiError(1002, 'The expiry date must be a date (YYYY-MM-DD).');
    // The link dies when the next day starts in the owner's zone.
    const next = new Date(Date.parse(day) + DAY).toISOString().slice(0, 10);
    const { time_zone: zone } = await preferencesOf(deps, survey.owner_id);
    expiresAt = utcOfLocal(`${next}T00:00`, zone);
    if (!expiresAt) throw new ApiError(1002, 'The expiry date must be a date (YYYY-MM-DD).');
    if (expiresAt <= nowIso) throw new ApiError(1002, 'The expiry date has passed: choose a later day.');
  }
  const password = input.password ?? '';
  if (password.length > MAX_PASSWORD)
    throw new ApiError(1002, `The password must be at most ${MAX_PASSWORD} characters.`);
  const passwordHash = password ? await deps.passwords.hash(password) : undefined;
  const filter =
    input.filter === undefined ? undefined : input.filter === '' ? '' : fixedFilterQuery(input.filter, index);
  await k.transaction().execute(async (trx) => {
    // One writer per survey at a time, so "keep the link" and "mint one" never cross.
    await lockRow(deps.db, trx, 'surveys', survey.id);
    const row = await trx
      .selectFrom('shared_results')
      .select(['nonce', 'password_hash', 'filter_query'])
      .where('survey_id', '=', survey.id)
      .executeTakeFirst();
    const nonce = row?.nonce && !input.newLink ? row.nonce : randomToken(18);
    const values = {
      token_hash: sha256(tokenOf(deps, survey.id, nonce)),
      nonce,
      password_hash: input.removePassword ? null : (passwordHash ?? row?.password_hash ?? null),
      expires_at: expiresAt,
      question_ids: JSON.stringify(questionIds),
      filter_query: filter ?? row?.filter_query ?? '',
      updated_at: nowIso,
    };
    await trx
      .insertInto('shared_results')
      .values({ survey_id: survey.id, owner_id: survey.owner_id, created_at: nowIso, ...values })
      .onConflict((oc) => oc.column('survey_id').doUpdateSet(values))
      .execute();
  });
}

/** A results filter as the query a shared page keeps (only what the design knows). */
function fixedFilterQuery(query: FilterQuery, index: DesignIndex): string {
  return filterQuery(parseFilter(query, index)).toString();
}

/** URL query text as a filter query (repeated keys gathered into arrays). */
export function queryOfText(text: string): FilterQuery {
  const query: FilterQuery = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const was = query[key];
    query[key] = was === undefined ? value : [...(Array.isArray(was) ? was : [was]), value];
  }
  return query;
}

/** The fixed filter of a shared page, parsed against the design as it is now. */
export function fixedFilter(filterQueryText: string, index: DesignIndex): ResultFilter {
  return parseFilter(queryOfText(filterQueryText), index);
}

/** A live shared results page, as a visitor may see it. */
export interface OpenShare {
  surveyId: string;
  survey: SurveyRow;
  ownerPlan: Plan;
  /** what the unlock cookie proves (changes with a new link or a new password) */
  passwordHash: string | null;
  nonce: string;
  questionIds: string[];
  filterQuery: string;
  /** what the page's figures depend on: the design's version and the title, the survey's response
   * stamp (count, responses ever made, updates: migration 0049), the owner's plan, the
   * questions and the fixed filter; a page rendered under the same stamp shows the same */
  stamp: string;
}

/** The page a token opens, or null: unknown, off, expired, or its survey's owner may no longer share. */
export async function openSharedResults(deps: Deps, token: string): Promise<OpenShare | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await deps.db.kysely
    .selectFrom('shared_results as r')
    .innerJoin('users as u', 'u.id', 'r.owner_id')
    .select([
      'r.survey_id',
      'r.nonce',
      'r.password_hash',
      'r.expires_at',
      'r.question_ids',
      'r.filter_query',
      'u.account_type',
      'u.status',
    ])
    .where('r.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row?.nonce) return null;
  if (row.expires_at !== null && row.expires_at <= deps.clock.now().toISOString()) return null;
  if (row.status !== 'active' || !isPlan(row.account_type) || !mayShareResults(row.account_type)) return null;
  const found = await deps.db.kysely
    .selectFrom('surveys as s')
    .leftJoin('survey_response_seq as q', 'q.survey_id', 's.id')
    .selectAll('s')
    .select(['q.next_ordinal', 'q.edits'])
    .where('s.id', '=', row.survey_id)
    .executeTakeFirst();
  if (!found) return null;
  const { next_ordinal, edits, ...survey } = found;
  return {
    surveyId: row.survey_id,
    survey,
    ownerPlan: row.account_type,
    passwordHash: row.password_hash,
    nonce: row.nonce,
    questionIds: JSON.parse(row.question_ids) as string[],
    filterQuery: row.filter_query,
    // Read with the link, in this request: a response acknowledged before it arrived has moved it.
    stamp: JSON.stringify([
      survey.design_version,
      survey.title,
      survey.response_count,
      next_ordinal,
      edits,
      row.account_type,
      row.question_ids,
      row.filter_query,
    ]),
  };
}

/** How long a visitor's unlock (the page's password, given once) holds. */
export const UNLOCK_MS = DAY;

const unlockSubject = (share: OpenShare) => `${share.surveyId}:${share.nonce}:${share.passwordHash}`;

/** The cookie value that proves a visitor gave the page's password now ('' when it has none). It
 * holds for UNLOCK_MS, and dies with a new link or a new password. */
export function unlockProof(deps: Deps, share: OpenShare): string {
  return share.passwordHash
    ? deps.secrets.signAt('shared-results-unlock', unlockSubject(share), deps.clock.now().getTime())
    : '';
}

/** Whether a visitor may see the page: it has no password, or `proof` is a live unlock of it. */
export function isUnlocked(deps: Deps, share: OpenShare, proof: string | undefined): boolean {
  if (!share.passwordHash) return true;
  return deps.secrets.verifyAt(
    'shared-results-unlock',
    unlockSubject(share),
    proof,
    deps.clock.now().getTime(),
    UNLOCK_MS,
  );
}

/** Checks a visitor's password, each guess counted first (per link and address, per link). */
export async function checkResultsPassword(
  deps: Deps,
  share: OpenShare,
  password: string,
  ip: string,
): Promise<PasswordCheck> {
  if (!share.passwordHash) return { ok: true };
  return checkGuardedPassword(
    deps,
    `results:${share.surveyId}`,
    `results:${share.surveyId}:ip:${addressKey(ip)}`,
    RESULTS_PASSWORD_POLICY,
    password.slice(0, MAX_PASSWORD),
    share.passwordHash,
  );
}

/** Admits one shared-results request from `ip`, or says how many seconds to wait. */
export async function admitResultsView(
  deps: Deps,
  ip: string,
): Promise<{ retryAfterSeconds: number } | null> {
  const cap = deps.config.resultsViewsPerMinute;
  if (cap <= 0) return null;
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / MINUTE);
  if ((await bump(deps, `results:ip:${addressKey(ip)}`, window)) <= cap) return null;
  return { retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE - now) / 1000)) };
}
