// The title search of the survey list, per engine (migration 0031). SQLite reads the matching
// surveys from the trigram table `surveys_title` (a term of three characters or more without LIKE's
// wildcards: what its index serves), then applies the same `lower(title) LIKE` as a scan would,
// so both ways answer alike. PostgreSQL's planner serves that LIKE from the pg_trgm index itself.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../database.js';

export type TitleSearch = 'scan' | 'index';

/** Whether a search for `term` can read the trigram index. */
export function titleSearchMode(term: string): TitleSearch {
  return [...term].length >= 3 && !/[\\%_]/.test(term) ? 'index' : 'scan';
}

/** The condition on `surveys` for a title containing the term; `pattern` is `%term%`, lower case,
 * with `\` escaping LIKE's wildcards. */
export function titleMatches(db: Db, mode: TitleSearch, pattern: string): RawBuilder<SqlBool> {
  const like = sql<SqlBool>`lower(title) like ${pattern} escape '\\'`;
  if (db.dialect !== 'sqlite' || mode === 'scan') return like;
  return sql<SqlBool>`id in (select cast(rowid as text) from surveys_title where title like ${pattern}) and ${like}`;
}

/** The owner column for the list's conditions. With the trigram index on SQLite it is written
 * `+owner_id`, which no index serves: without statistics (no ANALYZE) the planner would otherwise
 * start from the account's surveys (all of them) rather than from the matching titles. */
export function ownerColumn(db: Db, mode: TitleSearch | null): RawBuilder<string> {
  return db.dialect === 'sqlite' && mode === 'index' ? sql<string>`+owner_id` : sql<string>`owner_id`;
}
