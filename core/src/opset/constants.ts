// Values known before running: initializers and Constant nodes, so that an input that must
// become an attribute (axes, pads, split, ...) can be read, and Constant nodes to feed new inputs.
import { create } from "@bufbuild/protobuf";
import {
  AttributeProto_AttributeType as AT,
  NodeProtoSchema,
  TensorProtoSchema,
  type GraphProto,
  type NodeProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { tensorFromProto, tensorToProto } from "../interp/tensor-proto.js";
import { fromNumbers, numbers, type Tensor } from "../interp/value.js";
import { tensorAttribute } from "./attrs.js";

/** Name -> constant TensorProto of one graph, falling back to the enclosing graphs. */
export class Constants {
  private readonly values = new Map<string, TensorProto>();

  constructor(private readonly parent?: Constants) {}

  static ofNodes(nodes: readonly NodeProto[], initializers: readonly TensorProto[], parent?: Constants): Constants {
    const c = new Constants(parent);
    for (const t of initializers) c.values.set(t.name, t);
    for (const n of nodes) if (n.opType === "Constant" && (n.domain === "" || n.domain === "ai.onnx") && n.output[0]) c.addConstantNode(n);
    return c;
  }

  static ofGraph(g: GraphProto, parent?: Constants): Constants {
    // A graph input with an initializer of the same name can be overridden at run time.
    const inputs = new Set(g.input.map((i) => i.name));
    return Constants.ofNodes(
      g.node,
      g.initializer.filter((t) => !inputs.has(t.name)),
      parent,
    );
  }

  /** Records a Constant node an adapter made, so later steps can read its value. */
  add(n: NodeProto): void {
    if (n.opType === "Constant" && n.output[0]) this.addConstantNode(n);
  }

  private addConstantNode(n: NodeProto): void {
    const a = n.attribute[0];
    if (n.attribute.length !== 1 || !a) return;
    const name = n.output[0]!;
    if (a.type === AT.TENSOR && a.t) this.values.set(name, a.t);
    else if (a.name === "value_int") this.values.set(name, int64Proto([], [Number(a.i)]));
    else if (a.name === "value_ints") this.values.set(name, int64Proto([a.ints.length], a.ints.map(Number)));
    else if (a.name === "value_float") this.values.set(name, tensorToProto(fromNumbers(1, [], [a.f])));
    else if (a.name === "value_floats") this.values.set(name, tensorToProto(fromNumbers(1, [a.floats.length], a.floats)));
  }

  proto(name: string): TensorProto | undefined {
    return this.values.get(name) ?? this.parent?.proto(name);
  }

  /** The constant's elements as numbers, or undefined when not constant (or not readable). */
  numbers(name: string): number[] | undefined {
    const t = this.tensor(name);
    if (!t || t.dtype === 8) return undefined;
    return Array.from(numbers(t));
  }

  tensor(name: string): Tensor | undefined {
    const p = this.proto(name);
    if (!p) return undefined;
    try {
      return tensorFromProto(p);
    } catch {
      return undefined; // external data that was not loaded: not usable as an attribute
    }
  }
}

export function int64Proto(dims: readonly number[], values: readonly number[]): TensorProto {
  return numberProto(7, dims, values);
}

/** A TensorProto of element type `dtype` from numbers, in the typed field onnx's text parser uses. */
export function numberProto(dtype: number, dims: readonly number[], values: readonly number[]): TensorProto {
  // The name is set (empty) as onnx's text parser sets it, so printed text needs no residual.
  const shape = { name: "", dataType: dtype, dims: dims.map((d) => BigInt(d)) };
  switch (dtype) {
    case 1:
      return create(TensorProtoSchema, { ...shape, floatData: [...values] });
    case 7:
      return create(TensorProtoSchema, { ...shape, int64Data: values.map((v) => BigInt(v)) });
    case 11:
      return create(TensorProtoSchema, { ...shape, doubleData: [...values] });
    case 6:
      return create(TensorProtoSchema, { ...shape, int32Data: [...values] });
    default:
      return tensorToProto(fromNumbers(dtype, dims, values));
  }
}

/** `output = Constant <value = t>()`, valid at every opset. */
export function constantNode(output: string, t: TensorProto): NodeProto {
  return create(NodeProtoSchema, { opType: "Constant", output: [output], attribute: [tensorAttribute("value", t)] });
}
