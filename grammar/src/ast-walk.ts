// Generic traversal of the syntax tree: children in source order, a pre-order walk, and the
// chain of nodes that enclose an offset. Generic over the node shapes so that a new AST field
// is visited without touching this file.
import type { AstNode } from "./ast.js";

function isNode(v: unknown): v is AstNode {
  return typeof v === "object" && v !== null && typeof (v as { kind?: unknown }).kind === "string" && "span" in v;
}

/** The direct children of a node, sorted by start offset. */
export function childrenOf(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "span") continue;
    if (isNode(value)) out.push(value);
    else if (Array.isArray(value)) for (const item of value) if (isNode(item)) out.push(item);
  }
  if (out.length > 1) out.sort((a, b) => a.span.start - b.span.start);
  return out;
}

/** Pre-order walk; `visit` returns false to skip a node's children. */
export function walkAst(node: AstNode, visit: (node: AstNode, parent: AstNode | undefined) => boolean | void): void {
  const stack: [AstNode, AstNode | undefined][] = [[node, undefined]];
  while (stack.length > 0) {
    const [n, parent] = stack.pop()!;
    if (visit(n, parent) === false) continue;
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, n]);
  }
}

/**
 * The nodes that enclose `offset`, outermost first. A node ending exactly at the offset counts,
 * so a cursor just after a name still finds the name.
 */
export function pathAt(root: AstNode, offset: number): AstNode[] {
  const path: AstNode[] = [];
  let current: AstNode | undefined = root;
  while (current && current.span.start <= offset && offset <= current.span.end) {
    path.push(current);
    const kids = childrenOf(current);
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
export function innermost<K extends AstNode["kind"]>(
  path: readonly AstNode[],
  ...kinds: K[]
): Extract<AstNode, { kind: K }> | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i]!;
    if ((kinds as string[]).includes(n.kind)) return n as Extract<AstNode, { kind: K }>;
  }
  return undefined;
}
