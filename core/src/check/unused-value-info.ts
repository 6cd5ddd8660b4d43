// `unused-value-info`: a value_info entry for a name that nothing in its graph (or function
// body) defines or reads: no input, output, initializer, and no node of the body or of a nested
// subgraph. It describes a value that is not there, usually one left after its node was removed.
import type { FunctionProto, GraphProto, NodeProto, ValueInfoProto } from "../../../proto/src/index.js";
import { ChildWhere, NodeWhere, type Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";

/** Every name the nodes read or write, subgraphs included (a subgraph may read an outer value). */
function addNodeNames(nodes: readonly NodeProto[], names: Set<string>): void {
  for (const n of nodes) {
    for (const x of n.input) names.add(x);
    for (const x of n.output) names.add(x);
    for (const a of n.attribute) {
      if (a.g) addGraphNames(a.g, names);
      for (const g of a.graphs) addGraphNames(g, names);
    }
  }
}

function addGraphNames(g: GraphProto, names: Set<string>): void {
  for (const vi of g.input) names.add(vi.name);
  for (const vi of g.output) names.add(vi.name);
  for (const t of g.initializer) names.add(t.name);
  for (const s of g.sparseInitializer) names.add(s.values?.name ?? "");
  addNodeNames(g.node, names);
}

function report(valueInfo: readonly ValueInfoProto[], names: ReadonlySet<string>, where: Where, out: Emitter): void {
  for (const vi of valueInfo)
    if (!names.has(vi.name))
      out.emit(
        "unused-value-info",
        `value_info '${vi.name}' describes a value that no node, input, output or initializer has`,
        vi,
        new ChildWhere(where, "value_info", vi.name),
        "name",
      );
}

/** Checks `g` and every graph nested in it, each against its own names. */
export function checkUnusedValueInfos(g: GraphProto, where: Where, out: Emitter): void {
  if (g.valueInfo.length > 0) {
    const names = new Set<string>();
    addGraphNames(g, names);
    report(g.valueInfo, names, where, out);
  }
  g.node.forEach((n, i) => {
    for (const a of n.attribute) {
      const at = new ChildWhere(new NodeWhere(where, n, i), "attribute", a.name);
      if (a.g) checkUnusedValueInfos(a.g, at, out);
      a.graphs.forEach((sub, j) => checkUnusedValueInfos(sub, `${at}[${j}]`, out));
    }
  });
}

export function checkUnusedFunctionValueInfos(fn: FunctionProto, where: Where, out: Emitter): void {
  if (fn.valueInfo.length === 0) return;
  const names = new Set<string>([...fn.input, ...fn.output]);
  addNodeNames(fn.node, names);
  report(fn.valueInfo, names, where, out);
}
