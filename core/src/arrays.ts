// Array helpers for lists as long as the data: `a.push(...b)` and `Math.max(...b)` pass every
// element as an argument and overflow the stack past ~100k elements.

/** Appends every item of `items` to `target`. */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
  return target;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: ArrayLike<number>, empty = -Infinity): number {
  let m = empty;
  for (let i = 0; i < values.length; i++) if (values[i]! > m || Number.isNaN(values[i]!)) m = values[i]!;
  return values.length === 0 ? empty : m;
}
