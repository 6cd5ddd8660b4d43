// The model a region's graph view draws. A model or graph text has its own main graph; a
// function or node list lives in the wrapper's function, so its body becomes the main graph
// (its inputs and outputs as the graph's), the way a reader of the string pictures it.
import { create } from "@bufbuild/protobuf";
import { GraphProtoSchema, ValueInfoProtoSchema, type ModelProto } from "../../../proto/src/index.js";
import type { EmbeddedKind } from "./types.js";

export function fragmentGraphModel(model: ModelProto, kind: EmbeddedKind): ModelProto {
  if (kind === "model" || kind === "graph") return model;
  const fn = model.functions[model.functions.length - 1];
  if (!fn) return model;
  const graph = create(GraphProtoSchema, {
    name: fn.name,
    node: fn.node,
    input: fn.input.map((name) => create(ValueInfoProtoSchema, { name })),
    output: fn.output.map((name) => create(ValueInfoProtoSchema, { name })),
  });
  return { ...model, graph, functions: model.functions.slice(0, -1) };
}
