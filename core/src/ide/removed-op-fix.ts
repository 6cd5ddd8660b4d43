// The fix for an op removed at the imported opset (`op-not-in-opset` on Upsample at 10, Scatter
// at 11, ...): the node is read as written for the last opset that had the op and moved up
// through the opset step table (Upsample -> Resize), the rest of the model left as it is.
import type { Span } from "../../../grammar/src/span.js";
import type { NodeProto } from "../../../proto/src/index.js";
import { removedAt, convertRemovedNode } from "../opset/one-node.js";
import { printNode } from "../print-parts.js";
import { canonicalDomain } from "../schema/index.js";
import { walkModel } from "../walk.js";
import type { Analysis } from "./analysis.js";
import type { CodeAction } from "./code-actions.js";
import { opsetsAt } from "./opsets.js";

const overlaps = (a: Span, b: Span): boolean => a.start <= b.end && b.start <= a.end;

/** The innermost node whose statement holds `at`. */
function nodeAt(a: Analysis, at: number): { node: NodeProto; span: Span } | undefined {
  const model = a.model;
  const map = a.sourceMap;
  if (!model || !map) return undefined;
  let best: { node: NodeProto; span: Span } | undefined;
  const consider = (nodes: readonly NodeProto[]): void => {
    for (const node of nodes) {
      const span = map.get(node)?.whole;
      if (span && span.start <= at && at <= span.end && (!best || span.end - span.start < best.span.end - best.span.start)) best = { node, span };
    }
  };
  walkModel(model, { graph: (g) => consider(g.node) });
  for (const f of model.functions) consider(f.node);
  return best;
}

/** The new nodes printed in place of the statement at `span`, at its indentation. */
function printedAt(text: string, span: Span, nodes: readonly NodeProto[]): string | undefined {
  const lineStart = text.lastIndexOf("\n", span.start - 1) + 1;
  const indent = /^\s*/.exec(text.slice(lineStart, span.start))![0];
  try {
    return nodes.map((n) => printNode(n).trimEnd().split("\n").join(`\n${indent}`)).join(`\n${indent}`);
  } catch {
    return undefined; // a node that needs an extension comment to be written
  }
}

export function removedOpFixes(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    if (d.code !== "op-not-in-opset" || !d.span || !overlaps(d.span, range)) continue;
    const found = nodeAt(a, d.span.start);
    if (!found) continue;
    const { node, span } = found;
    const domain = canonicalDomain(node.domain);
    const removed = removedAt(domain, node.opType);
    const version = opsetsAt(a.ast, span.start).get(domain);
    // Only a removed op; one too new for the opset has the "raise opset_import" fix.
    if (removed === undefined || version === undefined || version < removed) continue;
    const r = convertRemovedNode(a.model!, node, version);
    const text = "nodes" in r ? printedAt(a.text, span, r.nodes) : undefined;
    if (!("nodes" in r) || text === undefined) {
      const reason = "refused" in r ? r.refused : "the new nodes cannot be written as text";
      out.push({ title: `Convert this ${node.opType} node to opset ${version}`, kind: "quickfix", edits: [], fixes: d.span, disabled: reason });
      continue;
    }
    const ops = [...new Set(r.nodes.filter((n) => n.opType !== "Constant").map((n) => n.opType))];
    out.push({
      title: `Convert this ${node.opType} node to ${ops.join(" + ") || "Constant"}`,
      kind: "quickfix",
      edits: [{ span, newText: text }],
      fixes: d.span,
    });
  }
  return out;
}
