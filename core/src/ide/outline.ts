// Document symbols (the outline) and the flat list used for workspace symbols.
import type { FunctionDef, Graph, OpNode, ValueDecl } from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { opKey } from "./symbols.js";
import { pushAll } from "../arrays.js";

export type OutlineKind = "graph" | "function" | "node" | "input" | "output" | "initializer";

export interface OutlineItem {
  readonly name: string;
  readonly detail?: string;
  readonly kind: OutlineKind;
  readonly span: Span;
  readonly selectionSpan: Span;
  readonly children: OutlineItem[];
}

export function documentOutline(a: Analysis): OutlineItem[] {
  const out: OutlineItem[] = [];
  if (a.ast?.graph) out.push(graphItem(a.ast.graph));
  for (const f of a.ast?.functions ?? []) out.push(functionItem(f));
  return out;
}

/** Every outline item, flattened, with the name of its container. */
export function flatOutline(items: readonly OutlineItem[], container?: string): { item: OutlineItem; container?: string }[] {
  const out: { item: OutlineItem; container?: string }[] = [];
  for (const item of items) {
    out.push(container === undefined ? { item } : { item, container });
    pushAll(out, flatOutline(item.children, item.name));
  }
  return out;
}

function graphItem(g: Graph): OutlineItem {
  const children: OutlineItem[] = [
    ...declItems(g.inputs?.items, (d) => (d.init ? "initializer" : "input")),
    ...declItems(
      g.valueInfos?.items.filter((d) => d.init),
      () => "initializer",
    ),
    ...declItems(g.outputs?.items, () => "output"),
    ...(g.body?.nodes ?? []).map(nodeItem),
  ];
  return {
    name: g.name?.value ?? "(graph)",
    kind: "graph",
    span: g.span,
    selectionSpan: g.name?.span ?? g.span,
    children,
  };
}

function functionItem(f: FunctionDef): OutlineItem {
  const children: OutlineItem[] = [
    ...declItems(f.inputs?.items, () => "input"),
    ...declItems(f.outputs?.items, () => "output"),
    ...(f.body?.nodes ?? []).map(nodeItem),
  ];
  const domain = f.header?.entries.find((e) => e.key.text === "domain")?.value;
  return {
    name: f.name?.value ?? "(function)",
    ...(domain?.kind === "Str" ? { detail: domain.value } : {}),
    kind: "function",
    span: f.span,
    selectionSpan: f.name?.span ?? f.span,
    children,
  };
}

function declItems(decls: readonly ValueDecl[] | undefined, kind: (d: ValueDecl) => OutlineKind): OutlineItem[] {
  return (decls ?? []).filter((d) => d.name).map((d) => ({ name: d.name!.value, kind: kind(d), span: d.span, selectionSpan: d.name!.span, children: [] }));
}

function nodeItem(n: OpNode): OutlineItem {
  const key = opKey(n);
  const op = key.domain ? `${key.domain}.${key.name}` : key.name;
  const outs = n.outputs.items.filter((o) => o.kind === "Name").map((o) => (o.kind === "Name" ? o.value : ""));
  const label = n.label?.name?.value;
  const subgraphs: OutlineItem[] = [];
  for (const attr of n.attributes?.items ?? []) {
    const v = attr.value;
    if (v?.kind === "Graph") subgraphs.push(graphItem(v));
    else if (v?.kind === "List") for (const item of v.items) if (item.kind === "Graph") subgraphs.push(graphItem(item));
  }
  return {
    name: label || outs.join(", ") || op || "(node)",
    detail: op,
    kind: "node",
    span: n.span,
    selectionSpan: n.op?.span ?? n.span,
    children: subgraphs,
  };
}
