// The one definition of each figure about a survey's responses, used by every page (analyze,
// summary, shared results), the exports and the API's rollups and trends:
// - completed, partial, disqualified, over quota: responses by their status; total: all of them;
// - completion rate: completed / total, as a whole percent, always shown with its two counts;
// - per question, answered: responses holding an answer to it; hidden: responses for which its
//   display logic hid it (and that hold no answer to it); skipped: the rest, responses that were
//   shown it and left it unanswered. answered + skipped + hidden = total, and a share "answered"
//   is of the responses that were shown it (answered + skipped).
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { choiceToken } from '../../db/stores/response-keys.js';
import { Slices } from '../../platform/slices.js';
import type { StoredPage } from '../responses/answers.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { conditionHolds, knownFrom } from '../responses/recall.js';
import { filtered, keyed, type ResponseFilters } from '../responses/responses.js';

export interface StatusFigures {
  total: number;
  completed: number;
  partial: number;
  disqualified: number;
  overquota: number;
}

/** The figures of responses counted per status (any status not named still counts in total). */
export function statusFigures(byStatus: ReadonlyMap<string, number> | Record<string, number>): StatusFigures {
  const entries = byStatus instanceof Map ? [...byStatus] : Object.entries(byStatus);
  const out: StatusFigures = { total: 0, completed: 0, partial: 0, disqualified: 0, overquota: 0 };
  for (const [status, n] of entries) {
    out.total += n;
    if (status === 'completed') out.completed += n;
    else if (status === 'partial') out.partial += n;
    else if (status === 'disqualified') out.disqualified += n;
    else if (status === 'overquota') out.overquota += n;
  }
  return out;
}

/** A whole percent of `part` in `whole`, or null when there is no whole. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/** The completion rate's two parts as the pages write them: "80%" ("—" without responses) and
 * "33 of 41". */
export function completionParts(f: Pick<StatusFigures, 'completed' | 'total'>): { rate: string; of: string } {
  const p = percent(f.completed, f.total);
  return { rate: p === null ? '—' : `${p}%`, of: `${f.completed} of ${f.total}` };
}

/** The completion rate in one line: "80% (33 of 41)", or "—" without responses. */
export function completionText(f: Pick<StatusFigures, 'completed' | 'total'>): string {
  const { rate, of } = completionParts(f);
  return f.total > 0 ? `${rate} (${of})` : rate;
}

/** A question's answered, skipped and hidden counts among `total` responses. */
export function questionFigures(
  total: number,
  answered: number,
  hidden: number,
): { answered: number; skipped: number; hidden: number } {
  return { answered, hidden, skipped: Math.max(0, total - hidden - answered) };
}

/** Responses whose row is read at a time by hiddenCounts. */
const WINDOW = 1000;

/**
 * Per bucket (`bucketOf` a response's date_created, given at least to the hour; one bucket '' by
 * default) and question, the responses matching `f` for which the question's display logic hid it
 * and that hold no answer to it. Only questions with display logic are looked at: without any,
 * nothing is read.
 */
export async function hiddenCounts(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  questions: IndexedQuestion[],
  bucketOf: (dateCreated: string) => string = () => '',
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const conditional = questions.filter((q) => q.doc.display_logic);
  if (conditional.length === 0) return out;
  const collectorIds = f.collectorIds ?? (f.collectorId ? [f.collectorId] : undefined);
  const count = (key: string, q: IndexedQuestion, n: number) => {
    const m = out.get(key) ?? new Map<string, number>();
    out.set(key, m);
    m.set(q.id, (m.get(q.id) ?? 0) + n);
  };
  const slices = new Slices();
  // Conditions on the choices of an earlier question read the kept answers, responses answered
  // alike (and begun in the same hour) once; any other condition reads each response's answers.
  const onChoices = (q: IndexedQuestion) => {
    const d = q.doc.display_logic!;
    return d.question_id !== undefined && (d.operator === 'selected' || d.operator === 'not_selected');
  };
  const byChoices = conditional.filter(onChoices);
  const byAnswers = conditional.filter((q) => !onChoices(q));
  if (byChoices.length > 0) {
    const at = sql<string>`substr(date_created, 1, 13)`;
    const groups = await keyed(deps, { ...f, collectorIds, surveyId: index.surveyId })
      .select([at.as('at'), 'keys', 'choices', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy([at, 'keys', 'choices'])
      .execute();
    for (const g of groups) {
      for (const q of byChoices) {
        const d = q.doc.display_logic!;
        const picked = (d.choice_ids ?? []).some((c) => g.choices.includes(choiceToken(d.question_id!, c)));
        const shown = d.operator === 'selected' ? picked : !picked;
        if (!shown && !g.keys.includes(` ${q.id}| `)) count(bucketOf(g.at), q, Number(g.n));
      }
      if (slices.due()) await slices.yield();
    }
  }
  if (byAnswers.length === 0) return out;
  let after = -1;
  for (;;) {
    const rows = await filtered(deps, { ...f, collectorIds, surveyId: index.surveyId })
      .select(['ordinal', 'pages', 'custom_variables', 'date_created'])
      .where('ordinal', '>', after)
      .orderBy('ordinal')
      .limit(WINDOW)
      .execute();
    for (const r of rows) {
      const known = knownFrom(parsed<StoredPage[]>(r.pages, []), parsed(r.custom_variables, {}));
      for (const q of byAnswers)
        if (!known.answers.has(q.id) && !conditionHolds(index, q.doc.display_logic!, known))
          count(bucketOf(r.date_created), q, 1);
      if (slices.due()) await slices.yield();
    }
    if (rows.length < WINDOW) return out;
    after = Number(rows[rows.length - 1].ordinal);
  }
}

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json);
  } catch {
    return fallback;
  }
}
