// Document symbols (the outline) and the flat list used for workspace symbols.
import type { FunctionDef, Graph, OpNode, ValueDecl } from "../../../grammar/src/ast.js";
import { copySpan, type Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { opKey } from "./symbols.js";
import { pushAll } from "../arrays.js";
import { finish } from "../../../grammar/src/steps.js";

export type OutlineKind = "graph" | "function" | "node" | "input" | "output" | "initializer";

export interface OutlineItem {
  readonly name: string;
  readonly detail?: string;
  readonly kind: OutlineKind;
  readonly span: Span;
  readonly selectionSpan: Span;
  readonly children: OutlineItem[];
}

/**
 * The outline, with at most `maxItems` items: a client shows a 50,000-node outline no better
 * than a 1,000-node one, and its size would make every request after an edit slow (VS Code
 * rebuilds its outline model after each edit). A graph or function whose items were cut says
 * so in its detail.
 */
export function documentOutline(a: Analysis, maxItems = Infinity): OutlineItem[] {
  return finish(documentOutlineSteps(a, maxItems));
}

/** documentOutline in steps: the same items, with pauses along a body's statements. */
export function* documentOutlineSteps(a: Analysis, maxItems = Infinity): Generator<void, OutlineItem[], void> {
  const budget = { left: maxItems };
  const out: OutlineItem[] = [];
  if (a.ast?.graph) out.push(yield* graphItem(a.ast.graph, budget));
  for (const f of a.ast?.functions ?? []) out.push(yield* functionItem(f, budget));
  return out;
}

/** How many statements the outline takes between pauses. */
const OUTLINE_STEP = 256;

interface Budget {
  left: number;
}

/** The items `make` gives for each of `xs` while the budget lasts; `cut` counts those left out. */
function* within<T>(budget: Budget, xs: readonly T[], make: (x: T) => OutlineItem | undefined, cut: { count: number }): Generator<void, OutlineItem[], void> {
  const out: OutlineItem[] = [];
  for (let i = 0; i < xs.length; i++) {
    if (i % OUTLINE_STEP === OUTLINE_STEP - 1) yield;
    if (budget.left <= 0) {
      cut.count += xs.length - i;
      break;
    }
    const item = make(xs[i]!);
    if (!item) continue;
    budget.left--;
    out.push(item);
  }
  return out;
}

/** A container's detail when some of its items were left out. */
function cutDetail(shown: number, cut: { count: number }, detail?: string): { detail?: string } {
  if (cut.count === 0) return detail === undefined ? {} : { detail };
  const note = `${shown} of ${shown + cut.count} items shown`;
  return { detail: detail === undefined ? note : `${detail}, ${note}` };
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

function* graphItem(g: Graph, budget: Budget): Generator<void, OutlineItem, void> {
  budget.left--;
  const cut = { count: 0 };
  const children: OutlineItem[] = [
    ...(yield* within(
      budget,
      g.inputs?.items ?? [],
      declItem((d) => (d.init ? "initializer" : "input")),
      cut,
    )),
    ...(yield* within(
      budget,
      (g.valueInfos?.items ?? []).filter((d) => d.init),
      declItem(() => "initializer"),
      cut,
    )),
    ...(yield* within(
      budget,
      g.outputs?.items ?? [],
      declItem(() => "output"),
      cut,
    )),
    ...(yield* within(budget, g.body?.nodes ?? [], (n) => nodeItem(n, budget), cut)),
  ];
  return {
    name: g.name?.value ?? "(graph)",
    ...cutDetail(children.length, cut),
    kind: "graph",
    span: copySpan(g.span),
    selectionSpan: copySpan(g.name?.span ?? g.span),
    children,
  };
}

function* functionItem(f: FunctionDef, budget: Budget): Generator<void, OutlineItem, void> {
  budget.left--;
  const cut = { count: 0 };
  const children: OutlineItem[] = [
    ...(yield* within(
      budget,
      f.inputs?.items ?? [],
      declItem(() => "input"),
      cut,
    )),
    ...(yield* within(
      budget,
      f.outputs?.items ?? [],
      declItem(() => "output"),
      cut,
    )),
    ...(yield* within(budget, f.body?.nodes ?? [], (n) => nodeItem(n, budget), cut)),
  ];
  const domain = f.header?.entries.find((e) => e.key.text === "domain")?.value;
  return {
    name: f.name?.value ?? "(function)",
    ...cutDetail(children.length, cut, domain?.kind === "Str" ? domain.value : undefined),
    kind: "function",
    span: copySpan(f.span),
    selectionSpan: copySpan(f.name?.span ?? f.span),
    children,
  };
}

function declItem(kind: (d: ValueDecl) => OutlineKind): (d: ValueDecl) => OutlineItem | undefined {
  return (d) => (d.name ? { name: d.name.value, kind: kind(d), span: copySpan(d.span), selectionSpan: copySpan(d.name.span), children: [] } : undefined);
}

function nodeItem(n: OpNode, budget: Budget): OutlineItem {
  const key = opKey(n);
  const op = key.domain ? `${key.domain}.${key.name}` : key.name;
  const outs = n.outputs.items.filter((o) => o.kind === "Name").map((o) => (o.kind === "Name" ? o.value : ""));
  const label = n.label?.name?.value;
  const subgraphs: OutlineItem[] = [];
  for (const attr of n.attributes?.items ?? []) {
    const v = attr.value;
    if (v?.kind === "Graph") subgraphs.push(finish(graphItem(v, budget)));
    else if (v?.kind === "List") for (const item of v.items) if (item.kind === "Graph") subgraphs.push(finish(graphItem(item, budget)));
  }
  return {
    name: label || outs.join(", ") || op || "(node)",
    detail: op,
    kind: "node",
    span: copySpan(n.span),
    selectionSpan: copySpan(n.op?.span ?? n.span),
    children: subgraphs,
  };
}
