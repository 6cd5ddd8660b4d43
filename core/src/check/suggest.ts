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

/**
 * Which characters a name has, folded into 32 classes (code mod 32). One edit changes at most two
 * of the bits (a substitution takes one class away and brings one), so names whose bits differ
 * in more than 2k places are more than k edits apart: a test far cheaper than the distance.
 */
function characterClasses(s: string): number {
  let bits = 0;
  for (let i = 0; i < s.length; i++) bits |= 1 << (s.charCodeAt(i) & 31);
  return bits;
}

function bitCount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * Collects the `count` names closest to one name, one candidate at a time. Once it has that many,
 * the limit drops to the farthest of them: a candidate can then only win by being closer, so
 * most of the rest are turned away by the cheap test.
 */
export class CloseNames {
  /** A third of the name's length in edits, at least one (then the farthest name kept). */
  private limit: number;
  private readonly classes: number;
  /** The closest so far, closest first (then by name), at most `count`. */
  private readonly found: { name: string; d: number }[] = [];

  constructor(
    private readonly name: string,
    private readonly count = 3,
  ) {
    this.limit = Math.max(1, Math.floor(name.length / 3));
    this.classes = characterClasses(name);
  }

  /** A cheap first test (it never rejects a name within the limit), worth making before anything costlier. */
  mayFit(candidate: string): boolean {
    return (
      candidate !== this.name &&
      Math.abs(candidate.length - this.name.length) <= this.limit &&
      bitCount(characterClasses(candidate) ^ this.classes) <= 2 * this.limit
    );
  }

  consider(candidate: string): void {
    if (!this.mayFit(candidate)) return;
    const d = editDistance(this.name, candidate, this.limit);
    if (d > this.limit) return;
    const found = this.found;
    let at = found.length;
    while (at > 0 && (found[at - 1]!.d > d || (found[at - 1]!.d === d && found[at - 1]!.name.localeCompare(candidate) > 0))) at--;
    if (at >= this.count) return;
    found.splice(at, 0, { name: candidate, d });
    if (found.length > this.count) found.pop();
    if (found.length === this.count) this.limit = found[found.length - 1]!.d;
  }

  /** The closest names, closest first. */
  closest(): string[] {
    return this.found.map((c) => c.name);
  }
}

/** The text of a "did you mean" hint in a message, and how to read it back. */
export function didYouMean(name: string): string {
  return `did you mean '${name}'?`;
}

export const DID_YOU_MEAN = /did you mean '([^']+)'\?/;
