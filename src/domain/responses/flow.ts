// One respondent flow, whichever way a response arrives. The respondent pages (web/respond) walk a
// session page by page: where to start, which page to show, answer a page (which moves on by the
// survey's skip logic, finishes or disqualifies), back along the path taken, and exit (save the
// page as a partial). The API's response endpoints send whole responses: their answers are replayed
// through the same logic for page_path, logic_path and the final status.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import type { Collector } from '../collectors/collectors.js';
import type { RecipientRow } from '../invitations/recipients.js';
import type { SurveyRow } from '../surveys/access.js';
import { settingsOf } from '../surveys/surveys.js';
import type { PageIn } from './answers.js';
import type { DesignIndex } from './design-index.js';
import {
  createResponse,
  type ResponseActor,
  type ResponseInput,
  type ResponseRow,
  type ResponseStatus,
  type storedPages,
  updatedPages,
  updateResponse,
} from './responses.js';
import { type Ending, type LogicPath, routeAfter, type Walk, walk } from './route.js';

// ---- the API: whole responses ----------------------------------------------------------------

/**
 * The path of an API response, refusing answers on pages the logic skips (400/1002 naming the
 * page): a respondent could not have given them. A path that ends in a disqualify rule makes a
 * response that would be completed disqualified; partial and overquota stay as sent.
 */
function replay(
  index: DesignIndex,
  pages: PageIn[] | ReturnType<typeof storedPages>,
  status: ResponseStatus,
) {
  const stored = pages.map((p) => ({
    id: p.id,
    questions: (p.questions ?? []).map((q) => ({ id: q.id, answers: q.answers ?? [] })),
  }));
  const w: Walk = walk(index, stored, status === 'partial');
  if (w.skipped.length > 0) {
    const i = pages.findIndex((p) => p.id === w.skipped[0]);
    throw new ApiError(
      1002,
      `'pages[${i}].id': page ${w.skipped[0]} is not on the respondent's path (${w.pagePath.join(' → ')}): the survey's skip logic skips it, so it cannot hold answers.`,
    );
  }
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
  const r = replay(index, input.pages ?? [], input.response_status ?? 'completed');
  return createResponse(
    deps,
    actor,
    survey,
    collector,
    index,
    { ...input, response_status: r.status },
    created,
    r.extras,
  );
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
  // A PATCH that leaves the answers alone keeps the path they took (and the status it is given).
  if (mode === 'patch' && input.pages === undefined)
    return updateResponse(deps, actor, current, index, input, created, mode);
  const status =
    input.response_status ?? (mode === 'put' ? 'completed' : (current.response_status as ResponseStatus));
  const r = replay(index, updatedPages(index, current, input, mode), status);
  return updateResponse(
    deps,
    actor,
    current,
    index,
    { ...input, response_status: r.status },
    created,
    mode,
    r.extras,
  );
}

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
  | { kind: 'finished'; status: Ending; response: ResponseRow };

/** When a first page is posted, the time the respondent started (the page's own clock), if sane. */
function startTime(now: Date, started: string | undefined): string {
  const t = started === undefined ? Number.NaN : Date.parse(started);
  return Number.isFinite(t) && t <= now.getTime() && now.getTime() - t < 86_400_000
    ? new Date(t).toISOString()
    : now.toISOString();
}

/** The survey's declared custom variables, with the values the link gives. */
function customVariables(r: Respondent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(settingsOf(r.survey).custom_variables)) {
    const v = r.link.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

async function save(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  started: string | undefined,
  step: {
    status: ResponseStatus;
    currentPageId: string;
    path: string[];
    logicPath: LogicPath;
    finished: boolean;
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
        respondentKey: r.respondentKey,
        currentPageId: step.currentPageId,
        pagePath: step.path,
        logicPath: step.logicPath,
        metadata: {},
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

/**
 * Answers a page (already checked) and moves on by the logic: the next page, or the end
 * (completed, or disqualified by a rule). Answers of pages later on an earlier path are kept while
 * the response is partial (Back then Next finds them again) and dropped when it finishes.
 */
export async function answerPage(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  started: string | undefined,
): Promise<Outcome> {
  const route = routeAfter(
    r.index,
    page.id,
    (page.questions ?? []).map((q) => ({ id: q.id, answers: q.answers ?? [] })),
  );
  const { path, logicPath } = pathBefore(response, page.id);
  path.push(page.id);
  if (route.fired) logicPath[page.id] = route.fired;
  const kept = (response?.response_status as ResponseStatus | undefined) ?? 'partial';
  const row = await save(deps, r, response, page, started, {
    status: route.end ?? (kept === 'disqualified' ? 'partial' : kept),
    currentPageId: route.next ?? '0',
    path,
    logicPath,
    finished: route.end !== null,
  });
  return route.end
    ? { kind: 'finished', status: route.end, response: row }
    : { kind: 'next', pageId: route.next! };
}

/**
 * Exit: saves the page's answers as a partial response the respondent can resume (same browser),
 * unless the collector lets no saved response change (edit_response_type never), when answers on
 * this page are not kept. Answers true when they were saved.
 */
export async function exitPage(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  page: PageIn,
  started: string | undefined,
): Promise<boolean> {
  if (!mayResume(r.collector)) return false;
  if (response && response.response_status !== 'partial') return false;
  const { path, logicPath } = pathBefore(response, page.id);
  await save(deps, r, response, page, started, {
    status: 'partial',
    currentPageId: page.id,
    path,
    logicPath,
    finished: false,
  });
  return true;
}

/** Whether a respondent who leaves can come back to a saved partial response. */
export function mayResume(collector: Collector): boolean {
  return collector.options.edit_response_type !== 'never';
}
