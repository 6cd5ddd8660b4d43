// Types inside local functions, for adapters that need them: each call site's input types are
// run through the function body (a small model of the body alone), and a value keeps what every
// call site agrees on. A function with a call site of unknown input types gets none.
import { clone, create } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  ValueInfoProtoSchema,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
} from "../../../proto/src/index.js";
import { inferModel } from "../infer/index.js";
import { isTensor, toTypeProto, typeString, type ValueType } from "../infer/types.js";
import { walkModel } from "../walk.js";

type Types = ReadonlyMap<string, ValueType>;

/** What two call sites' types of one value have in common. */
function join(a: ValueType, b: ValueType): ValueType | undefined {
  if (isTensor(a) && isTensor(b)) {
    if (a.kind !== b.kind || a.elem !== b.elem) return undefined;
    if (!a.shape || !b.shape || a.shape.length !== b.shape.length) return { kind: a.kind, elem: a.elem };
    return { kind: a.kind, elem: a.elem, shape: a.shape.map((d, i) => (d === b.shape![i] ? d : undefined)) };
  }
  return typeString(a) !== undefined && typeString(a) === typeString(b) ? a : undefined;
}

/** The body with `@name` references replaced by the call's attributes (or the function's defaults). */
function bodyFor(f: FunctionProto, call: NodeProto): NodeProto[] {
  return f.node.map((proto) => {
    const n = clone(NodeProtoSchema, proto);
    n.attribute = n.attribute.flatMap((a) => {
      if (!a.refAttrName) return [a];
      const given = call.attribute.find((x) => x.name === a.refAttrName) ?? f.attributeProto.find((x) => x.name === a.refAttrName);
      if (!given) return [];
      const v = clone(AttributeProtoSchema, given);
      v.name = a.name;
      return [v];
    });
    return n;
  });
}

function callTypes(model: ModelProto, f: FunctionProto, call: NodeProto, types: Types): Types | undefined {
  if (call.input.some((n) => n !== "" && !types.get(n))) return undefined;
  const input = f.input.flatMap((name, i) => (call.input[i] ? [create(ValueInfoProtoSchema, { name, type: toTypeProto(types.get(call.input[i]!)!) })] : []));
  const graph = create(GraphProtoSchema, { name: f.name, input, node: bodyFor(f, call) });
  const imports = [...f.opsetImport, ...model.opsetImport.filter((o) => !f.opsetImport.some((x) => x.domain === o.domain))];
  try {
    return inferModel(create(ModelProtoSchema, { irVersion: model.irVersion, opsetImport: imports, functions: model.functions, graph })).graphTypes.get(graph);
  } catch {
    return undefined;
  }
}

export function functionTypes(model: ModelProto, graphTypes: ReadonlyMap<GraphProto, Types>): Map<FunctionProto, Types> {
  const byKey = new Map(model.functions.map((f) => [`${f.domain}|${f.name}`, f]));
  const calls = new Map<FunctionProto, { node: NodeProto; types: Types }[]>();
  walkModel(model, {
    graph(g) {
      const types = graphTypes.get(g) ?? new Map();
      for (const n of g.node) {
        const f = byKey.get(`${n.domain}|${n.opType}`);
        if (f) calls.set(f, [...(calls.get(f) ?? []), { node: n, types }]);
      }
    },
  });
  const out = new Map<FunctionProto, Types>();
  for (const [f, sites] of calls) {
    let merged: Map<string, ValueType> | undefined;
    for (const site of sites) {
      const t = callTypes(model, f, site.node, site.types);
      if (!t) {
        merged = undefined;
        break;
      }
      if (!merged) merged = new Map(t);
      else
        for (const [name, a] of merged) {
          const b = t.get(name);
          const j = b ? join(a, b) : undefined;
          if (j) merged.set(name, j);
          else merged.delete(name);
        }
    }
    if (merged) out.set(f, merged);
  }
  return out;
}
