// Hover: a value's type, shape, producer and last computed value; an operator's signature at
// the imported opset; an attribute's type and default.
import type { Name, OpNode } from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { pathAt } from "../../../grammar/src/ast-walk.js";
import { schemaOfNode } from "./opsets.js";
import { attributeText, schemaMarkdown } from "./schema-text.js";
import { opKey, type SymbolInfo } from "./symbols.js";

interface HoverResult {
  readonly span: Span;
  readonly markdown: string;
}

export function hover(a: Analysis, offset: number): HoverResult | undefined {
  if (!a.ast) return undefined;
  const path = pathAt(a.ast, offset);
  const leaf = path[path.length - 1];
  if (!leaf || leaf.kind !== "Name") return undefined;
  const parent = path[path.length - 2];
  const grandparent = path[path.length - 3];
  if (parent?.kind === "OpName" && parent.opType === leaf && grandparent?.kind === "Node") {
    return opHover(a, grandparent, leaf);
  }
  if (parent?.kind === "Attribute" && parent.name === leaf && grandparent?.kind === "AttributeList") {
    const node = path[path.length - 4];
    if (node?.kind === "Node") return attributeHover(a, node, leaf);
  }
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return undefined;
  if (occ.symbol.kind === "value") return { span: occ.span, markdown: valueMarkdown(a, occ.symbol) };
  if (occ.symbol.kind === "function" && occ.symbol.func) {
    return { span: occ.span, markdown: functionMarkdown(a, occ.symbol) };
  }
  return { span: occ.span, markdown: `**${occ.symbol.name}**: function attribute parameter` };
}

function valueMarkdown(a: Analysis, sym: SymbolInfo): string {
  const type = a.typeOf(sym);
  const lines = ["```onnxtxt", type ? `${type} ${sym.name}` : sym.name, "```", type ? (sym.declaredType ? "declared type" : "inferred type") : "type unknown"];
  const p = sym.producer;
  if (!p) lines.push("", "**undefined**: no input, initializer or node output has this name in scope");
  else if (p.kind === "input") lines.push("", "graph input");
  else if (p.kind === "initializer") lines.push("", "initializer");
  else {
    const key = opKey(p.node);
    const op = key.domain ? `${key.domain}.${key.name}` : key.name;
    const label = p.node.label?.name?.value;
    lines.push("", `produced by \`${op}\`${label ? ` node \`${label}\`` : ""} (output ${p.index})`);
  }
  const value = runValueOf(a, sym);
  if (value !== undefined) lines.push("", "**value in the last run**", "```onnxtxt", value, "```");
  return lines.join("\n");
}

function runValueOf(a: Analysis, sym: SymbolInfo): string | undefined {
  const run = a.run;
  if (!run || !sym.scope) return undefined;
  const owner = sym.scope.owner;
  if ((owner.name?.value ?? "") !== run.graph) return undefined;
  return run.values.get(sym.name);
}

function functionMarkdown(a: Analysis, sym: SymbolInfo): string {
  const f = sym.func!;
  const header = f.span.start;
  const bodyStart = f.body?.span.start ?? f.span.end;
  const signature = a.text
    .slice(f.name?.span.start ?? header, bodyStart)
    .replace(/\s+/g, " ")
    .trim();
  const doc = f.header?.entries.find((e) => e.key.text === "doc_string")?.value;
  return ["```onnxtxt", signature, "```", "model-local function", ...(doc?.kind === "Str" ? ["", doc.value] : [])].join("\n");
}

function opHover(a: Analysis, node: OpNode, leaf: Name): HoverResult | undefined {
  const callee = a.symbols.calledFunction(node);
  if (callee) return { span: leaf.span, markdown: functionMarkdown(a, callee) };
  const found = schemaOfNode(a.ast, node);
  const op = node.op ? a.text.slice(node.op.span.start, node.op.span.end) : leaf.value;
  if (found.version === undefined) {
    return { span: leaf.span, markdown: `\`${op}\`: the domain \`${found.domain || "ai.onnx"}\` is not imported (opset_import)` };
  }
  if (!found.schema) {
    return { span: leaf.span, markdown: `\`${op}\`: no such operator at opset ${found.version} of \`${found.domain || "ai.onnx"}\`` };
  }
  return { span: leaf.span, markdown: schemaMarkdown(found.schema, found.version) };
}

function attributeHover(a: Analysis, node: OpNode, leaf: Name): HoverResult | undefined {
  const callee = a.symbols.calledFunction(node);
  if (callee?.func) {
    const param = callee.func.params?.items.find((p) => (p.kind === "Name" ? p : p.name)?.value === leaf.value);
    if (!param) return undefined;
    const text = a.text.slice(param.span.start, param.span.end);
    return { span: leaf.span, markdown: ["```onnxtxt", text, "```", `attribute of function \`${callee.name}\``].join("\n") };
  }
  const found = schemaOfNode(a.ast, node);
  const schemaAttr = found.schema?.attributes.get(leaf.value);
  if (!schemaAttr || !found.schema) return undefined;
  return {
    span: leaf.span,
    markdown: ["```onnxtxt", attributeText(schemaAttr), "```", `attribute of \`${found.schema.name}\` (since opset ${found.schema.sinceVersion})`].join("\n"),
  };
}
