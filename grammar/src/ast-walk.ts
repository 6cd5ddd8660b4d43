// Generic traversal of the syntax tree: children in source order, a pre-order walk, and the
// chain of nodes that enclose an offset. Generic over the node shapes so that a new AST field
// is visited without touching this file.
import type { AstNode } from "./ast.js";
import type { Span } from "./span.js";
import { finish } from "./steps.js";

function isNode(v: unknown): v is AstNode {
  return typeof v === "object" && v !== null && typeof (v as { kind?: unknown }).kind === "string" && "span" in v;
}

/** The direct children of a node, sorted by start offset. */
export function childrenOf(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  // for-in and a sortedness check instead of Object.entries and a sort: this runs once per
  // node of every whole-document walk (semantic tokens, folding) on 50k-node documents.
  let sorted = true;
  let last = -1;
  const push = (n: AstNode): void => {
    if (n.span.start < last) sorted = false;
    last = n.span.start;
    out.push(n);
  };
  const fields = node as unknown as Record<string, unknown>;
  for (const key in fields) {
    if (key === "span") continue;
    const value = fields[key];
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) push(item);
    } else if (isNode(value)) push(value);
  }
  if (!sorted) out.sort((a, b) => a.span.start - b.span.start);
  return out;
}

/**
 * The index of the statement in `nodes` (sorted, not overlapping) whose span holds `offset`, by
 * binary search; with `endInclusive`, an offset right after a statement counts as inside it.
 */
export function statementIndexAt(nodes: readonly { span: Span }[], offset: number, endInclusive = false): number | undefined {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const sp = nodes[mid]!.span;
    if (offset < sp.start) hi = mid - 1;
    else if (endInclusive ? offset > sp.end : offset >= sp.end) lo = mid + 1;
    else return mid;
  }
  return undefined;
}

/**
 * The children of `node` that overlap `range` (sharing at least one character; with `touching`,
 * also one that only ends where the range starts or the reverse). A statement list is searched,
 * not scanned: a walk over one statement of a 50k-node body stays short.
 */
export function childrenOverlapping(node: AstNode, range: Span, touching = false): AstNode[] {
  const { before, after } = sides(range, touching);
  if (node.kind !== "NodeBlock") return childrenOf(node).filter((k) => !before(k.span) && !after(k.span));
  const nodes = node.nodes;
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (!before(nodes[mid]!.span)) hi = mid;
    else lo = mid + 1;
  }
  const out: AstNode[] = [];
  for (let i = lo; i < nodes.length && !after(nodes[i]!.span); i++) out.push(nodes[i]!);
  return out;
}

/** Whether a span lies wholly before or wholly after `range` (see childrenOverlapping). */
function sides(range: Span, touching: boolean): { before: (s: Span) => boolean; after: (s: Span) => boolean } {
  return {
    before: (s) => (touching ? s.end < range.start : s.end <= range.start),
    after: (s) => (touching ? s.start > range.end : s.start >= range.end),
  };
}

/** Pre-order walk, in text order, of the nodes that overlap `range` (see childrenOverlapping). */
export function walkOverlapping(root: AstNode, range: Span, visit: (node: AstNode) => void, touching = false): void {
  const { before, after } = sides(range, touching);
  if (before(root.span) || after(root.span)) return;
  const stack: AstNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    visit(n);
    const kids = childrenOverlapping(n, range, touching);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/** Pre-order walk; `visit` returns false to skip a node's children. */
export function walkAst(node: AstNode, visit: (node: AstNode, parent: AstNode | undefined) => boolean | void): void {
  finish(walkAstSteps(node, visit, Infinity));
}

/**
 * walkAst in steps: it pauses (yields) after every `every` nodes visited, so that a server can
 * answer other requests between slices of a walk over a 50k-node document. `children` picks
 * the children to visit (all by default). `visit` also gets the grandparent.
 */
export function* walkAstSteps(
  node: AstNode,
  visit: (node: AstNode, parent: AstNode | undefined, grandparent: AstNode | undefined) => boolean | void,
  every = WALK_STEP,
  children: (node: AstNode) => AstNode[] = childrenOf,
): Generator<void, void, void> {
  const nodes: AstNode[] = [node];
  const parents: (AstNode | undefined)[] = [undefined];
  const grandparents: (AstNode | undefined)[] = [undefined];
  let left = every;
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const parent = parents.pop();
    const grandparent = grandparents.pop();
    if (--left <= 0) {
      left = every;
      yield;
    }
    if (visit(n, parent, grandparent) === false) continue;
    const kids = children(n);
    for (let i = kids.length - 1; i >= 0; i--) {
      nodes.push(kids[i]!);
      parents.push(n);
      grandparents.push(parent);
    }
  }
}

/** How many nodes a walk in steps visits between pauses: a fraction of a millisecond's work. */
export const WALK_STEP = 512;

/**
 * The nodes that enclose `offset`, outermost first. A node ending exactly at the offset counts,
 * so a cursor just after a name still finds the name.
 */
export function pathAt(root: AstNode, offset: number): AstNode[] {
  const path: AstNode[] = [];
  let current: AstNode | undefined = root;
  const at = { start: offset, end: offset };
  while (current && current.span.start <= offset && offset <= current.span.end) {
    path.push(current);
    // Searched, not scanned, in a statement list (a keystroke in a 50k-node body).
    const kids = childrenOverlapping(current, at, true);
    let next: AstNode | undefined;
    for (const k of kids) {
      if (k.span.start <= offset && offset <= k.span.end) {
        next = k;
        // Prefer the child that starts at the offset over one that ends there.
        if (k.span.start === offset || offset < k.span.end) break;
      }
    }
    current = next;
  }
  return path;
}

/** The innermost node of one of `kinds` on a path, with its index. */
export function innermost<K extends AstNode["kind"]>(path: readonly AstNode[], ...kinds: K[]): Extract<AstNode, { kind: K }> | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i]!;
    if ((kinds as string[]).includes(n.kind)) return n as Extract<AstNode, { kind: K }>;
  }
  return undefined;
}
