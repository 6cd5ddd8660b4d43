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
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = last[j - 1]! + (ai === bj ? 0 : 1);
      const insert = row[j - 1]! + 1;
      if (insert < v) v = insert;
      const remove = last[j]! + 1;
      if (remove < v) v = remove;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj) {
        const swap = before[j - 2]! + 1;
        if (swap < v) v = swap;
      }
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

/** Collects the names close to one name, one candidate at a time. */
export class CloseNames {
  /** A third of the name's length in edits, at least one. */
  private readonly limit: number;
  private readonly found: { name: string; d: number }[] = [];

  constructor(private readonly name: string) {
    this.limit = Math.max(1, Math.floor(name.length / 3));
  }

  /** A cheap first test, worth making before anything costlier about the candidate. */
  mayFit(candidate: string): boolean {
    return candidate !== this.name && Math.abs(candidate.length - this.name.length) <= this.limit;
  }

  consider(candidate: string): void {
    if (!this.mayFit(candidate)) return;
    const d = editDistance(this.name, candidate, this.limit);
    if (d <= this.limit) this.found.push({ name: candidate, d });
  }

  /** The closest `count`, closest first. */
  closest(count = 3): string[] {
    return this.found
      .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
      .slice(0, count)
      .map((c) => c.name);
  }
}

/** Value names close to `name` (a third of its length in edits, at least one), closest first. */
export function closeValueNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  const close = new CloseNames(name);
  for (const c of candidates) close.consider(c);
  return close.closest(count);
}

/** The text of a "did you mean" hint in a message, and how to read it back. */
export function didYouMean(name: string): string {
  return `did you mean '${name}'?`;
}

export const DID_YOU_MEAN = /did you mean '([^']+)'\?/;
