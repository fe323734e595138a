// Random orders for respondents: a question's choices (its `sorting`) and a page's questions (the
// page's `sorting`), seeded per respondent (flow.ts pageView: the session's key) so a reload or
// Back shows the same order, and salted by the question or page id so two lists differ.
import type { PageSorting } from './question-schema.js';

/** A small deterministic generator (mulberry32) for seeded shuffles. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `items` in a respondent's order: `random` shuffled, `flip` reversed for half the respondents,
 * anything else as given; `ignore_last` keeps the last item last. Without a seed (the builder's
 * preview) the order is kept.
 */
export function respondentOrder<T>(
  items: readonly T[],
  sorting: { type: string; ignore_last?: boolean } | null | undefined,
  seed: number | undefined,
  salt: string,
): T[] {
  if (!sorting || seed === undefined || items.length < 2) return [...items];
  const pinned = sorting.ignore_last ? items.slice(-1) : [];
  let rest = sorting.ignore_last ? items.slice(0, -1) : [...items];
  if (sorting.type === 'flip' && seed % 2 === 1) rest.reverse();
  if (sorting.type === 'random') {
    const next = generator(seed + Number(salt.slice(-6)));
    rest = rest
      .map((x) => ({ x, k: next() }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);
  }
  return [...rest, ...pinned];
}

/**
 * A question's choices (or matrix rows) in the order its `sorting` gives a respondent: `random`
 * and `flip` as respondentOrder; `textasc`/`textdesc` by text, without case; `resp_count_asc`/
 * `resp_count_desc` by how many responses chose each so far (`counts`, by id; without them, or
 * on a tie, as listed: the sort is stable). `ignore_last` keeps the last item last.
 */
export function choiceOrder<T extends { id?: string; text: string }>(
  items: readonly T[],
  sorting: { type: string; ignore_last?: boolean } | null | undefined,
  seed: number | undefined,
  salt: string,
  counts?: ReadonlyMap<string, number>,
): T[] {
  if (!sorting || sorting.type === 'default' || items.length < 2) return [...items];
  if (sorting.type === 'random' || sorting.type === 'flip')
    return respondentOrder(items, sorting, seed, salt);
  const pinned = sorting.ignore_last ? items.slice(-1) : [];
  const rest = sorting.ignore_last ? items.slice(0, -1) : [...items];
  const text = (x: T) => x.text.toLocaleLowerCase();
  const chosen = (x: T) => (x.id === undefined ? 0 : (counts?.get(x.id) ?? 0));
  if (sorting.type === 'textasc') rest.sort((a, b) => text(a).localeCompare(text(b)));
  if (sorting.type === 'textdesc') rest.sort((a, b) => text(b).localeCompare(text(a)));
  if (counts && sorting.type === 'resp_count_asc') rest.sort((a, b) => chosen(a) - chosen(b));
  if (counts && sorting.type === 'resp_count_desc') rest.sort((a, b) => chosen(b) - chosen(a));
  return [...rest, ...pinned];
}

/** Whether a question's order depends on how often its choices were chosen. */
export const sortsByCount = (sorting: { type: string } | null | undefined): boolean =>
  sorting?.type === 'resp_count_asc' || sorting?.type === 'resp_count_desc';

/** A page's stored `sorting` column; `default` is kept as null (as listed). */
export function parseSorting(text: string | null): PageSorting | null {
  const s = text ? (JSON.parse(text) as PageSorting) : null;
  return s && s.type !== 'default' ? s : null;
}

/** The column's text for a page's `sorting` (null: as listed). */
export function sortingColumn(s: PageSorting | null | undefined): string | null {
  return s && s.type !== 'default'
    ? JSON.stringify({ type: s.type, ignore_last: s.ignore_last ?? false })
    : null;
}
