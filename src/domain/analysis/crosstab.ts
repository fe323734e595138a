// Compare by a question: every other question's results split by the answers of
// one chosen question. Each group is the page's filter with one more answer condition ("the compared
// question was answered with this choice"), so a group's figures are exactly the page's figures
// filtered by that answer. One pass: the matching responses' kept answers are read once
// (rollups.ts keyGroups) and each text is added to the groups of the choices it holds (the same
// tokens the answer filter tests, db/stores/response-keys.ts).
import type { Deps } from '../../context.js';
import { choiceToken } from '../../db/stores/response-keys.js';
import { Slices } from '../../platform/slices.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import type { ResponseFilters } from '../responses/responses.js';
import { hiddenCounts } from './figures.js';
import { isNumeric, keyGroups, needsScan, type QuestionRollup, rollups, Tally } from './rollups.js';

export interface CrosstabGroup {
  /** The compared question's choice (or its "other" choice) that makes this group. */
  choiceId: string;
  label: string;
  /** Responses in the group. */
  total: number;
  /** The other questions' results within the group, in the order asked for. */
  items: QuestionRollup[];
}
export interface Crosstab {
  by: IndexedQuestion;
  groups: CrosstabGroup[];
}

/** Questions whose answers can split the results: one choice list (single or multiple choice). */
export function isComparable(q: IndexedQuestion): boolean {
  return (q.family === 'single_choice' || q.family === 'multiple_choice') && q.choices.size > 0;
}

type Groups = Awaited<ReturnType<typeof keyGroups>>;

function readGroups(deps: Deps, index: DesignIndex, f: ResponseFilters): Promise<Groups> {
  const collectors = f.collectorIds ?? (f.collectorId ? [f.collectorId] : undefined);
  return keyGroups(deps, index.surveyId, { ...f, collectorIds: collectors });
}

/** `questions` (other than `by`) per answer of `by`, over the matching responses' kept answers. */
async function split(groups: Groups, by: IndexedQuestion, questions: IndexedQuestion[]): Promise<Crosstab> {
  const others = questions.filter((q) => q.id !== by.id);
  const choices = [...by.choices.values()].map((c) => ({ id: c.id, label: c.text }));
  if (by.other) choices.push({ id: by.other.id, label: by.other.text || 'Other' });
  const wanted = new Set(others.map((q) => q.id));
  const numeric = new Set(others.filter(isNumeric).map((q) => q.id));
  const tallies = choices.map((c) => ({
    ...c,
    token: choiceToken(by.id, c.id),
    tally: new Tally(wanted, numeric),
  }));
  const slices = new Slices();
  for (const g of groups) {
    for (const c of tallies) if (g.choices.includes(c.token)) c.tally.add(g.keys, g.n);
    if (slices.due()) await slices.yield();
  }
  return {
    by,
    groups: tallies.map((c) => ({
      choiceId: c.id,
      label: c.label,
      total: c.tally.total,
      items: c.tally.rollups(others),
    })),
  };
}

/** The results of `questions` (other than `by`) per answer of `by`, under the filter `f`. */
async function crosstab(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  by: IndexedQuestion,
  questions: IndexedQuestion[],
): Promise<Crosstab> {
  return split(await readGroups(deps, index, f), by, questions);
}

/** The page's results (rollups.ts) and, with `by`, their split by it: a filtered page reads the
 * matching responses' kept answers once for both. */
export async function resultsBy(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  questions: IndexedQuestion[],
  by: IndexedQuestion | undefined,
): Promise<{ total: number; items: QuestionRollup[]; compared?: Crosstab }> {
  if (!by) return rollups(deps, index, f, questions);
  if (!needsScan(f)) {
    const [results, compared] = await Promise.all([
      rollups(deps, index, f, questions),
      crosstab(deps, index, f, by, questions),
    ]);
    return { ...results, compared };
  }
  const [groups, hidden] = await Promise.all([
    readGroups(deps, index, f),
    hiddenCounts(deps, index, f, questions),
  ]);
  const all = new Tally(
    new Set(questions.map((q) => q.id)),
    new Set(questions.filter(isNumeric).map((q) => q.id)),
  );
  const slices = new Slices();
  for (const g of groups) {
    all.add(g.keys, g.n);
    if (slices.due()) await slices.yield();
  }
  return {
    total: all.total,
    items: all.rollups(questions, hidden.get('')),
    compared: await split(groups, by, questions),
  };
}
