// "Did you mean" suggestions, shared by the checker's messages and the editor's quick fixes so
// that every suggested name in a message is also offered as a fix.

/** Edit distance where swapping two neighbouring letters counts as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** Value names close to `name` (a third of its length in edits, at least one), closest first. */
export function closeValueNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const found: { name: string; d: number }[] = [];
  for (const c of candidates) {
    if (c === name || Math.abs(c.length - name.length) > limit) continue;
    const d = editDistance(name, c);
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
