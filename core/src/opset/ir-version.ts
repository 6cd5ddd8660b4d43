// The IR version each opset of ai.onnx first shipped with (onnx's release table): a model moved
// up to opset N needs at least that IR version, and one moved down gets the lowest IR version
// that opset shipped with and its own features allow (runtimes that cap the opset cap the IR too).
import type { GraphProto, ModelProto } from "../../../proto/src/index.js";
import { walkModel } from "../walk.js";

const FIRST_OPSET_OF_IR: readonly (readonly [opset: number, ir: number])[] = [
  [1, 3],
  [9, 4],
  [10, 5],
  [11, 6],
  [12, 7],
  [15, 8],
  [19, 9],
  [21, 10],
  [23, 11],
  [24, 12],
  [25, 13],
];

export function minIrVersion(opset: number): number {
  let ir = 3;
  for (const [o, v] of FIRST_OPSET_OF_IR) if (opset >= o) ir = v;
  return ir;
}

/** The first IR version that has each element type (float8 at 9, 4-bit at 10, float4 at 11, 2-bit and float8e8m0 at 12). */
const TYPE_IR: Readonly<Record<number, number>> = { 17: 9, 18: 9, 19: 9, 20: 9, 21: 10, 22: 10, 23: 11, 24: 12, 25: 12, 26: 12 };

/** The least IR version the model's own features need: initializers outside the inputs (4), functions (8), newer element types. */
export function neededIrVersion(model: ModelProto): number {
  let ir = 3;
  const g = model.graph;
  if (g) {
    const inputs = new Set(g.input.map((i) => i.name));
    if (g.initializer.some((t) => !inputs.has(t.name))) ir = 4;
  }
  if (model.functions.length > 0) ir = Math.max(ir, 8);
  walkModel(model, { tensor: (t) => void (ir = Math.max(ir, TYPE_IR[t.dataType] ?? 3)) });
  for (const g of graphs(model)) {
    for (const v of [...g.input, ...g.output, ...g.valueInfo]) {
      const elem = v.type?.value.case === "tensorType" ? v.type.value.value.elemType : 0;
      ir = Math.max(ir, TYPE_IR[elem] ?? 3);
    }
  }
  return ir;
}

function graphs(model: ModelProto): GraphProto[] {
  const out: GraphProto[] = [];
  walkModel(model, { graph: (g) => void out.push(g) });
  return out;
}
