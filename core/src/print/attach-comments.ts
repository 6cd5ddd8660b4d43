// Places the source's comments on AST nodes for the formatter: a comment inside a list goes
// before the item that follows it (own-line) or after the item it ends the line of
// (end-of-line); after a list's last item it stays inside the list ("dangling"). Only nodes
// the printer wraps are candidates, so no comment can be dropped.
import type * as A from "../../../grammar/src/ast.js";
import type { CommentPlacement } from "./comments.js";

type Node = A.AstNode;

/** Containers that print their dangling comments before the closing bracket. */
const DANGLING = new Set<string>([
  "Model",
  "Header",
  "OpsetList",
  "PropList",
  "ValueDeclList",
  "NodeBlock",
  "ParamList",
  "AttributeList",
  "List",
  "InlineData",
]);

function present<T>(xs: readonly (T | undefined)[]): T[] {
  return xs.filter((x): x is T => x !== undefined);
}

/** The children the printer prints with comments, in source order. */
function children(n: Node): Node[] {
  switch (n.kind) {
    case "Model":
      return present<Node>([n.header, n.graph, ...n.functions]);
    case "Header":
      return [...n.entries];
    case "HeaderEntry":
      return n.value && (n.value.kind === "OpsetList" || n.value.kind === "PropList") ? [n.value] : [];
    case "OpsetList":
    case "PropList":
    case "ValueDeclList":
    case "AttributeList":
    case "ParamList":
    case "List":
      return [...n.items];
    case "IdList":
      return [...n.items];
    case "Graph":
      return present<Node>([n.inputs, n.outputs, n.valueInfos, n.body]);
    case "Function":
      return present<Node>([n.header, n.params, n.inputs, n.outputs, n.valueInfos, n.body]);
    case "ValueDecl":
      return present<Node>([n.init]);
    case "InlineData":
      return Array.isArray(n.elements) ? [...(n.elements as readonly A.Literal[])] : [];
    case "ExternalData":
      return [n.props];
    case "NodeBlock":
      return [...n.nodes];
    case "Node":
      return present<Node>([n.label, n.outputs, n.op, n.attributes, n.inputs]);
    case "Attribute":
      return present<Node>([n.value]);
    case "TensorValue":
      return present<Node>([n.data]);
    default:
      return [];
  }
}

class Placement {
  readonly leading = new Map<Node, string[]>();
  readonly trailing = new Map<Node, string[]>();
  readonly dangling = new Map<Node, string[]>();
  readonly afterOpen = new Map<Node, string[]>();
  readonly blankBefore = new Set<Node>();

  add(map: Map<Node, string[]>, n: Node, text: string): void {
    const list = map.get(n) ?? [];
    list.push(text);
    map.set(n, list);
  }
}

function ownLine(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text[i];
    if (c === "\n" || c === "\r") return true;
    if (c !== " " && c !== "\t") return false;
  }
  return true;
}

function place(p: Placement, root: Node, comment: A.Comment, text: string): void {
  // Blanks at the end of a comment are invisible; some placements end the line right after the
  // comment and others do not, so keeping them would make a second format differ from the first.
  const c = { ...comment, text: comment.text.replace(/[ \t\r]+$/, "") };
  let container: Node = root;
  let kids = children(container);
  for (;;) {
    const inside = kids.find((k) => k.span.start < c.span.start && c.span.end <= k.span.end);
    if (!inside) break;
    const next = children(inside);
    if (next.length === 0 && !DANGLING.has(inside.kind)) {
      // A comment inside a leaf (a type, an op name): keep it at the end of that line.
      p.add(p.trailing, inside, c.text);
      return;
    }
    container = inside;
    kids = next;
  }
  const before = [...kids].reverse().find((k) => k.span.end <= c.span.start);
  const after = kids.find((k) => k.span.start >= c.span.end);
  const own = ownLine(text, c.span.start);
  if (own && after) p.add(p.leading, after, c.text);
  else if (!own && before) p.add(p.trailing, before, c.text);
  else if (!own && DANGLING.has(container.kind) && container.kind !== "Model") p.add(p.afterOpen, container, c.text);
  else if (!own && after) p.add(p.leading, after, c.text);
  else if (DANGLING.has(container.kind)) p.add(p.dangling, container, c.text);
  else if (before) p.add(p.trailing, before, c.text);
  else p.add(p.trailing, container, c.text);
}

const BLANK_LINE = /\n[ \t\r]*\n/;

function markBlankLines(p: Placement, nodes: readonly Node[], text: string): void {
  for (let i = 1; i < nodes.length; i++) {
    // Comments in the gap count as text: a blank line anywhere between the two nodes counts.
    const gap = text.slice(nodes[i - 1]!.span.end, nodes[i]!.span.start).replace(/#[^\n\r]*/g, "");
    if (BLANK_LINE.test(gap)) p.blankBefore.add(nodes[i]!);
  }
}

/** Places each comment on a node of `root`: a model, or a graph, function or node read on its own. */
export function attachComments(root: A.Model | A.Graph | A.FunctionDef | A.OpNode, comments: readonly A.Comment[], text: string): CommentPlacement {
  const p = new Placement();
  for (const c of comments) place(p, root, c, text);
  const visit = (n: Node): void => {
    if (n.kind === "NodeBlock") markBlankLines(p, n.nodes, text);
    for (const k of children(n)) visit(k);
  };
  visit(root);
  return p;
}
