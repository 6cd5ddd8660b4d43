// diffModels: the model's own fields (IR version, opsets, producer, metadata), its main graph
// and its local functions, compared. Graphs and functions are matched by structure (see
// match-nodes.ts); the changes come in the order of the model's text.
import { create } from "@bufbuild/protobuf";
import { TensorProtoSchema, type FunctionProto, type ModelProto, type StringStringEntryProto, type TensorProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { externalRef, resolveExternalPath } from "../io/external-data.js";
import { compareAttributes } from "./attributes.js";
import { functionBody, graphBody } from "./body.js";
import { canonicalPlaces } from "./canonical.js";
import { diffBody } from "./compare-body.js";
import type { DiffContext } from "./context.js";
import { Places } from "./places.js";
import type { Change, DiffInput, DiffOptions, DiffResult, DiffSide, ExternalDataSource, Place, RemovedNode } from "./types.js";

const DEFAULT_CANONICAL_LIMIT = 100_000;

function sideOf(input: DiffInput): DiffSide {
  return "model" in input ? input : { model: input };
}

/** Reads a tensor's external data into a copy of it (the model itself is left as it is). */
function externalLoader(source: ExternalDataSource): (t: TensorProto) => TensorProto {
  return (t) => {
    const ref = externalRef(t);
    const bytes = source.read(resolveExternalPath(source.baseDir, ref.location), ref.offset, ref.length);
    if (ref.length !== undefined && bytes.length !== ref.length) throw new OnnxtxtError(`'${ref.location}' holds ${bytes.length} of ${ref.length} bytes`);
    return create(TensorProtoSchema, { name: t.name, dataType: t.dataType, dims: t.dims, rawData: bytes });
  };
}

function nodeCount(model: ModelProto): number {
  let n = 0;
  const stack = model.graph ? [model.graph] : [];
  for (const f of model.functions) n += f.node.length;
  for (let g = stack.pop(); g; g = stack.pop()) {
    n += g.node.length;
    for (const node of g.node) for (const a of node.attribute) stack.push(...(a.g ? [a.g] : []), ...a.graphs);
  }
  return n;
}

/**
 * A side's places: its own text, or its canonical text (binary input), printed when the first
 * change needs a place; past `limit` nodes, paths only (said in `notes`, when it comes to that).
 */
function placesOf(side: DiffSide, label: string, limit: number, notes: string[]): { places: Places; where: () => PlacesKind } {
  if (side.sourceMap) {
    const source = side.text !== undefined ? { map: side.sourceMap, text: side.text } : undefined;
    return { places: new Places(() => source), where: () => (source ? "input" : "paths") };
  }
  if (limit <= 0) return { places: new Places(() => undefined), where: () => "paths" };
  let kind: PlacesKind = "canonical";
  const places = new Places(() => {
    const nodes = nodeCount(side.model);
    if (nodes > limit) {
      kind = "paths";
      notes.push(`${label}: places are paths only (${nodes} nodes, more than the ${limit} for which the canonical text is printed and read back)`);
      return undefined;
    }
    const c = canonicalPlaces(side.model);
    if (c) return { map: c.sourceMap, text: c.text };
    kind = "paths";
    notes.push(`${label}: its printed text does not read back, so its places are paths only`);
    return undefined;
  });
  return { places, where: () => kind };
}

/** What the places of a side point into: the input's text, its canonical printed text, or nothing. */
export type PlacesKind = "input" | "canonical" | "paths";

export interface ModelDiff extends DiffResult {
  readonly placesA: PlacesKind;
  readonly placesB: PlacesKind;
}

/**
 * Compares two models and lists what changed, matching nodes by structure so that renamed values
 * and reordered nodes read as renames and moves. `a` and `b` are models, or `{ model, text,
 * sourceMap }` for text input (places then have lines and columns in that text).
 */
export function diffModels(a: DiffInput, b: DiffInput, options: DiffOptions = {}): ModelDiff {
  return compareModels(a, b, options).diff;
}

/**
 * diffModels, with the renames found in each body of B (for the unified diff, which undoes them)
 * and the removed nodes wired into B's graph view (for its diff mode).
 */
export function compareModels(
  a: DiffInput,
  b: DiffInput,
  options: DiffOptions = {},
): { diff: ModelDiff; renames: ReadonlyMap<object, ReadonlyMap<string, string>>; removed: readonly RemovedNode[] } {
  const sa = sideOf(a);
  const sb = sideOf(b);
  const notes: string[] = [];
  const limit = options.canonicalPlacesUpTo ?? DEFAULT_CANONICAL_LIMIT;
  const pa = placesOf(sa, "A", limit, notes);
  const pb = placesOf(sb, "B", limit, notes);
  const cx: DiffContext = {
    ignoreNames: options.ignoreNames ?? false,
    tensors: {
      rtol: options.rtol ?? 0,
      atol: options.atol ?? 0,
      ignoreWeights: options.ignoreWeights ?? false,
      ...(sa.externalData && { loadA: externalLoader(sa.externalData) }),
      ...(sb.externalData && { loadB: externalLoader(sb.externalData) }),
      note: (m) => void (notes.includes(m) || notes.push(m)),
    },
    a: pa.places,
    b: pb.places,
    changes: [],
    renames: new Map(),
    removed: [],
  };
  compareModelFields(cx, sa.model, sb.model);
  const ga = sa.model.graph;
  const gb = sb.model.graph;
  if (ga && gb) diffBody(cx, graphBody(ga), graphBody(gb), { a: "main", b: "main", idA: "main", idB: "main" }, undefined, 0);
  else if (ga || gb) cx.changes.push({ kind: "model-field", message: ga ? "the graph was removed" : "a graph was added" });
  compareFunctions(cx, sa.model.functions, sb.model.functions);
  const sparse = (m: ModelProto) => m.graph?.sparseInitializer.length ?? 0;
  if (sparse(sa.model) + sparse(sb.model) > 0) notes.push(`sparse initializers are not compared (A has ${sparse(sa.model)}, B ${sparse(sb.model)})`);
  if (sa.model.trainingInfo.length + sb.model.trainingInfo.length > 0)
    notes.push(`training_info is not compared (A has ${sa.model.trainingInfo.length}, B ${sb.model.trainingInfo.length})`);
  return {
    diff: { equal: cx.changes.length === 0, changes: cx.changes, notes, placesA: pa.where(), placesB: pb.where() },
    renames: cx.renames,
    removed: cx.removed,
  };
}

function compareModelFields(cx: DiffContext, a: ModelProto, b: ModelProto): void {
  // places are made only for a change (a binary side's canonical text is printed for them)
  type Where = () => Place;
  const pa: Where = () => cx.a.place("model", a);
  const pb: Where = () => cx.b.place("model", b);
  const push = (c: Omit<Change, "a" | "b">, x: Where = pa, y: Where = pb): void => void cx.changes.push({ ...c, a: x(), b: y() });
  if (a.irVersion !== b.irVersion) push({ kind: "ir-version", message: `ir_version ${a.irVersion} -> ${b.irVersion}` });
  const fields = [
    ["producer_name", a.producerName, b.producerName],
    ["producer_version", a.producerVersion, b.producerVersion],
    ["domain", a.domain, b.domain],
    ["model_version", String(a.modelVersion), String(b.modelVersion)],
    ["doc_string", a.docString, b.docString],
  ] as const;
  for (const [name, x, y] of fields) if (x !== y) push({ kind: "model-field", message: `${name} ${JSON.stringify(x)} -> ${JSON.stringify(y)}` });
  const opsB = new Map(b.opsetImport.map((o) => [o.domain, o]));
  const opsA = new Map(a.opsetImport.map((o) => [o.domain, o]));
  const domain = (d: string) => (d === "" ? '""' : `"${d}"`);
  const at =
    (side: "a" | "b", o: object & { domain: string }): Where =>
    () =>
      cx[side].place(`model / opset_import ${domain(o.domain)}`, o);
  for (const o of a.opsetImport) {
    const other = opsB.get(o.domain);
    if (!other) push({ kind: "opset", message: `opset_import ${domain(o.domain)} : ${o.version} removed` }, at("a", o), pb);
    else if (other.version !== o.version)
      push({ kind: "opset", message: `opset_import ${domain(o.domain)} : ${o.version} -> ${other.version}` }, at("a", o), at("b", other));
  }
  for (const o of b.opsetImport)
    if (!opsA.has(o.domain)) push({ kind: "opset", message: `opset_import ${domain(o.domain)} : ${o.version} added` }, pa, at("b", o));
  compareMetadata(a.metadataProps, b.metadataProps, (message) => push({ kind: "metadata", message }));
}

function compareMetadata(a: readonly StringStringEntryProto[], b: readonly StringStringEntryProto[], report: (message: string) => void): void {
  const mb = new Map(b.map((e) => [e.key, e.value]));
  const ma = new Map(a.map((e) => [e.key, e.value]));
  for (const [k, v] of ma) {
    const w = mb.get(k);
    if (w === undefined) report(`metadata ${JSON.stringify(k)} removed (was ${JSON.stringify(v)})`);
    else if (w !== v) report(`metadata ${JSON.stringify(k)}: ${JSON.stringify(v)} -> ${JSON.stringify(w)}`);
  }
  for (const [k, w] of mb) if (!ma.has(k)) report(`metadata ${JSON.stringify(k)} added: ${JSON.stringify(w)}`);
}

function functionKey(f: FunctionProto): string {
  return `${f.domain}\u0000${f.name}\u0000${f.overload}`;
}

function functionName(f: FunctionProto): string {
  const base = f.domain ? `${f.domain}.${f.name}` : f.name;
  return f.overload ? `${base}:${f.overload}` : base;
}

function compareFunctions(cx: DiffContext, as: readonly FunctionProto[], bs: readonly FunctionProto[]): void {
  const byKey = new Map(bs.map((f) => [functionKey(f), f]));
  const seen = new Set<FunctionProto>();
  for (const f of as) {
    const path = `function ${functionName(f)}`;
    const g = byKey.get(functionKey(f));
    if (!g) {
      cx.changes.push({ kind: "function-removed", message: `${path} removed`, a: cx.a.place(path, f) });
      continue;
    }
    seen.add(g);
    const field = (message: string) =>
      void cx.changes.push({ kind: "graph-field", message: `${path}: ${message}`, a: cx.a.place(path, f), b: cx.b.place(path, g) });
    if (f.attribute.join(",") !== g.attribute.join(",")) field(`attributes [${f.attribute.join(", ")}] -> [${g.attribute.join(", ")}]`);
    const opsA = f.opsetImport.map((o) => `${o.domain}:${o.version}`).join(", ");
    const opsB = g.opsetImport.map((o) => `${o.domain}:${o.version}`).join(", ");
    if (opsA !== opsB) field(`opset_import [${opsA}] -> [${opsB}]`);
    compareMetadata(f.metadataProps, g.metadataProps, field);
    for (const line of compareAttributes(f.attributeProto, g.attributeProto, cx.tensors).lines) field(`default ${line}`);
    diffBody(cx, functionBody(f), functionBody(g), { a: path, b: path }, undefined, 0);
  }
  for (const g of bs) {
    if (seen.has(g)) continue;
    const path = `function ${functionName(g)}`;
    cx.changes.push({ kind: "function-added", message: `${path} added`, b: cx.b.place(path, g) });
  }
}
