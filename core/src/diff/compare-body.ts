// Two graphs (or function bodies) compared: inputs paired by name then by position, nodes by
// structure (match-nodes.ts), then initializers, outputs and value infos through the pairing
// of values that gives. Renamed values are reported once each, where they are defined.
import type { TensorProto, ValueInfoProto } from "../../../proto/src/index.js";
import { viewId, type Body, type BodyPaths } from "./body.js";
import { compareNodes } from "./compare-nodes.js";
import { checkDepth, type DiffContext } from "./context.js";
import { matchNodes } from "./match-nodes.js";
import type { SpanPick } from "./places.js";
import { compareTensors, tensorTypeText } from "./tensors.js";
import { typeText } from "./type-text.js";
import type { Change, ChangeKind, Place } from "./types.js";
import { ValueMap } from "./value-map.js";

/** Pairs list items by equal key, then the rest in order: [index in A, index in B]. */
function pairByKeyThenOrder<X, Y>(xs: readonly X[], ys: readonly Y[], keyA: (x: X) => string | undefined, keyB: (y: Y) => string): [number, number][] {
  const pairs: [number, number][] = [];
  const free = new Map<string, number>();
  ys.forEach((y, j) => {
    const k = keyB(y);
    if (!free.has(k)) free.set(k, j);
  });
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  xs.forEach((x, i) => {
    const k = keyA(x);
    const j = k === undefined ? undefined : free.get(k);
    if (j === undefined || usedB.has(j)) return;
    pairs.push([i, j]);
    usedA.add(i);
    usedB.add(j);
  });
  const restA = xs.map((_, i) => i).filter((i) => !usedA.has(i));
  const restB = ys.map((_, j) => j).filter((j) => !usedB.has(j));
  for (let k = 0; k < Math.min(restA.length, restB.length); k++) pairs.push([restA[k]!, restB[k]!]);
  return pairs.sort((p, q) => p[0] - q[0]);
}

interface Definition {
  readonly element: object;
  readonly pick?: SpanPick;
  readonly what: string;
  /** The box the graph view draws for it (an input, or the producing node). */
  readonly id?: string;
}

/** Where each value of a body is defined: an input, an initializer or a node's output. */
function definitions(body: Body, bodyId: string | undefined): Map<string, Definition> {
  const defs = new Map<string, Definition>();
  const withId = (d: Definition, id: string | undefined): Definition => (id === undefined ? d : { ...d, id });
  body.inputs.forEach((name, i) => {
    const info = body.inputInfo[i];
    defs.set(name, withId({ element: info ?? body.element, what: "input" }, viewId(bodyId, `in:${name}`)));
  });
  for (const t of body.initializers) if (!defs.has(t.name)) defs.set(t.name, { element: t, what: "initializer" });
  body.nodes.forEach((n, i) => {
    n.output.forEach((o, k) => {
      if (o !== "" && !defs.has(o)) defs.set(o, withId({ element: n, pick: (s) => s.outputs?.[k], what: "value" }, viewId(bodyId, `n${i}`)));
    });
  });
  return defs;
}

export function diffBody(cx: DiffContext, a: Body, b: Body, paths: BodyPaths, parent: ValueMap | undefined, depth: number): void {
  checkDepth(depth, paths.a);
  const values = new ValueMap(parent);
  const add = (kind: ChangeKind, message: string, pa?: Place, pb?: Place, extra: Partial<Change> = {}): void =>
    void cx.changes.push({ kind, message, ...(pa && { a: pa }), ...(pb && { b: pb }), ...extra });
  const field = (message: string) => add("graph-field", `${paths.a}: ${message}`, cx.a.place(paths.a, a.element), cx.b.place(paths.b, b.element));
  if (a.name !== b.name && !cx.ignoreNames) field(`name "${a.name}" -> "${b.name}"`);
  if (a.docString !== b.docString) field("doc_string changed");

  // inputs: by name, then by position
  const inputs = pairByKeyThenOrder(
    a.inputs,
    b.inputs,
    (x) => x,
    (y) => y,
  );
  for (const [i, j] of inputs) values.bind(a.inputs[i]!, b.inputs[j]!);

  // nodes by structure; unpaired initializers bind when the nodes that use them pair
  const aInit = new Map(a.initializers.map((t) => [t.name, t]));
  const bInit = new Map(b.initializers.map((t) => [t.name, t]));
  const matching = matchNodes(a.nodes, b.nodes, values, (x, y) => aInit.has(x) && bInit.has(y));
  // initializers nothing bound: by name
  for (const t of a.initializers) if (values.b(t.name) === undefined && bInit.has(t.name)) values.bind(t.name, t.name);

  compareInputs(cx, a, b, inputs, paths, add);
  compareInitializers(cx, a, b, values, paths, add);
  compareOutputs(cx, a, b, values, paths, add);
  compareValueInfos(cx, a, b, values, paths, add);
  recordRenames(cx, b, values);
  if (!cx.ignoreNames) reportRenames(cx, a, b, values, paths, add);
  compareNodes(cx, a.nodes, b.nodes, matching, values, paths, (ga, gb, sub) => diffBody(cx, ga, gb, sub, values, depth + 1));
}

type Add = (kind: ChangeKind, message: string, pa?: Place, pb?: Place, extra?: Partial<Change>) => void;

function infoPlace(cx: DiffContext, side: "a" | "b", path: string, info: object | undefined, owner: object, id: string | undefined): Place {
  return cx[side].place(path, info ?? owner, undefined, id);
}

function compareInputs(cx: DiffContext, a: Body, b: Body, pairs: readonly [number, number][], paths: BodyPaths, add: Add): void {
  const pa = (i: number) => infoPlace(cx, "a", `${paths.a} / input ${i} ${a.inputs[i]}`, a.inputInfo[i], a.element, viewId(paths.idA, `in:${a.inputs[i]}`));
  const pb = (j: number) => infoPlace(cx, "b", `${paths.b} / input ${j} ${b.inputs[j]}`, b.inputInfo[j], b.element, viewId(paths.idB, `in:${b.inputs[j]}`));
  const usedB = new Set(pairs.map((p) => p[1]));
  const usedA = new Set(pairs.map((p) => p[0]));
  a.inputs.forEach((name, i) => {
    if (!usedA.has(i)) add("input-removed", `${paths.a}: input ${name} removed`, pa(i));
  });
  b.inputs.forEach((name, j) => {
    if (!usedB.has(j)) add("input-added", `${paths.b}: input ${name} added: ${typeText(b.inputInfo[j]?.type)}`, undefined, pb(j));
  });
  for (const [i, j] of pairs) {
    const ta = typeText(a.inputInfo[i]?.type);
    const tb = typeText(b.inputInfo[j]?.type);
    if (ta !== tb) add("input-type", `${paths.a}: input ${a.inputs[i]}: type ${ta} -> ${tb}`, pa(i), pb(j));
  }
}

/** Takes items by name, each once: duplicated names pair in order. */
function byNameOnce<T extends { name: string }>(items: readonly T[]): (name: string) => T | undefined {
  const queues = new Map<string, T[]>();
  for (const t of items) {
    const q = queues.get(t.name);
    if (q) q.push(t);
    else queues.set(t.name, [t]);
  }
  return (name) => queues.get(name)?.shift();
}

function compareInitializers(cx: DiffContext, a: Body, b: Body, values: ValueMap, paths: BodyPaths, add: Add): void {
  const take = byNameOnce(b.initializers);
  const seen = new Set<TensorProto>();
  const pa = (t: TensorProto) => cx.a.place(`${paths.a} / initializer ${t.name}`, t);
  const pb = (t: TensorProto) => cx.b.place(`${paths.b} / initializer ${t.name}`, t);
  for (const t of a.initializers) {
    const other = take(values.b(t.name) ?? "");
    if (!other) {
      add("initializer-removed", `${paths.a}: initializer ${t.name} removed (${tensorTypeText(t)})`, pa(t));
      continue;
    }
    seen.add(other);
    const c = compareTensors(t, other, cx.tensors);
    if (c) add("initializer-changed", `${paths.a}: initializer ${t.name}: ${c.line}`, pa(t), pb(other), c.difference ? { tensor: c.difference } : {});
    if (t.docString !== other.docString) add("initializer-changed", `${paths.a}: initializer ${t.name}: doc_string changed`, pa(t), pb(other));
  }
  for (const t of b.initializers)
    if (!seen.has(t)) add("initializer-added", `${paths.b}: initializer ${t.name} added (${tensorTypeText(t)})`, undefined, pb(t));
}

function compareOutputs(cx: DiffContext, a: Body, b: Body, values: ValueMap, paths: BodyPaths, add: Add): void {
  const pairs = pairByKeyThenOrder(
    a.outputs,
    b.outputs,
    (x) => values.b(x) ?? x,
    (y) => y,
  );
  const pa = (i: number) =>
    infoPlace(cx, "a", `${paths.a} / output ${i} ${a.outputs[i]}`, a.outputInfo[i], a.element, viewId(paths.idA, `out:${a.outputs[i]}`));
  const pb = (j: number) =>
    infoPlace(cx, "b", `${paths.b} / output ${j} ${b.outputs[j]}`, b.outputInfo[j], b.element, viewId(paths.idB, `out:${b.outputs[j]}`));
  const usedA = new Set(pairs.map((p) => p[0]));
  const usedB = new Set(pairs.map((p) => p[1]));
  a.outputs.forEach((name, i) => {
    if (!usedA.has(i)) add("output-removed", `${paths.a}: output ${name} removed`, pa(i));
  });
  b.outputs.forEach((name, j) => {
    if (!usedB.has(j)) add("output-added", `${paths.b}: output ${name} added: ${typeText(b.outputInfo[j]?.type)}`, undefined, pb(j));
  });
  for (const [i, j] of pairs) {
    const x = a.outputs[i]!;
    const y = b.outputs[j]!;
    const mapped = values.b(x);
    if (mapped === undefined && values.a(y) === undefined && x === y) {
      // both unpaired with the same name (e.g. produced by a removed and an added node): same output
    } else if (mapped !== y) add("output-source", `${paths.a}: output ${i} is now ${y} (was ${x})`, pa(i), pb(j));
    const ta = typeText(a.outputInfo[i]?.type);
    const tb = typeText(b.outputInfo[j]?.type);
    if (ta !== tb) add("output-type", `${paths.a}: output ${x}: type ${ta} -> ${tb}`, pa(i), pb(j));
  }
}

function compareValueInfos(cx: DiffContext, a: Body, b: Body, values: ValueMap, paths: BodyPaths, add: Add): void {
  const take = byNameOnce(b.valueInfo);
  const seen = new Set<ValueInfoProto>();
  const pa = (v: ValueInfoProto) => cx.a.place(`${paths.a} / value_info ${v.name}`, v);
  const pb = (v: ValueInfoProto) => cx.b.place(`${paths.b} / value_info ${v.name}`, v);
  for (const v of a.valueInfo) {
    const other = take(values.b(v.name) ?? v.name);
    if (!other) {
      add("value-info-removed", `${paths.a}: value_info ${v.name} removed (${typeText(v.type)})`, pa(v));
      continue;
    }
    seen.add(other);
    const ta = typeText(v.type);
    const tb = typeText(other.type);
    if (ta !== tb) add("value-info-type", `${paths.a}: value_info ${v.name}: type ${ta} -> ${tb}`, pa(v), pb(other));
  }
  for (const v of b.valueInfo) if (!seen.has(v)) add("value-info-added", `${paths.b}: value_info ${v.name} added: ${typeText(v.type)}`, undefined, pb(v));
}

function recordRenames(cx: DiffContext, b: Body, values: ValueMap): void {
  const names = new Map<string, string>();
  for (const [x, y] of values.own()) if (x !== y) names.set(y, x);
  if (names.size > 0) cx.renames.set(b.element, names);
}

function reportRenames(cx: DiffContext, a: Body, b: Body, values: ValueMap, paths: BodyPaths, add: Add): void {
  if (!cx.renames.has(b.element)) return;
  const defA = definitions(a, paths.idA);
  const defB = definitions(b, paths.idB);
  for (const [x, y] of values.own()) {
    if (x === y) continue;
    const da = defA.get(x);
    const db = defB.get(y);
    const pa = cx.a.place(`${paths.a} / value ${x}`, da?.element, da?.pick, da?.id);
    const pb = cx.b.place(`${paths.b} / value ${y}`, db?.element, db?.pick, db?.id);
    add("value-renamed", `${da?.what ?? "value"} ${x} renamed to ${y}`, pa, pb, { from: x, to: y });
  }
}
