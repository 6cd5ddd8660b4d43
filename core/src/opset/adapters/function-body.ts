// Below an operator's first version, an op that onnx defines by a function body (Gelu,
// LayerNormalization, HardSwish, Range, ...) becomes that body's nodes, inlined with fresh
// names and the node's attributes; those nodes then continue down as any other.
import { clone, create } from "@bufbuild/protobuf";
import { hasErrors } from "../../../../grammar/src/diagnostics.js";
import { parseFunction } from "../../../../grammar/src/index.js";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  ValueInfoProtoSchema,
  type AttributeProto,
  type FunctionProto,
  type NodeProto,
} from "../../../../proto/src/index.js";
import { inferModel } from "../../infer/index.js";
import { toTypeProto } from "../../infer/types.js";
import { lowerFunction } from "../../lower/index.js";
import { canonicalDomain, findSchema, type OpSchema } from "../../schema/index.js";
import { attributeOf } from "../attrs.js";
import { refuse, type StepContext, type StepOutcome } from "../context.js";

const parsed = new Map<string, FunctionProto | undefined>();

/** The op's body written for the oldest opset it has one for, and that opset. */
function body(schema: OpSchema): { fn: FunctionProto; opset: number } | undefined {
  const versions = [...schema.functionBodies.keys()].sort((a, b) => a - b);
  const opset = versions[0];
  if (opset === undefined) return undefined;
  const key = `${schema.domain}|${schema.name}|${schema.sinceVersion}`;
  if (!parsed.has(key)) {
    const text = schema.functionBodies.get(opset)!;
    const ast = parseFunction(text);
    const lowered = ast.ast && !hasErrors(ast.diagnostics) ? lowerFunction(ast.ast, text) : undefined;
    parsed.set(key, lowered && !hasErrors(lowered.diagnostics) ? lowered.result : undefined);
  }
  const fn = parsed.get(key);
  if (!fn) return undefined;
  const imported = fn.opsetImport.find((o) => canonicalDomain(o.domain) === schema.domain);
  return { fn, opset: imported ? Number(imported.version) : opset };
}

/** Whether `schema` has a text body that can be inlined (no subgraphs). */
export function inlinable(schema: OpSchema): boolean {
  const b = body(schema);
  return b !== undefined && !b.fn.node.some((n) => n.attribute.some((a) => a.g || a.graphs.length > 0));
}

/** The value an `@name` reference gets: the caller's attribute, else the schema default. */
function resolve(ref: AttributeProto, node: NodeProto, schema: OpSchema): AttributeProto | undefined {
  const given = node.attribute.find((a) => a.name === ref.refAttrName);
  if (given) {
    const a = clone(AttributeProtoSchema, given);
    a.name = ref.name;
    return a;
  }
  const s = schema.attributes.get(ref.refAttrName);
  return s?.default === undefined ? undefined : attributeOf(ref.name, s.type, s.default);
}

/** The nodes of `node`'s function body (at the opset they are written for), or why not. */
export function inlineBody(node: NodeProto, domain: string, version: number, ctx: StepContext): StepOutcome | undefined {
  const schema = findSchema(domain, node.opType, version);
  if (!schema) return undefined;
  const b = body(schema);
  if (!b) return undefined;
  if (b.fn.node.some((n) => n.attribute.some((a) => a.g || a.graphs.length > 0)))
    return refuse(`${node.opType}'s function body has subgraphs, which are not inlined`);
  const names = new Map<string, string>();
  b.fn.input.forEach((n, i) => names.set(n, node.input[i] ?? ""));
  b.fn.output.forEach((n, i) => names.set(n, node.output[i] ?? ""));
  const rename = (n: string): string => {
    if (n === "") return "";
    let m = names.get(n);
    if (m === undefined) names.set(n, (m = ctx.fresh(`${node.output[0] || node.opType}_${n}`)));
    return m;
  };
  const nodes = b.fn.node.map((proto) => {
    const n = clone(NodeProtoSchema, proto);
    n.input = n.input.map(rename);
    n.output = n.output.map(rename);
    n.attribute = n.attribute.flatMap((a) => {
      if (!a.refAttrName) return [a];
      const v = resolve(a, node, schema);
      return v ? [v] : [];
    });
    return n;
  });
  for (const n of nodes) ctx.constants.add(n);
  typeBody(nodes, node.input, domain, b.opset, ctx);
  return { nodes, at: b.opset };
}

/** Infers the types of the inlined values (a small model of the body alone), so that later steps can check them. */
function typeBody(nodes: readonly NodeProto[], inputs: readonly string[], domain: string, opset: number, ctx: StepContext): void {
  const known = inputs.filter((n) => n !== "" && ctx.type(n) !== undefined);
  const graph = create(GraphProtoSchema, {
    name: "body",
    input: known.map((n) => create(ValueInfoProtoSchema, { name: n, type: toTypeProto(ctx.type(n)!) })),
    node: [...nodes],
  });
  const model = create(ModelProtoSchema, { irVersion: 10n, opsetImport: [create(OperatorSetIdProtoSchema, { domain, version: BigInt(opset) })], graph });
  try {
    const types = inferModel(model).graphTypes.get(graph);
    for (const n of nodes) for (const o of n.output) if (o && !ctx.type(o) && types?.get(o)) ctx.setType(o, types.get(o)!);
  } catch {
    // Types stay unknown; steps that need them say so.
  }
}
