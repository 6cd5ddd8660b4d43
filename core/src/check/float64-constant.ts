// `float64-constant`: a double initializer or Constant whose every use is a Cast to a narrower
// float. The model stores (and ships) twice the bytes to throw the precision away at run time;
// exporters write this when numpy's default float64 leaks into a float32 graph.
import type { GraphProto, NodeProto, TensorProto } from "../../../proto/src/index.js";
import { ChildWhere, type Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";

const DOUBLE = 11;
/** float, float16, bfloat16 */
const NARROWER = new Set([1, 10, 16]);

const isOnnx = (n: NodeProto): boolean => n.domain === "" || n.domain === "ai.onnx";

function castTarget(n: NodeProto): number | undefined {
  if (n.opType !== "Cast" || !isOnnx(n)) return undefined;
  const to = n.attribute.find((a) => a.name === "to");
  return to ? Number(to.i) : undefined;
}

function constantTensor(n: NodeProto): TensorProto | undefined {
  if (n.opType !== "Constant" || !isOnnx(n)) return undefined;
  return n.attribute.find((a) => a.name === "value")?.t;
}

export function checkFloat64Constants(g: GraphProto, where: Where, out: Emitter): void {
  // Most graphs have no double constant: then the map of every value's users is not built.
  if (!g.initializer.some((t) => t.dataType === DOUBLE) && !g.node.some((n) => constantTensor(n)?.dataType === DOUBLE)) return;
  const uses = new Map<string, NodeProto[]>();
  for (const n of g.node) {
    for (const x of n.input) {
      if (x === "") continue;
      const users = uses.get(x);
      if (users) users.push(n);
      else uses.set(x, [n]);
    }
  }
  const outputs = new Set(g.output.map((o) => o.name));
  const narrowedOnly = (name: string): number | undefined => {
    const users = uses.get(name) ?? [];
    if (users.length === 0 || outputs.has(name)) return undefined;
    const targets = new Set(users.map(castTarget));
    const [only] = targets;
    return targets.size === 1 && only !== undefined && NARROWER.has(only) ? only : undefined;
  };
  const inputs = new Set(g.input.map((i) => i.name));
  for (const t of g.initializer) {
    if (t.dataType !== DOUBLE || inputs.has(t.name) || narrowedOnly(t.name) === undefined) continue;
    out.emit(
      "float64-constant",
      `initializer '${t.name}' is float64 but only ever cast to a narrower float: store it in that type`,
      t,
      new ChildWhere(where, "initializer", t.name),
      "type",
    );
  }
  for (const n of g.node) {
    const t = constantTensor(n);
    if (t?.dataType !== DOUBLE || n.output.length !== 1 || narrowedOnly(n.output[0]!) === undefined) continue;
    out.emit(
      "float64-constant",
      `Constant '${n.output[0]}' is float64 but only ever cast to a narrower float: write it in that type`,
      n,
      new ChildWhere(where, "node", n.output[0]!),
      "whole",
    );
  }
}
