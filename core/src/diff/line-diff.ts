// Lines of two texts aligned (Myers' O(ND) algorithm after trimming the common ends) and
// written as a unified diff. Past `maxEdits` differences the middle is given as one
// replacement: still a correct diff, only a coarser one.

/** 0 kept, 1 removed (from A), 2 added (from B), for each line in order. */
export type LineOp = 0 | 1 | 2;

function myers(a: Int32Array, b: Int32Array, maxEdits: number): LineOp[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], dEnd: number, n: number, m: number): LineOp[] {
  const ops: LineOp[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!; // V before step d, indices k + d + 1
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(0);
      x--;
      y--;
    }
    ops.push(prevK === k + 1 ? 2 : 1);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push(0);
    x--;
    y--;
  }
  return ops.reverse();
}

export function diffLines(a: readonly string[], b: readonly string[], maxEdits = 20_000): LineOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ids = new Map<string, number>();
  const id = (s: string) => {
    let v = ids.get(s);
    if (v === undefined) ids.set(s, (v = ids.size));
    return v;
  };
  const ia = Int32Array.from(a.slice(start, endA), id);
  const ib = Int32Array.from(b.slice(start, endB), id);
  const middle = myers(ia, ib, maxEdits) ?? [...new Array<LineOp>(ia.length).fill(1), ...new Array<LineOp>(ib.length).fill(2)];
  const ops: LineOp[] = new Array<LineOp>(start).fill(0);
  for (const op of middle) ops.push(op);
  for (let i = endA; i < a.length; i++) ops.push(0);
  return ops;
}

/** The unified diff (`---`/`+++` headers, `@@` hunks with `context` lines around changes); "" when equal. */
export function unifiedText(a: readonly string[], b: readonly string[], labelA: string, labelB: string, context = 3): string {
  const ops = diffLines(a, b);
  const out: string[] = [];
  // positions in A and B before each op
  const posA = new Int32Array(ops.length + 1);
  const posB = new Int32Array(ops.length + 1);
  for (let i = 0; i < ops.length; i++) {
    posA[i + 1] = posA[i]! + (ops[i] === 2 ? 0 : 1);
    posB[i + 1] = posB[i]! + (ops[i] === 1 ? 0 : 1);
  }
  let i = 0;
  while (i < ops.length) {
    if (ops[i] === 0) {
      i++;
      continue;
    }
    // a hunk: from `context` lines before this change to `context` after the last change it joins
    const from = Math.max(0, i - context);
    let to = i;
    for (;;) {
      while (to < ops.length && ops[to] !== 0) to++;
      let kept = to;
      while (kept < ops.length && ops[kept] === 0 && kept - to < 2 * context) kept++;
      if (kept < ops.length && ops[kept] !== 0) to = kept;
      else {
        to = Math.min(ops.length, to + context);
        break;
      }
    }
    const lenA = posA[to]! - posA[from]!;
    const lenB = posB[to]! - posB[from]!;
    const range = (start: number, len: number) => (len === 1 ? `${start + 1}` : `${len === 0 ? start : start + 1},${len}`);
    if (out.length === 0) out.push(`--- ${labelA}`, `+++ ${labelB}`);
    out.push(`@@ -${range(posA[from]!, lenA)} +${range(posB[from]!, lenB)} @@`);
    for (let k = from; k < to; k++) {
      const op = ops[k];
      if (op === 0) out.push(` ${a[posA[k]!]}`);
      else if (op === 1) out.push(`-${a[posA[k]!]}`);
      else out.push(`+${b[posB[k]!]}`);
    }
    i = to;
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
