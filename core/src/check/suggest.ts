// "Did you mean" suggestions, shared by the checker's messages and the editor's quick fixes so
// that every suggested name in a message is also offered as a fix.

/**
 * Edit distance where swapping two neighbouring letters counts as one edit. With `limit`, any
 * distance above it may be reported as limit + 1, found without finishing the table (a name
 * is compared with every value of a 50k-node graph).
 */
let scratch = new Int32Array(96);

export function editDistance(a: string, b: string, limit = Infinity): number {
  // Three rows of the usual table (the one before last is for the swap), reused across calls.
  if (scratch.length < 3 * (b.length + 1)) scratch = new Int32Array(3 * (b.length + 1) * 2);
  const w = b.length + 1;
  let before = scratch.subarray(0, w).fill(0);
  let last = scratch.subarray(w, 2 * w);
  for (let j = 0; j <= b.length; j++) last[j] = j;
  let row = scratch.subarray(2 * w, 3 * w);
  let lastLeast = 0;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      row[j] = v;
      if (v < least) least = v;
    }
    // Every way on passes through this row, or jumps over it from the last by a swap.
    if (least > limit && lastLeast + 1 > limit) return limit + 1;
    lastLeast = least;
    [before, last, row] = [last, row, before];
  }
  return Math.min(last[b.length]!, limit + 1);
}

/** Value names close to `name` (a third of its length in edits, at least one), closest first. */
export function closeValueNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const found: { name: string; d: number }[] = [];
  for (const c of candidates) {
    if (c === name || Math.abs(c.length - name.length) > limit) continue;
    const d = editDistance(name, c, limit);
    if (d <= limit) found.push({ name: c, d });
  }
  return found
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, count)
    .map((c) => c.name);
}

/** The text of a "did you mean" hint in a message, and how to read it back. */
export function didYouMean(name: string): string {
  return `did you mean '${name}'?`;
}

export const DID_YOU_MEAN = /did you mean '([^']+)'\?/;
