// Lists: narrowing a string to one of a fixed list of names (plans, regions, include values) without a
// cast, and cutting a list into runs.

/** Whether `value` is one of `list`'s names (and so has its type). */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((name) => name === value);
}

/** `items` in runs of at most `size` (statements with one parameter per item stay under the
 * databases' parameter limits). */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
