// A region's text as a model, so that every model feature (checking, inference, hover,
// completion, rename, the graph) reads it with the context onnx's parser gives it:
// - a graph gets a header with the default opsets (the newest, or the host's);
// - a function gets a model around it that imports what the function imports;
// - a node or a node list becomes the body of a function whose inputs are the names it reads
//   from outside, whose attributes are its `@name` references and whose outputs are what it
//   makes and does not read, so names defined outside the string are never errors.
// The wrapper is text before and after the region's; spans in it belong to no region.
import { walkAst } from "../../../grammar/src/ast-walk.js";
import type { AstNode, Header, NodeBlock } from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseFunction, parseGraph, parseNode } from "../../../grammar/src/index.js";
import type { Span } from "../../../grammar/src/span.js";
import { latestOpsetVersion } from "../schema/index.js";
import type { EmbeddedContext, EmbeddedKind } from "./types.js";

/** The domain of the function a node list is wrapped in (not one a model would use). */
export const WRAPPER_DOMAIN = "onnxtxt.embedded";

export interface FragmentModel {
  /** Model text holding the region's text. */
  readonly text: string;
  /** Where the region's text starts in `text`. */
  readonly offset: number;
  /** The region's text's length. */
  readonly length: number;
  /** Syntax errors of the region's own parse, when its kind has a stricter entry than the wrapper (a single node). */
  readonly syntax: readonly Diagnostic[];
}

interface FragmentSource {
  readonly kind: EmbeddedKind;
  readonly text: string;
  readonly context: EmbeddedContext;
}

const IR_VERSION = 10;

function quote(s: string): string {
  return JSON.stringify(s);
}

function imports(opset: number, domains: Iterable<string>): string {
  const entries = [`"" : ${opset}`];
  for (const d of domains) if (d !== "" && d !== "ai.onnx" && d !== WRAPPER_DOMAIN) entries.push(`${quote(d)} : ${latestOpsetVersion(d) ?? 1}`);
  return entries.join(", ");
}

/** The domains of the ops a tree calls (`com.microsoft.Foo` -> `com.microsoft`). */
function domainsOf(root: AstNode | undefined): Set<string> {
  const out = new Set<string>();
  if (root)
    walkAst(root, (n) => {
      if (n.kind === "OpName" && n.domain.length > 0) out.add(n.domain.map((d) => d.value).join("."));
    });
  return out;
}

export function fragmentModel(src: FragmentSource): FragmentModel {
  const opset = src.context.opset ?? latestOpsetVersion("") ?? 1;
  switch (src.kind) {
    case "model":
      return { text: src.text, offset: 0, length: src.text.length, syntax: [] };
    case "graph": {
      const prefix = `<ir_version: ${IR_VERSION}, opset_import: [${imports(opset, domainsOf(parseGraph(src.text).ast))}]>\n`;
      return wrapped(prefix, src.text, "");
    }
    case "function": {
      const fn = parseFunction(src.text).ast;
      const own = headerImports(fn?.header, src.text) ?? `"" : ${opset}`;
      const prefix = `<ir_version: ${IR_VERSION}, opset_import: [${own}]>\nembedded_host () => () {}\n`;
      return wrapped(prefix, src.text, "");
    }
    case "node": {
      const syntax = parseNode(src.text).diagnostics.filter((d) => d.severity === "error");
      return { ...nodeList(src.text, false, opset), syntax };
    }
    case "nodes":
      return nodeList(src.text, /^\s*(#[^\n]*\n\s*)*\{/.test(src.text), opset);
  }
}

function wrapped(prefix: string, text: string, suffix: string): FragmentModel {
  return { text: prefix + text + suffix, offset: prefix.length, length: text.length, syntax: [] };
}

/** The `opset_import: [...]` entries of a function header, as written. */
function headerImports(header: Header | undefined, text: string): string | undefined {
  const entry = header?.entries.find((e) => e.key.text === "opset_import");
  const list = entry?.value;
  if (!list || list.kind !== "OpsetList") return undefined;
  return list.items.map((e) => text.slice(e.span.start, e.span.end)).join(", ");
}

function nodeList(text: string, braced: boolean, opset: number): FragmentModel {
  const open = braced ? "" : "{\n";
  const close = braced ? "" : "\n}";
  const probe = parseFunction(`<domain: "${WRAPPER_DOMAIN}"> embedded_body () => () ${open}${text}${close}`).ast?.body;
  const uses = namesOf(probe);
  const domains = domainsOf(probe);
  const header = `<ir_version: ${IR_VERSION}, opset_import: [${imports(opset, domains)}, ${quote(WRAPPER_DOMAIN)} : 1]>\nembedded_host () => () {}\n`;
  const params = uses.params.size > 0 ? ` <${[...uses.params].join(", ")}>` : "";
  const fn = `<domain: ${quote(WRAPPER_DOMAIN)}, opset_import: [${imports(opset, domains)}]>\nembedded_body${params} (${[...uses.free].join(", ")}) => (${uses.outputs.join(", ")})\n`;
  return wrapped(header + fn + open, text, close);
}

interface Uses {
  /** Names read and not made inside (given by the host). */
  readonly free: Set<string>;
  /** Names made by top-level nodes and read by none. */
  readonly outputs: string[];
  /** `@name` attribute references. */
  readonly params: Set<string>;
}

/** Names are printed as the text syntax spells them (quoted when they are not identifiers). */
function spelled(name: string): string {
  return /^[A-Za-z_][\w]*$/.test(name) ? name : quote(name);
}

function namesOf(body: NodeBlock | undefined): Uses {
  const read = new Set<string>();
  const made = new Set<string>();
  const params = new Set<string>();
  if (body)
    walkAst(body, (n) => {
      if (n.kind === "Node") {
        for (const i of n.inputs?.items ?? []) if (i.kind === "Name" && i.value !== "") read.add(i.value);
        for (const o of n.outputs.items) if (o.kind === "Name" && o.value !== "") made.add(o.value);
      } else if (n.kind === "Graph") {
        for (const list of [n.inputs, n.valueInfos]) for (const d of list?.items ?? []) if (d.name) made.add(d.name.value);
      } else if (n.kind === "Ref" && n.name) params.add(spelled(n.name.value));
    });
  const free = new Set([...read].filter((r) => !made.has(r)).map(spelled));
  const outputs: string[] = [];
  for (const node of body?.nodes ?? [])
    for (const o of node.outputs.items) if (o.kind === "Name" && o.value !== "" && !read.has(o.value)) outputs.push(spelled(o.value));
  return { free, outputs, params };
}

/** Where a span of the model text falls in the region's text, or undefined when it is in the wrapper. */
export function regionSpan(f: FragmentModel, span: Span): Span | undefined {
  const start = span.start - f.offset;
  const end = span.end - f.offset;
  if (end < 0 || start > f.length) return undefined;
  return { start: Math.max(0, start), end: Math.min(f.length, Math.max(end, start)) };
}

/** A region offset in the model text. */
export function modelOffset(f: FragmentModel, regionOffset: number): number {
  return regionOffset + f.offset;
}
