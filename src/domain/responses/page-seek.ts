// Deep pages of an unfiltered export (GET …/responses/bulk in ordinal order) without walking the
// rows before them: OFFSET 990,000 reads 990,000 index entries, a seek reads none. The API pages by
// number, so each process remembers where pages began: the ordinal that ends the rows before an
// offset ("a mark"), for every page it served and every STRIDE-th row. A page then starts with a
// seek past the mark at its offset; without one, the mark below it (or the start) and a walk of the
// (scope, ordinal) index alone find it, and it is kept for the next request.
//
// Ordinals only grow (survey_response_seq), so new responses never move earlier rows; only a
// deletion does. Marks are keyed by the survey's deletion count, read in one statement as
// next_ordinal (responses ever made) minus response_count (responses kept): any deletion changes
// the key on every process at once, and old marks are simply never asked for again.
import type { Deps } from '../../context.js';
import type { Db } from '../../db/database.js';
import { prepareQuery } from '../../db/prepared.js';
import type { ResponseRow } from '../../db/stores/responses.js';
import type { Seeks } from './types.js';

const STRIDE = 1000;

function seeksOf(db: Db): Seeks {
  const { kysely } = db;
  // The same two reads per scope (a survey's responses or a collector's), on its (scope, ordinal) index.
  const boundary = (scope: 'survey_id' | 'collector_id') =>
    prepareQuery(
      db,
      3,
      (id, after, offset) =>
        kysely
          .selectFrom('responses')
          .select('ordinal')
          .where(scope, '=', id)
          .where('ordinal', '>', after as unknown as number)
          .orderBy('ordinal')
          .limit(1)
          .offset(offset as unknown as number),
      { arrays: true },
    );
  const rows = (scope: 'survey_id' | 'collector_id') =>
    prepareQuery(db, 4, (id, after, limit, offset) =>
      kysely
        .selectFrom('responses')
        .selectAll()
        .where(scope, '=', id)
        .where('ordinal', '>', after as unknown as number)
        .orderBy('ordinal')
        .limit(limit as unknown as number)
        .offset(offset as unknown as number),
    );
  return {
    version: prepareQuery(
      db,
      1,
      (surveyId) =>
        kysely
          .selectFrom('surveys as s')
          .leftJoin('survey_response_seq as q', 'q.survey_id', 's.id')
          .select(['q.next_ordinal', 's.response_count'])
          .where('s.id', '=', surveyId),
      { arrays: true },
    ),
    surveyBoundary: boundary('survey_id'),
    collectorBoundary: boundary('collector_id'),
    survey: rows('survey_id'),
    collector: rows('collector_id'),
  };
}

function remember(marks: Map<string, number>, key: string, ordinal: number): void {
  if (!marks.has(key)) marks.set(key, ordinal);
}

/**
 * The page of `limit` rows at `offset` of a survey's (or one of its collectors') responses in
 * ordinal order, unfiltered: the same rows as ORDER BY ordinal LIMIT … OFFSET …, read by seek.
 */
export async function seekResponsesPage(
  deps: Deps,
  scope: { surveyId: string; collectorId?: string },
  offset: number,
  limit: number,
): Promise<ResponseRow[]> {
  const s = deps.caches.pageSeeks.get(() => seeksOf(deps.db));
  const marks = deps.caches.seekMarks;
  const [found] = await s.version(scope.surveyId);
  if (!found) return [];
  const deleted = Number(found[0] ?? 0) - Number(found[1]);
  const key = `${scope.collectorId ? `c${scope.collectorId}` : `s${scope.surveyId}`}:${deleted}:`;
  let from = offset;
  let after = marks.get(key + offset);
  if (after === undefined) {
    from = offset - (offset % STRIDE);
    after = from > 0 ? marks.get(key + from) : 0;
    if (after === undefined) {
      from = 0;
      after = 0;
    }
  }
  if (offset > from) {
    // No mark at the page itself: find it on the index alone (no row read), and keep it, so the
    // next request for this page (or the one after it) seeks straight there.
    const [hit] = scope.collectorId
      ? await s.collectorBoundary(scope.collectorId, after, offset - from - 1)
      : await s.surveyBoundary(scope.surveyId, after, offset - from - 1);
    if (!hit) return [];
    after = Number(hit[0]);
    from = offset;
    remember(marks, key + offset, after);
  }
  const rows = scope.collectorId
    ? await s.collector(scope.collectorId, after, limit, offset - from)
    : await s.survey(scope.surveyId, after, limit, offset - from);
  if (rows.length > 0) {
    remember(marks, key + (offset + rows.length), rows[rows.length - 1].ordinal);
    for (let m = offset - (offset % STRIDE) + STRIDE; m < offset + rows.length; m += STRIDE)
      remember(marks, key + m, rows[m - offset - 1].ordinal);
  }
  return rows;
}
