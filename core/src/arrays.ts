// Array helpers for lists as long as the data: `a.push(...b)` and `Math.max(...b)` pass every
// element as an argument and overflow the stack past ~100k elements.

/** Appends every item of `items` to `target`. */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
  return target;
}

/**
 * The first index in [0, length) where `from(i)` holds, for a test that is false up to some
 * index and true from there on (a binary search over sorted data); `length` if it never holds.
 */
export function partitionPoint(length: number, from: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (from(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: ArrayLike<number>, empty = -Infinity): number {
  let m = empty;
  for (let i = 0; i < values.length; i++) if (values[i]! > m || Number.isNaN(values[i]!)) m = values[i]!;
  return values.length === 0 ? empty : m;
}
