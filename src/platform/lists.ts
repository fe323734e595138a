// Narrowing a string to one of a fixed list of names (plans, regions, include values), without a cast.

/** Whether `value` is one of `list`'s names (and so has its type). */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((name) => name === value);
}
