// One question at a time (a survey's `question_layout` 'one_at_a_time'): each page of the respondent
// flow is shown as screens, one per question it shows (display logic applied, in the respondent's
// order), with the texts and images (presentation questions) before it. A screen is a position
// within a page, not a page of its own: its answers are saved into the page (flow.ts answerPart), so
// leaving keeps them, and the page's last screen answers the whole page (answerPage), so required
// answers, validation, skip logic and the path are the flow's, walked once.

import type { Deps } from '../../context.js';
import type { SurveyRow } from '../surveys/access.js';
import { questionLayoutOf } from '../surveys/surveys.js';
import type { IndexedPage, IndexedQuestion } from './design-index.js';
import {
  answerPage,
  answerPart,
  exitPage,
  knownBefore,
  type Outcome,
  type PageAnswers,
  type PageView,
  type Place,
  pageView,
  type Respondent,
} from './flow.js';
import { hiddenOn } from './recall.js';
import { type ResponseRow, storedPages } from './responses.js';

export const oneAtATime = (survey: SurveyRow): boolean => questionLayoutOf(survey) === 'one_at_a_time';

const answerable = (q: Pick<IndexedQuestion, 'family'>) => q.family !== 'presentation';

/** A screen number from a form or query (`screen`), if it is one. */
const screenNumber = (v: unknown): number | undefined =>
  typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : undefined;

/**
 * A page's shown questions as screens: each answerable question with the presentation questions
 * before it (those after the last go with it); a page that asks nothing is one screen.
 */
export function screensOf<Q extends Pick<IndexedQuestion, 'family'>>(questions: readonly Q[]): Q[][] {
  const screens: Q[][] = [];
  let pending: Q[] = [];
  for (const q of questions) {
    pending.push(q);
    if (answerable(q)) {
      screens.push(pending);
      pending = [];
    }
  }
  if (screens.length === 0) return [pending];
  screens[screens.length - 1].push(...pending);
  return screens;
}

type Who = Pick<Respondent, 'survey' | 'link' | 'recipient' | 'index'>;

/** How many screens a page shows this respondent. Display logic reads earlier pages only, so the
 * count is fixed once the page is reached. */
function screenCount(r: Who, response: ResponseRow | undefined, pageId: string): number {
  const hidden = hiddenOn(r.index, pageId, knownBefore(r, response, pageId));
  const page = r.index.pageById.get(pageId);
  return Math.max(1, page?.questions.filter((q) => answerable(q) && !hidden.has(q.id)).length ?? 0);
}

function pathOf(response: ResponseRow | undefined): string[] {
  // page_path is the JSON array of page ids the flow writes
  const path: string[] = response ? JSON.parse(response.page_path) : [];
  return path;
}

/** Where a respondent coming back to a page left off: its first screen on a page answered before,
 * else the one after the last screen holding a saved answer. */
function leftOff(response: ResponseRow | undefined, pageId: string, screens: IndexedQuestion[][]): number {
  if (response && pathOf(response).includes(pageId)) return 0;
  const page = response ? storedPages(response).find((p) => p.id === pageId) : undefined;
  const saved = new Set(page?.questions.filter((q) => q.answers.length > 0).map((q) => q.id));
  let reach = 0;
  screens.forEach((s, i) => {
    if (s.some((q) => saved.has(q.id))) reach = i + 1;
  });
  return Math.min(reach, screens.length - 1);
}

export interface ScreenPlace {
  page: Place;
  /** the screen shown (0-based) of `count` on the page, and its questions */
  screen: number;
  count: number;
  questions: IndexedQuestion[];
  /** where Back goes: the screen before, else the last screen of the page before on the path */
  back: { pageId: string; screen: number } | null;
  /** screens answered before this one on the path, the most still possible, and whether that is
   * certain (no skip or display logic ahead can change it) */
  progress: { done: number; total: number; exact: boolean };
  /** the last screen of the survey's last page: it finishes */
  finishes: boolean;
}

/** Skip logic on these pages, or display logic on the later ones, can change how many screens come. */
function mayChange(at: IndexedPage, later: IndexedPage[]): boolean {
  const jumps = (p: IndexedPage) =>
    !!p.logic || p.questions.some((q) => [...q.choices.values()].some((c) => c.logic));
  return jumps(at) || later.some((p) => jumps(p) || p.questions.some((q) => q.doc.display_logic));
}

/**
 * The screen to show of the page `place` names: `asked`, else where the respondent left off; with
 * `errors`, the first screen holding one.
 */
export function screenPlace(
  r: Who,
  response: ResponseRow | undefined,
  place: Place,
  view: PageView,
  asked?: unknown,
  errors?: ReadonlyMap<string, unknown>,
): ScreenPlace {
  const screens = screensOf(view.questions);
  const reach = leftOff(response, place.pageId, screens);
  // Any screen of the page may be asked for: skipping ahead by hand skips nothing required, as the
  // page's last screen checks the whole page and sends the respondent to the first answer missing.
  const failing = errors ? screens.findIndex((s) => s.some((q) => errors.has(q.id))) : -1;
  const screen = failing >= 0 ? failing : Math.min(screenNumber(asked) ?? reach, screens.length - 1);
  const path = pathOf(response);
  const k = path.indexOf(place.pageId);
  const before = (k >= 0 ? path.slice(0, k) : path).filter((p) => r.index.pageById.has(p));
  const done = before.reduce((n, p) => n + screenCount(r, response, p), 0) + screen;
  const at = r.index.pages.indexOf(r.index.pageById.get(place.pageId)!);
  const later = r.index.pages.slice(at + 1);
  const ahead = later.reduce((n, p) => n + Math.max(1, p.questions.filter(answerable).length), 0);
  return {
    page: place,
    screen,
    count: screens.length,
    questions: screens[screen],
    back:
      screen > 0
        ? { pageId: place.pageId, screen: screen - 1 }
        : place.back
          ? { pageId: place.back, screen: screenCount(r, response, place.back) - 1 }
          : null,
    progress: {
      done,
      total: done + screens.length - screen + ahead,
      exact: later.length === 0 || !mayChange(r.index.pages[at], later),
    },
    finishes: later.length === 0 && screen === screens.length - 1,
  };
}

/** Where Back goes from posted screen `asked` (nothing is saved, as with Back on a page). */
export function screenBack(
  r: Who,
  response: ResponseRow | undefined,
  place: Place,
  asked: unknown,
): { pageId: string; screen: number } {
  const n = screenNumber(asked) ?? 0;
  if (n > 0) return { pageId: place.pageId, screen: n - 1 };
  if (!place.back) return { pageId: place.pageId, screen: 0 };
  return { pageId: place.back, screen: screenCount(r, response, place.back) - 1 };
}

export type ScreenOutcome =
  | Exclude<Outcome, { kind: 'next' }>
  /** the screen to show next: on this page, or the first of the page the logic chose */
  | { kind: 'screen'; pageId: string; screen: number };

/** The posted answers of screen `asked` only (the form holds no others: giving the page's other
 * questions empty would erase their saved answers). */
async function screenPart(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  asked: unknown,
): Promise<{ part: PageAnswers; screen: number; last: boolean }> {
  const screens = screensOf((await pageView(deps, r, response, given.page.id)).questions);
  const screen = Math.min(screenNumber(asked) ?? 0, screens.length - 1);
  const on = new Set(screens[screen].map((q) => q.id));
  return {
    part: {
      page: { id: given.page.id, questions: (given.page.questions ?? []).filter((q) => on.has(q.id)) },
      files: given.files?.filter((f) => on.has(f.questionId)),
    },
    screen,
    last: screen === screens.length - 1,
  };
}

/**
 * Answers a screen: an earlier screen of a page is checked and saved into the page (the next
 * screen follows); the last one answers the page with the answers its other screens saved, so the
 * page's rules and skip logic apply then, as on pages.
 */
export async function answerScreen(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
  asked: unknown,
): Promise<ScreenOutcome> {
  const { part, screen, last } = await screenPart(deps, r, response, given, asked);
  const pageId = given.page.id;
  if (!last) {
    const o = await answerPart(deps, r, response, part, started);
    return o.kind === 'invalid' ? o : { kind: 'screen', pageId, screen: screen + 1 };
  }
  const saved = response ? storedPages(response).find((p) => p.id === pageId) : undefined;
  const on = new Set(part.page.questions?.map((q) => q.id));
  const whole: PageAnswers = {
    page: {
      id: pageId,
      questions: (given.page.questions ?? []).map((q) =>
        on.has(q.id) ? q : { id: q.id, answers: saved?.questions.find((x) => x.id === q.id)?.answers ?? [] },
      ),
    },
    files: part.files,
  };
  const o = await answerPage(deps, r, response, whole, started);
  return o.kind === 'next' ? { kind: 'screen', pageId: o.pageId, screen: 0 } : o;
}

/** Exit on a screen: its acceptable answers saved as exitPage saves a page's, the page's others kept. */
export async function exitScreen(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
  asked: unknown,
): Promise<ResponseRow | null> {
  const { part } = await screenPart(deps, r, response, given, asked);
  return exitPage(deps, r, response, part, started);
}

/** A respondent form's post answered by the survey's layout: a screen, or a whole page. */
export function answerPosted(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
  screen: unknown,
): Promise<ScreenOutcome | Outcome> {
  return oneAtATime(r.survey)
    ? answerScreen(deps, r, response, given, started, screen)
    : answerPage(deps, r, response, given, started);
}

/** Exit by the survey's layout: a screen's answers into its page, or the page's. */
export function exitPosted(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
  screen: unknown,
): Promise<ResponseRow | null> {
  return oneAtATime(r.survey)
    ? exitScreen(deps, r, response, given, started, screen)
    : exitPage(deps, r, response, given, started);
}
