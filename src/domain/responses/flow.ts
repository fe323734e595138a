// One respondent flow, whichever way a response arrives. The respondent pages (web/respond) walk a
// session page by page: where to start, which page to show, answer a page (which moves on by the
// survey's skip logic, finishes or disqualifies), back along the path taken, and exit (save the
// page as a partial). The API's response endpoints send whole responses: their answers are replayed
// through the same logic for page_path, logic_path and the final status.
//
// Answer rules (checks.ts: required, formats) and files (domain/uploads) belong to the respondent
// pages only: a page is answered by a person who can be asked to put an answer right. The API
// stores what an integration sends, as the original does (reference §10.7 lists no required-answer
// check; integrations post partial and imported responses), so submitResponse and reviseResponse
// check the answers' shape (answers.ts) but not `required` or formats, and take no files.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import type { Message } from '../../platform/i18n/index.js';
import { type Collector, collectorById } from '../collectors/collectors.js';
import type { RecipientRow } from '../invitations/recipients.js';
import type { Quota } from '../quotas/quotas.js';
import type { SurveyRow } from '../surveys/access.js';
import type { PipeRef } from '../surveys/piping.js';
import { respondentOrder, sortsByCount } from '../surveys/randomise.js';
import { customVariableNames } from '../surveys/surveys.js';
import {
  discardFiles,
  fileProblem,
  type IncomingFile,
  type KeptUpload,
  keepFile,
  keepOnlyReferenced,
  removeUploads,
} from '../uploads/uploads.js';
import type { Answer, PageIn } from './answers.js';
import { answerProblem } from './checks.js';
import type { DesignIndex, IndexedQuestion } from './design-index.js';
import { completeUnderQuotas, type Within } from './quota-gate.js';
import { hiddenOn, type Known, knownAlong, knownFrom, recalled, withAnswers } from './recall.js';
import {
  createResponse,
  type ResponseActor,
  type ResponseInput,
  type ResponseRow,
  type ResponseStatus,
  responseByEditToken,
  responseVariables,
  statusOf,
  storedPages,
  updatedPages,
  updateResponse,
} from './responses.js';
import { type Ending, type LogicPath, routeAfter, type Walk, walk } from './route.js';

// ---- the API: whole responses ----------------------------------------------------------------

/**
 * The path of an API response, refusing answers on pages the logic skips and answers to questions
 * its display logic hides (400/1002 naming the page or question): a respondent could not have
 * given them. A path that ends in a disqualify rule makes a response that would be completed
 * disqualified; partial and overquota stay as sent.
 */
function replay(
  index: DesignIndex,
  pages: PageIn[] | ReturnType<typeof storedPages>,
  status: ResponseStatus,
  variables: Record<string, string>,
) {
  const stored = pages.map((p) => ({
    id: p.id,
    questions: (p.questions ?? []).map((q) => ({ id: q.id, answers: q.answers ?? [] })),
  }));
  const w: Walk = walk(index, stored, status === 'partial', variables);
  if (w.skipped.length > 0) {
    const i = pages.findIndex((p) => p.id === w.skipped[0]);
    throw new ApiError(
      1002,
      `'pages[${i}].id': page ${w.skipped[0]} is not on the respondent's path (${w.pagePath.join(' → ')}): the survey's skip logic skips it, so it cannot hold answers.`,
    );
  }
  stored.forEach((p, i) => {
    // What the respondent's page would know: the answers before it on the path.
    const hidden = hiddenOn(index, p.id, knownAlong(stored, w.pagePath, p.id, variables));
    const j = p.questions.findIndex((q) => hidden.has(q.id) && q.answers.length > 0);
    if (j >= 0)
      throw new ApiError(
        1002,
        `'pages[${i}].questions[${j}]': question ${p.questions[j].id} is hidden by its display logic for these answers, so it cannot hold answers.`,
      );
  });
  return {
    status: w.end === 'disqualified' && status === 'completed' ? ('disqualified' as const) : status,
    extras: {
      pagePath: w.pagePath,
      logicPath: w.logicPath,
      currentPageId: status === 'partial' ? (w.stoppedAt ?? w.pagePath.at(-1) ?? '0') : '0',
    },
  };
}

export async function submitResponse(
  deps: Deps,
  actor: ResponseActor,
  survey: SurveyRow,
  collector: Collector,
  index: DesignIndex,
  input: ResponseInput,
  created: string | undefined,
): Promise<ResponseRow> {
  const r = replay(
    index,
    input.pages ?? [],
    input.response_status ?? 'completed',
    input.custom_variables ?? {},
  );
  const write = (status: ResponseStatus, within?: Within) =>
    createResponse(deps, actor, survey, collector, index, { ...input, response_status: status }, created, {
      ...r.extras,
      within,
    });
  if (r.status !== 'completed') return write(r.status);
  return (await completeUnderQuotas(deps, { surveyId: survey.id, collectorId: collector.id }, write)).row;
}

export async function reviseResponse(
  deps: Deps,
  actor: ResponseActor,
  current: ResponseRow,
  index: DesignIndex,
  input: ResponseInput,
  created: string | undefined,
  mode: 'patch' | 'put',
): Promise<ResponseRow> {
  // A response counts against the survey's quotas once, when it first completes.
  const written = (
    status: ResponseStatus,
    write: (s: ResponseStatus, within?: Within) => Promise<ResponseRow>,
  ) =>
    status !== 'completed' || current.response_status === 'completed'
      ? write(status)
      : completeUnderQuotas(
          deps,
          { surveyId: current.survey_id, collectorId: current.collector_id },
          write,
        ).then((done) => done.row);
  // A PATCH that leaves the answers alone keeps the path they took (and the status it is given).
  if (mode === 'patch' && input.pages === undefined)
    return written(input.response_status ?? statusOf(current), (s, within) =>
      updateResponse(deps, actor, current, index, { ...input, response_status: s }, created, mode, {
        within,
      }),
    );
  const status = input.response_status ?? (mode === 'put' ? 'completed' : statusOf(current));
  const variables = input.custom_variables ?? responseVariables(current);
  const r = replay(index, updatedPages(index, current, input, mode), status, variables);
  const row = await written(r.status, (s, within) =>
    updateResponse(deps, actor, current, index, { ...input, response_status: s }, created, mode, {
      ...r.extras,
      within,
    }),
  );
  // A PUT, or a PATCH of a file-upload question, may leave an uploaded file unanswered.
  if (hasUploads(index)) await keepOnlyReferenced(deps, row.id, storedPages(row));
  return row;
}

const hasUploads = (index: DesignIndex) =>
  [...index.questions.values()].some((q) => q.displayType === 'file_upload');

// ---- the respondent pages: a session ---------------------------------------------------------

export interface Respondent {
  survey: SurveyRow;
  collector: Collector;
  index: DesignIndex;
  /** the survey link's query: custom value (c) and custom variables */
  link: URLSearchParams;
  /** the email invitation's recipient (email collectors) */
  recipient?: RecipientRow;
  /** sha256 of the session cookie */
  respondentKey: string;
  ip: string;
}

const pathOf = (r: ResponseRow | undefined): string[] => (r ? (JSON.parse(r.page_path) as string[]) : []);

export interface Place {
  /** the page to show */
  pageId: string;
  /** the page Back goes to: the one before this on the path taken, or null on the first */
  back: string | null;
  /** pages answered before this one on the path, and the most this path can still hold */
  progress: { done: number; total: number };
}

/**
 * The page to show: `asked` when it is on the path taken (or the current page), else where the
 * respondent left off, else the first page.
 */
export function placeOf(index: DesignIndex, response: ResponseRow | undefined, asked?: string): Place {
  const path = pathOf(response);
  const current =
    response?.response_status === 'partial' && index.pageById.has(response.current_page_id)
      ? response.current_page_id
      : undefined;
  const first = index.pages[0].id;
  const pageId =
    asked && (path.includes(asked) || asked === current) && index.pageById.has(asked)
      ? asked
      : (current ?? first);
  const k = path.indexOf(pageId);
  const before = k >= 0 ? path.slice(0, k) : path.filter((p) => index.pageById.has(p));
  const at = index.pages.indexOf(index.pageById.get(pageId)!);
  // Logic only jumps forward: at most every later page is still to come.
  return {
    pageId,
    back: before.at(-1) ?? null,
    progress: { done: before.length, total: before.length + index.pages.length - at },
  };
}

export type Outcome =
  | { kind: 'next'; pageId: string }
  | { kind: 'finished'; status: Ending; response: ResponseRow }
  /** completed beyond a full quota its answers meet: saved overquota, the quota's end is shown */
  | { kind: 'overquota'; quota: Quota; response: ResponseRow }
  /** the page's answers need putting right: a message per question id (nothing was saved) */
  | { kind: 'invalid'; errors: Map<string, Message> };

/** When a first page is posted, the time the respondent started (the page's own clock), if sane. */
function startTime(now: Date, started: string | undefined): string {
  const t = started === undefined ? Number.NaN : Date.parse(started);
  return Number.isFinite(t) && t <= now.getTime() && now.getTime() - t < 86_400_000
    ? new Date(t).toISOString()
    : now.toISOString();
}

/** The survey's declared custom variables, with the values the link gives. */
export function customVariables(r: Pick<Respondent, 'survey' | 'link'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of customVariableNames(r.survey)) {
    const v = r.link.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

/**
 * What the respondent has told before `pageId` (the answers of the pages before it on the path
 * taken), the link's custom variables and the invitation's contact: what display logic and piping
 * on that page see.
 */
export function knownBefore(
  r: Pick<Respondent, 'survey' | 'link' | 'recipient'>,
  response: ResponseRow | undefined,
  pageId: string,
): Known {
  const path = pathOf(response);
  const k = path.indexOf(pageId);
  const before = new Set(k >= 0 ? path.slice(0, k) : path);
  const pages = response ? storedPages(response).filter((p) => before.has(p.id)) : [];
  const variables = response ? responseVariables(response) : customVariables(r);
  const who = r.recipient ?? (response && { ...response, email: response.email_address });
  // The recipient's custom fields "1".."6" are recalled as contact("custom_1").."custom_6".
  const custom: Record<string, unknown> = r.recipient ? JSON.parse(r.recipient.custom_fields || '{}') : {};
  return knownFrom(
    pages,
    variables,
    who
      ? {
          first_name: who.first_name,
          last_name: who.last_name,
          email: who.email,
          ...Object.fromEntries(Object.entries(custom).map(([k, v]) => [`custom_${k}`, String(v)])),
        }
      : {},
  );
}

/** How a page is drawn for a respondent: the questions it shows in their order (the page's
 * `sorting`), what its recalls show, the seed of its random orders (the session's, so a reload
 * keeps the order), and how often each choice was chosen where a question sorts by it. */
export interface PageView {
  questions: IndexedQuestion[];
  hidden: Set<string>;
  recall: (ref: PipeRef) => string;
  seed: number;
  /** responses per choice (or matrix row) id so far, for `resp_count_*` sorting (choiceOrder) */
  counts: ReadonlyMap<string, number>;
}

export async function pageView(
  deps: Deps,
  r: Pick<Respondent, 'survey' | 'link' | 'recipient' | 'index' | 'respondentKey'>,
  response: ResponseRow | undefined,
  pageId: string,
): Promise<PageView> {
  const known = knownBefore(r, response, pageId);
  const hidden = hiddenOn(r.index, pageId, known);
  const seed = Number.parseInt(r.respondentKey.slice(0, 8), 16) || 0;
  const page = r.index.pageById.get(pageId);
  // Ordered before hiding, so a question's place does not depend on which others are shown.
  const ordered = respondentOrder(page?.questions ?? [], page?.sorting, seed, pageId);
  const questions = ordered.filter((q) => !hidden.has(q.id));
  return {
    questions,
    hidden,
    recall: (ref) => recalled(r.index, ref, known),
    seed,
    counts: await chosenCounts(deps, r.survey.id, questions),
  };
}

/** How many responses chose each choice (or answered each matrix row) of the questions that sort
 * by it, from the kept rollup counts (all collectors); no query when none does. */
async function chosenCounts(
  deps: Deps,
  surveyId: string,
  questions: IndexedQuestion[],
): Promise<Map<string, number>> {
  const ids = questions.filter((q) => sortsByCount(q.doc.sorting)).map((q) => q.id);
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await deps.db.kysely
    .selectFrom('response_counts')
    .select(['akey', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('survey_id', '=', surveyId)
    .where('question_id', 'in', ids)
    .groupBy('akey')
    .execute();
  // A choice's key is c:<id>; a matrix row's r:<id> (its cells' keys go on, r:<id>:c:<id>).
  for (const { akey, n } of rows) {
    const m = /^[cr]:(\d+)$/.exec(akey);
    if (m) counts.set(m[1], Number(n));
  }
  return counts;
}

async function save(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  started: string | undefined,
  step: {
    /** a new response's id, minted beforehand when uploads refer to it */
    id?: string;
    status: ResponseStatus;
    currentPageId: string;
    path: string[];
    logicPath: LogicPath;
    finished: boolean;
    within?: Within;
  },
): Promise<ResponseRow> {
  const now = deps.clock.now();
  const actor = { userId: null, ip: r.ip };
  if (!response)
    return createResponse(
      deps,
      actor,
      r.survey,
      r.collector,
      r.index,
      {
        pages: [page],
        response_status: step.status,
        custom_value: r.link.get('c') ?? '',
        custom_variables: customVariables(r),
        ip_address: r.collector.options.anonymous_type === 'fully_anonymous' ? '' : r.ip,
        ...(r.recipient && {
          recipient_id: r.recipient.id,
          email_address: r.recipient.email,
          first_name: r.recipient.first_name,
          last_name: r.recipient.last_name,
        }),
      },
      startTime(now, started),
      {
        id: step.id,
        respondentKey: r.respondentKey,
        currentPageId: step.currentPageId,
        pagePath: step.path,
        logicPath: step.logicPath,
        metadata: {},
        within: step.within,
      },
    );
  return updateResponse(
    deps,
    actor,
    response,
    r.index,
    { pages: [page], response_status: step.status },
    undefined,
    'patch',
    {
      currentPageId: step.currentPageId,
      pagePath: step.path,
      logicPath: step.logicPath,
      totalTime: Math.max(0, Math.floor((now.getTime() - Date.parse(response.date_created)) / 1000)),
      // A finished response keeps only the answers of the pages on the path it took.
      onlyPages: step.finished ? new Set(step.path) : undefined,
      within: step.within,
    },
  );
}

/** The path and logic path up to (not including) `pageId`: answering a page again after Back. */
function pathBefore(
  response: ResponseRow | undefined,
  pageId: string,
): { path: string[]; logicPath: LogicPath } {
  const path = pathOf(response);
  const k = path.indexOf(pageId);
  const kept = k >= 0 ? path.slice(0, k) : path;
  const old = response ? (JSON.parse(response.logic_path) as LogicPath) : {};
  const logicPath: LogicPath = {};
  for (const p of kept) if (old[p]) logicPath[p] = old[p];
  return { path: kept, logicPath };
}

/** A page's answers as the respondent gave them, with the files chosen for its upload questions. */
export interface PageAnswers {
  /** every question of the page that takes answers, with what the form gave (possibly none) */
  page: PageIn;
  files?: IncomingFile[];
}

/**
 * The page's answers checked by the respondent rules, each file-upload question answered by its
 * new file (if acceptable) or else by the file it already had. `errors` holds a message per
 * question that fails; `accepted` the files to keep.
 */
function checkPage(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
): { page: PageIn; errors: Map<string, Message>; accepted: IncomingFile[] } {
  const stored = response ? storedPages(response).find((p) => p.id === given.page.id) : undefined;
  const errors = new Map<string, Message>();
  const accepted: IncomingFile[] = [];
  // A question the display logic hides is not asked: it is not required and keeps no answer.
  const hidden = hiddenOn(r.index, given.page.id, knownBefore(r, response, given.page.id));
  const shown = (given.page.questions ?? []).filter((qi) => !hidden.has(qi.id));
  const questions = shown.map((qi) => {
    const q = r.index.questions.get(qi.id);
    let answers: Answer[] = qi.answers ?? [];
    if (!q) return { id: qi.id, answers };
    if (q.displayType === 'file_upload') {
      const file = given.files?.find((f) => f.questionId === q.id);
      const problem = file && fileProblem(deps, file);
      if (problem) {
        errors.set(q.id, problem);
        return { id: q.id, answers: [] };
      }
      if (file) {
        accepted.push(file);
        answers = [{ text: file.name }];
      } else answers = stored?.questions.find((x) => x.id === q.id)?.answers ?? [];
    }
    const problem = answerProblem(q, answers);
    if (problem) errors.set(q.id, problem);
    return { id: q.id, answers };
  });
  return { page: { id: given.page.id, questions }, errors, accepted };
}

/**
 * Keeps the accepted files for the response (minting its id when it is new) and puts them into
 * the page's answers. Returns the response id and the uploads kept.
 */
async function keepFiles(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  files: IncomingFile[],
): Promise<{ id: string | undefined; kept: KeptUpload[] }> {
  if (files.length === 0) return { id: response?.id, kept: [] };
  const id = response?.id ?? (await deps.ids.take(1))[0];
  const kept: KeptUpload[] = [];
  for (const file of files) {
    const k = await keepFile(
      deps,
      { ownerId: r.survey.owner_id, surveyId: r.survey.id, collectorId: r.collector.id, responseId: id },
      file,
    );
    kept.push(k);
    const q = page.questions!.find((x) => x.id === file.questionId)!;
    q.answers = [{ text: k.name, upload_id: k.id, content_type: k.contentType }];
  }
  return { id, kept };
}

/** Saves a page whose files are kept: the response commits after them; should it not, they go. */
async function saveWithFiles(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  files: IncomingFile[],
  write: (id: string | undefined) => Promise<ResponseRow>,
): Promise<ResponseRow> {
  const { id, kept } = await keepFiles(deps, r, response, page, files);
  let row: ResponseRow;
  try {
    row = await write(response ? undefined : id);
  } catch (err) {
    await removeUploads(deps, { uploadIds: kept.map((k) => k.id) });
    throw err;
  }
  if (hasUploads(r.index)) await keepOnlyReferenced(deps, row.id, storedPages(row));
  return row;
}

/**
 * Answers a page: checks it by the respondent rules (nothing is saved, and no file kept, when an
 * answer needs putting right), then moves on by the logic: the next page, or the end (completed,
 * or disqualified by a rule). Answers of pages later on an earlier path are kept while the
 * response is partial (Back then Next finds them again) and dropped when it finishes.
 */
export async function answerPage(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
): Promise<Outcome> {
  const { page, errors, accepted } = checkPage(deps, r, response, given);
  if (errors.size > 0) {
    await discardFiles(given.files ?? []);
    return { kind: 'invalid', errors };
  }
  await discardFiles((given.files ?? []).filter((f) => !accepted.includes(f)));
  const answers = (page.questions ?? []).map((q) => ({ id: q.id, answers: q.answers ?? [] }));
  const route = routeAfter(
    r.index,
    page.id,
    answers,
    withAnswers(knownBefore(r, response, page.id), answers),
  );
  const { path, logicPath } = pathBefore(response, page.id);
  path.push(page.id);
  if (route.fired) logicPath[page.id] = route.fired;
  const kept = response ? statusOf(response) : 'partial';
  const status = route.end ?? (kept === 'disqualified' ? 'partial' : kept);
  let over: Quota | undefined;
  const row = await saveWithFiles(deps, r, response, page, accepted, async (id) => {
    const write = (s: ResponseStatus, within?: Within) =>
      save(deps, r, response, page, started, {
        id,
        status: s,
        currentPageId: route.next ?? '0',
        path,
        logicPath,
        finished: route.end !== null,
        within,
      });
    // A response counts against the quotas once, when it first completes.
    if (status !== 'completed' || kept === 'completed') return write(status);
    const done = await completeUnderQuotas(
      deps,
      { surveyId: r.survey.id, collectorId: r.collector.id },
      write,
    );
    over = done.over;
    return done.row;
  });
  // A quota that disqualifies ends as a disqualified response does (the status says overquota).
  if (over)
    return over.action.type === 'disqualify'
      ? { kind: 'finished', status: 'disqualified', response: row }
      : { kind: 'overquota', quota: over, response: row };
  return route.end
    ? { kind: 'finished', status: route.end, response: row }
    : { kind: 'next', pageId: route.next! };
}

/**
 * Answers part of a page (a screen, when a survey shows one question at a time) without leaving it:
 * the part is checked by the same rules (nothing is saved when an answer needs putting right), the
 * page's other answers are kept, and the response stays on this page: its logic runs when the
 * page's last part is answered through answerPage.
 */
export async function answerPart(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
): Promise<Outcome> {
  const { page, errors, accepted } = checkPage(deps, r, response, given);
  await discardFiles((given.files ?? []).filter((f) => errors.size > 0 || !accepted.includes(f)));
  if (errors.size > 0) return { kind: 'invalid', errors };
  const { path, logicPath } = pathBefore(response, page.id);
  const kept = response ? statusOf(response) : 'partial';
  const status = kept === 'disqualified' ? 'partial' : kept;
  await saveWithFiles(deps, r, response, page, accepted, (id) =>
    save(deps, r, response, page, started, {
      id,
      status,
      currentPageId: page.id,
      path,
      logicPath,
      finished: false,
    }),
  );
  return { kind: 'next', pageId: page.id };
}

/**
 * Exit: saves the page's acceptable answers (and files) as a partial response the respondent can
 * resume (same browser), dropping those that need putting right, unless the collector lets no
 * saved response change (edit_response_type never), when answers on this page are not kept.
 * Answers the saved response, or null when nothing was saved.
 */
export async function exitPage(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
): Promise<ResponseRow | null> {
  if (!mayResume(r.collector) || (response && response.response_status !== 'partial')) {
    await discardFiles(given.files ?? []);
    return null;
  }
  const { page, errors, accepted } = checkPage(deps, r, response, given);
  await discardFiles((given.files ?? []).filter((f) => !accepted.includes(f)));
  page.questions = (page.questions ?? []).filter((q) => !errors.has(q.id));
  const { path, logicPath } = pathBefore(response, page.id);
  return saveWithFiles(deps, r, response, page, accepted, (id) =>
    save(deps, r, response, page, started, {
      id,
      status: 'partial',
      currentPageId: page.id,
      path,
      logicPath,
      finished: false,
    }),
  );
}

/** Whether a respondent who leaves can come back to a saved partial response. */
export function mayResume(collector: Collector): boolean {
  return collector.options.edit_response_type !== 'never';
}

/** What a response's edit_url opens: the response and its collector (and, for an email invitation,
 * its recipient's personal link), or `refused` when the collector does not let it be edited. */
export type EditLink =
  | { response: ResponseRow; collector: Collector; recipient?: { id: string; token: string } }
  | { refused: 'never' | 'until_complete' };

/** Opens an edit_url's token; undefined when it leads nowhere (no such response, no link). */
export async function openEditLink(deps: Deps, token: string): Promise<EditLink | undefined> {
  const response = await responseByEditToken(deps, token);
  return response && openResponse(deps, response);
}

/** Where a response is continued (an edit_url or a "Finish later" link), if anywhere. */
export async function openResponse(deps: Deps, response: ResponseRow): Promise<EditLink | undefined> {
  const collector = await collectorById(deps, response.collector_id);
  if (!collector?.url_token) return undefined;
  const mode = collector.options.edit_response_type;
  if (mode === 'never' || (mode === 'until_complete' && response.response_status === 'completed'))
    return { refused: mode };
  if (collector.type !== 'email') return { response, collector };
  // An email invitation's response continues at its recipient's personal link.
  const recipient = await deps.db.kysely
    .selectFrom('collector_recipients')
    .select(['id', 'token'])
    .where('id', '=', response.recipient_id)
    .where('collector_id', '=', collector.id)
    .executeTakeFirst();
  return recipient ? { response, collector, recipient } : undefined;
}
