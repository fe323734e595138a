// Evaluating skip logic (domain/surveys/logic.ts) over answers: where a respondent goes after a
// page, and the path a whole response takes. Pure functions over the cached design index, so a
// respondent's page costs no query for its logic.
import type { Logic, LogicAction } from '../surveys/question-schema.js';
import type { StoredPage, StoredQuestionAnswers } from './answers.js';
import type { DesignIndex } from './design-index.js';
import { conditionHolds, type Known, knownFrom } from './recall.js';

/** The rule that fired after a page: a choice's (question_id, choice_id) or the page's own. */
export interface LogicStep {
  question_id?: string;
  choice_id?: string;
  action: LogicAction;
  page_id?: string;
}
/** A response's `logic_path`: page id -> the rule that fired after it (`{}` when none fired). */
export type LogicPath = Record<string, LogicStep>;

export type Ending = 'completed' | 'disqualified';

export interface Route {
  /** the next page, or null when the survey ends after this page */
  next: string | null;
  end: Ending | null;
  fired?: LogicStep;
}

/**
 * Where the respondent goes after `pageId`: the first choice rule (in question order) whose choice
 * was picked, else the page's rule, else the next page. A jump that is not forward (a design
 * changed under a rule) counts as no rule, and so does a rule whose `when` (a calculated variable
 * compared, from `known`: the answers up to and including this page) does not hold.
 */
export function routeAfter(
  index: DesignIndex,
  pageId: string,
  answers: StoredQuestionAnswers[],
  known: Known = knownFrom([{ id: pageId, questions: answers }], {}),
): Route {
  const page = index.pageById.get(pageId);
  const at = page ? index.pages.indexOf(page) : -1;
  const picked = new Map(answers.map((q) => [q.id, new Set(q.answers.map((a) => a.choice_id))]));
  const forward = (target: string | undefined) => {
    const t = target === undefined ? undefined : index.pageById.get(target);
    return t !== undefined && index.pages.indexOf(t) > at;
  };
  const holds = (logic: Logic) => !logic.when || conditionHolds(index, logic.when, known);
  let fired: LogicStep | undefined;
  for (const q of page?.questions ?? []) {
    if (q.family !== 'single_choice') continue;
    const chosen = picked.get(q.id);
    if (!chosen) continue;
    for (const c of q.choices.values())
      if (
        c.logic &&
        chosen.has(c.id) &&
        (c.logic.action !== 'go_to_page' || forward(c.logic.page_id)) &&
        holds(c.logic)
      ) {
        const { when: _, ...rule } = c.logic;
        fired = { question_id: q.id, choice_id: c.id, ...rule };
        break;
      }
    if (fired) break;
  }
  const own = page?.logic;
  if (!fired && own && (own.action !== 'go_to_page' || forward(own.page_id)) && holds(own)) {
    const { when: _, ...rule } = own;
    fired = { ...rule };
  }
  if (fired?.action === 'end_survey') return { next: null, end: 'completed', fired };
  if (fired?.action === 'disqualify') return { next: null, end: 'disqualified', fired };
  if (fired) return { next: fired.page_id!, end: null, fired };
  const following = index.pages[at + 1];
  return following ? { next: following.id, end: null } : { next: null, end: 'completed' };
}

export interface Walk {
  pagePath: string[];
  logicPath: LogicPath;
  /** how the path ends, or null when it stops at a page not given (a partial response) */
  end: Ending | null;
  /** the page the path stopped at when `end` is null */
  stoppedAt: string | null;
  /** given pages holding answers that the path does not visit */
  skipped: string[];
}

/**
 * The path a response's answers take from the first page. With `upToGiven` (a partial response) it
 * stops at the first page on the path that was not given; otherwise it runs to the end, visiting
 * pages without answers as a respondent who skips optional questions would.
 */
export function walk(
  index: DesignIndex,
  pages: StoredPage[],
  upToGiven: boolean,
  variables: Record<string, string> = {},
): Walk {
  const given = new Map(pages.map((p) => [p.id, p.questions]));
  const out: Walk = { pagePath: [], logicPath: {}, end: null, stoppedAt: null, skipped: [] };
  let at: string | null = index.pages[0]?.id ?? null;
  while (at !== null) {
    if (upToGiven && !given.has(at)) {
      out.stoppedAt = at;
      break;
    }
    out.pagePath.push(at);
    // A rule's `when` sees the answers of the path so far, this page's included.
    const known = index.calculated?.length
      ? knownFrom(
          out.pagePath.map((id) => ({ id, questions: given.get(id) ?? [] })),
          variables,
        )
      : undefined;
    const route = routeAfter(index, at, given.get(at) ?? [], known);
    if (route.fired) out.logicPath[at] = route.fired;
    if (route.end) out.end = route.end;
    at = route.next;
  }
  const visited = new Set(out.pagePath);
  for (const p of pages)
    if (!visited.has(p.id) && index.pageById.has(p.id) && p.questions.length > 0) out.skipped.push(p.id);
  return out;
}
