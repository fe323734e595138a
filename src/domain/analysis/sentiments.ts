// The shares of positive, neutral, negative and not analysed answers per open-ended question under
// the page's filter: one statement over the matching responses' kept rows (response_keys, whose
// `sentiments` the response's write filled: responses/sentiment.ts), a count per question and
// label computed by the database. Responses not scored yet (an older release's, until the worker
// completes them) count in none.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { keysHaveChoice } from '../../db/stores/response-keys.js';
import type { IndexedQuestion } from '../responses/design-index.js';
import { keyed, type ResponseFilters } from '../responses/responses.js';
import { SENTIMENTS, type SentimentLabel } from '../responses/sentiment.js';
import { isSentimentQuestion } from './filters.js';

export type SentimentShares = Record<SentimentLabel, number>;

/** Per open-ended question (and "Other" text) of `questions`, how many matching responses' answers
 * read as each label. */
export async function sentimentShares(
  deps: Deps,
  f: ResponseFilters & { surveyId: string },
  questions: IndexedQuestion[],
): Promise<Map<string, SentimentShares>> {
  const scored = questions.filter(isSentimentQuestion);
  const out = new Map<string, SentimentShares>();
  if (scored.length === 0) return out;
  const column = sql.ref('response_keys.sentiments');
  const sums = scored.flatMap((q, i) =>
    SENTIMENTS.map((label, j) =>
      sql<number>`sum(CASE WHEN ${keysHaveChoice(deps.db.dialect, column, q.id, [label])} THEN 1 ELSE 0 END)`.as(
        `s${i}_${j}`,
      ),
    ),
  );
  const row: Record<string, unknown> = (await keyed(deps, f).select(sums).executeTakeFirst()) ?? {};
  scored.forEach((q, i) => {
    const shares: SentimentShares = { positive: 0, neutral: 0, negative: 0, not_analysed: 0 };
    SENTIMENTS.forEach((label, j) => {
      shares[label] = Number(row[`s${i}_${j}`] ?? 0);
    });
    out.set(q.id, shares);
  });
  return out;
}
