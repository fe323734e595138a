// The contact search (GET /v3/contacts?search=, the contacts page), per engine (migration 0043).
// SQLite reads the matching contacts from the trigram table `contacts_text` (rowid = the contact's
// id; a term of three characters or more without LIKE's wildcards, what its index serves), then
// applies the same `lower(coalesce(column, '')) LIKE` a scan would, so both ways answer alike.
// PostgreSQL's planner serves that LIKE from the pg_trgm indexes on the same expressions.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../database.js';

/** Columns of `contacts_text` (the others are searched by a scan of the account). */
const INDEXED = new Set(['c.email', 'c.first_name', 'c.last_name']);

export type ContactSearch = 'scan' | 'index';

/** Whether a search of `column` (a `c.` column) for `term` reads SQLite's trigram table. */
export function contactSearchMode(db: Db, column: string, term: string): ContactSearch {
  return db.dialect === 'sqlite' && INDEXED.has(column) && [...term].length >= 3 && !/[\\%_]/.test(term)
    ? 'index'
    : 'scan';
}

/** The condition on `contacts as c` for `column` containing `term`. */
export function contactMatches(mode: ContactSearch, column: string, term: string): RawBuilder<SqlBool> {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  const like = sql<SqlBool>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
  if (mode === 'scan') return like;
  const field = sql.raw(column.slice(2));
  return sql<SqlBool>`c.id in (select cast(rowid as text) from contacts_text where ${field} like ${pattern}) and ${like}`;
}

/** A column of `contacts as c` for the list's conditions. With the trigram table it is written
 * `+c.column`, which no index serves: the planner would otherwise walk the account's index (all of
 * it) and test each contact against the matches, rather than start from the matches. */
export function contactColumn(mode: ContactSearch, column: 'owner_id' | 'status'): RawBuilder<string> {
  return mode === 'index' ? sql<string>`+c.${sql.raw(column)}` : sql<string>`c.${sql.raw(column)}`;
}
