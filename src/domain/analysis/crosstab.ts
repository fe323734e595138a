// Compare by a question (issue #27 item 2): every other question's results split by the answers of
// one chosen question. Each group is the page's filter with one more answer condition ("the compared
// question was answered with this choice"), read by the same rollups as the unsplit page, so a
// group's figures are exactly the page's figures filtered by that answer.
import type { Deps } from '../../context.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import type { ResponseFilters } from '../responses/responses.js';
import { type QuestionRollup, rollups } from './rollups.js';

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

/** The results of `questions` (other than `by`) per answer of `by`, under the filter `f`. */
export async function crosstab(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  by: IndexedQuestion,
  questions: IndexedQuestion[],
): Promise<Crosstab> {
  const others = questions.filter((q) => q.id !== by.id);
  const choices = [...by.choices.values()].map((c) => ({ id: c.id, label: c.text }));
  if (by.other) choices.push({ id: by.other.id, label: by.other.text || 'Other' });
  const groups: CrosstabGroup[] = [];
  // One group at a time: each is a filtered scan of the responses.
  for (const c of choices) {
    const { total, items } = await rollups(
      deps,
      index,
      { ...f, answers: [...(f.answers ?? []), { question: by.id, kind: 'choices', choices: [c.id] }] },
      others,
    );
    groups.push({ choiceId: c.id, label: c.label, total, items });
  }
  return { by, groups };
}
