// Pairs of models with one known change each, made from the real networks in test/data/light
// and the node tests: the mutations are written here, plainly, so that a test can say what the
// diff must report and nothing else. (make-pairs.py makes the pairs whose oracle is onnx itself.)
import { clone } from "@bufbuild/protobuf";
import { AttributeProto_AttributeType, ModelProtoSchema, NodeProtoSchema, type GraphProto, type ModelProto, type NodeProto } from "../../proto/src/index.js";
import { create } from "@bufbuild/protobuf";

export function copy(model: ModelProto): ModelProto {
  return clone(ModelProtoSchema, model);
}

/** Every value of the main graph renamed to `v<k>`; returns the copy and the names (old -> new). */
export function renameAll(model: ModelProto): { model: ModelProto; names: ReadonlyMap<string, string> } {
  const out = copy(model);
  const g = out.graph!;
  const names = new Map<string, string>();
  const rename = (n: string): string => {
    if (n === "") return n;
    let v = names.get(n);
    if (v === undefined) names.set(n, (v = `v${names.size}`));
    return v;
  };
  for (const vi of [...g.input, ...g.output, ...g.valueInfo]) vi.name = rename(vi.name);
  for (const t of g.initializer) t.name = rename(t.name);
  for (const n of g.node) {
    n.input = n.input.map(rename);
    n.output = n.output.map(rename);
  }
  return { model: out, names };
}

function independent(a: NodeProto, b: NodeProto): boolean {
  return !a.output.some((o) => b.input.includes(o)) && !b.output.some((o) => a.input.includes(o));
}

/** Two adjacent independent nodes of different ops in the middle swapped; returns their ops. */
export function swapIndependent(model: ModelProto): { model: ModelProto; ops: [string, string] } {
  const out = copy(model);
  const nodes = out.graph!.node;
  for (let i = nodes.length >> 1; i + 1 < nodes.length; i++) {
    const [a, b] = [nodes[i]!, nodes[i + 1]!];
    if (a.opType === b.opType || !independent(a, b)) continue;
    nodes[i] = b;
    nodes[i + 1] = a;
    return { model: out, ops: [a.opType, b.opType] };
  }
  throw new Error("no two adjacent independent nodes");
}

/** The first element of the first INTS attribute of a node of `op` increased by 1; returns the node's name, the attribute, old and new values as the text syntax writes them. */
export function bumpIntsAttribute(model: ModelProto, op: string): { model: ModelProto; node: string; attribute: string; from: string; to: string } {
  const out = copy(model);
  for (const n of out.graph!.node) {
    if (n.opType !== op) continue;
    const a = n.attribute.find((x) => x.type === AttributeProto_AttributeType.INTS && x.ints.length > 0);
    if (!a) continue;
    const from = `[${a.ints.join(", ")}]`;
    a.ints = [a.ints[0]! + 1n, ...a.ints.slice(1)];
    return { model: out, node: n.name, attribute: a.name, from, to: `[${a.ints.join(", ")}]` };
  }
  throw new Error(`no ${op} node with an INTS attribute`);
}

/** An Identity inserted after the middle node of `op`, its consumers rewired; returns the new node's output. */
export function insertIdentity(model: ModelProto, op: string): { model: ModelProto; output: string; consumers: number } {
  const out = copy(model);
  const g: GraphProto = out.graph!;
  const ofOp = g.node.map((n, i) => [n, i] as const).filter(([n]) => n.opType === op);
  const [producer, at] = ofOp[ofOp.length >> 1]!;
  const value = producer.output[0]!;
  const inserted = `${value}_inserted`;
  let consumers = 0;
  for (const n of g.node)
    n.input = n.input.map((x) => {
      if (x !== value) return x;
      consumers++;
      return inserted;
    });
  g.node.splice(at + 1, 0, create(NodeProtoSchema, { opType: "Identity", input: [value], output: [inserted] }));
  return { model: out, output: inserted, consumers };
}

/** The first element of the then_branch's Constant tensor (float, stored as float_data or raw) changed. */
export function changeThenBranch(model: ModelProto): ModelProto {
  const out = copy(model);
  const ifNode = out.graph!.node.find((n) => n.opType === "If")!;
  const then = ifNode.attribute.find((a) => a.name === "then_branch")!.g!;
  const t = then.node[0]!.attribute.find((a) => a.name === "value")!.t!;
  if (t.floatData.length > 0) t.floatData[0] = t.floatData[0]! + 10;
  else {
    t.rawData = new Uint8Array(t.rawData); // clone shares the bytes with the original (a Buffer: slice would too)
    const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    view.setFloat32(0, view.getFloat32(0, true) + 10, true);
  }
  return out;
}
