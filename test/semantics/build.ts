// Compact builders for ModelProtos in tests: `model({ inputs: ["x: float[2,3]"], nodes: [...] })`.
import { create } from "@bufbuild/protobuf";
import {
  AttributeProto_AttributeType as AT,
  AttributeProtoSchema,
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProtoSchema,
  ValueInfoProtoSchema,
  dataTypeByName,
  type AttributeProto,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
} from "../../proto/src/index.js";
import { tensor, toTypeProto, type Dim } from "../../core/src/infer/index.js";

/** `name: elem[d0,d1]` (dims: numbers, symbols or `?`); `name: elem` has unknown rank; `name` has no type. */
export function valueInfo(spec: string): ValueInfoProto {
  const m = /^\s*(\w+)\s*(?::\s*(\w+)(?:\[(.*)\])?)?\s*$/.exec(spec);
  if (!m) throw new Error(`bad value spec ${spec}`);
  const [, name = "", elemName, dims] = m;
  if (!elemName) return create(ValueInfoProtoSchema, { name });
  const elem = dataTypeByName(elemName)!.id;
  const shape: Dim[] | undefined =
    dims === undefined
      ? undefined
      : dims.trim() === ""
        ? []
        : dims.split(",").map((d) => (d.trim() === "?" ? undefined : /^\d+$/.test(d.trim()) ? Number(d) : d.trim()));
  return create(ValueInfoProtoSchema, { name, type: toTypeProto(tensor(elem, shape)) });
}

export type AttrValue = number | string | number[] | string[] | GraphProto | TensorProto | { float: number } | { floats: number[] } | { ref: string };

export function attribute(name: string, v: AttrValue): AttributeProto {
  if (typeof v === "number") return create(AttributeProtoSchema, { name, type: AT.INT, i: BigInt(v) });
  if (typeof v === "string") return create(AttributeProtoSchema, { name, type: AT.STRING, s: new TextEncoder().encode(v) });
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "number")) return create(AttributeProtoSchema, { name, type: AT.INTS, ints: (v as number[]).map(BigInt) });
    return create(AttributeProtoSchema, { name, type: AT.STRINGS, strings: (v as string[]).map((s) => new TextEncoder().encode(s)) });
  }
  if ("float" in v) return create(AttributeProtoSchema, { name, type: AT.FLOAT, f: v.float });
  if ("floats" in v) return create(AttributeProtoSchema, { name, type: AT.FLOATS, floats: v.floats });
  if ("ref" in v) return create(AttributeProtoSchema, { name, refAttrName: v.ref });
  if (v.$typeName === "onnx.GraphProto") return create(AttributeProtoSchema, { name, type: AT.GRAPH, g: v });
  return create(AttributeProtoSchema, { name, type: AT.TENSOR, t: v });
}

/** `node("Add", ["a", "b"], ["c"], { axis: 1 })`; a domain-qualified op is `"ai.onnx.ml.X"` via `domain`. */
export function node(
  opType: string,
  input: string[],
  output: string[],
  attrs: Record<string, AttrValue> = {},
  extra: { domain?: string; name?: string } = {},
): NodeProto {
  return create(NodeProtoSchema, {
    opType,
    input,
    output,
    attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    domain: extra.domain ?? "",
    name: extra.name ?? "",
  });
}

export function int64s(name: string, values: number[], dims: number[] = [values.length]): TensorProto {
  return create(TensorProtoSchema, { name, dataType: dataTypeByName("int64")!.id, dims: dims.map(BigInt), int64Data: values.map(BigInt) });
}

export function floats(name: string, values: number[], dims: number[] = [values.length]): TensorProto {
  return create(TensorProtoSchema, { name, dataType: dataTypeByName("float")!.id, dims: dims.map(BigInt), floatData: values });
}

export interface GraphSpec {
  name?: string;
  inputs?: string[];
  outputs?: string[];
  valueInfo?: string[];
  initializers?: TensorProto[];
  nodes: NodeProto[];
}

export function graph(spec: GraphSpec): GraphProto {
  return create(GraphProtoSchema, {
    name: spec.name ?? "g",
    input: (spec.inputs ?? []).map(valueInfo),
    output: (spec.outputs ?? []).map(valueInfo),
    valueInfo: (spec.valueInfo ?? []).map(valueInfo),
    initializer: spec.initializers ?? [],
    node: spec.nodes,
  });
}

export function fn(name: string, domain: string, input: string[], output: string[], nodes: NodeProto[], attrs: string[] = [], opset = 18): FunctionProto {
  return create(FunctionProtoSchema, {
    name,
    domain,
    input,
    output,
    attribute: attrs,
    node: nodes,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: BigInt(opset) })],
  });
}

export function model(spec: GraphSpec & { opset?: number; imports?: Record<string, number>; functions?: FunctionProto[]; ir?: number }): ModelProto {
  const imports = { "": spec.opset ?? 18, ...(spec.imports ?? {}) };
  return create(ModelProtoSchema, {
    irVersion: BigInt(spec.ir ?? 8),
    opsetImport: Object.entries(imports).map(([domain, version]) => create(OperatorSetIdProtoSchema, { domain, version: BigInt(version) })),
    graph: graph(spec),
    functions: spec.functions ?? [],
  });
}
