// Operators without a kernel that the operator schemas define by a function body (text
// syntax): the body is parsed and lowered once per (op, opset), and the schema's attribute
// defaults are attached so `@attr` references resolve when the caller leaves them out.
import { create } from "@bufbuild/protobuf";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { parseFunction } from "../../../grammar/src/index.js";
import { AttributeProtoSchema, AttributeProto_AttributeType as AT, type AttributeProto, type FunctionProto } from "../../../proto/src/index.js";
import { lowerFunction } from "../lower/index.js";
import { findSchema, functionBody, type AttributeSchema } from "../schema/index.js";
import type { FunctionResolver } from "./executor.js";

const utf8 = new TextEncoder();

function defaultAttribute(a: AttributeSchema): AttributeProto | undefined {
  const d = a.default;
  if (d === undefined) return undefined;
  switch (a.type) {
    case "FLOAT":
      return create(AttributeProtoSchema, { name: a.name, type: AT.FLOAT, f: Number(d) });
    case "INT":
      return create(AttributeProtoSchema, { name: a.name, type: AT.INT, i: BigInt(Math.trunc(Number(d))) });
    case "STRING":
      return create(AttributeProtoSchema, { name: a.name, type: AT.STRING, s: utf8.encode(String(d)) });
    case "FLOATS":
      return create(AttributeProtoSchema, { name: a.name, type: AT.FLOATS, floats: (d as readonly number[]).slice() });
    case "INTS":
      return create(AttributeProtoSchema, { name: a.name, type: AT.INTS, ints: (d as readonly number[]).map((v) => BigInt(v)) });
    case "STRINGS":
      return create(AttributeProtoSchema, { name: a.name, type: AT.STRINGS, strings: (d as readonly string[]).map((s) => utf8.encode(s)) });
    default:
      return undefined;
  }
}

/** A resolver over the bundled onnx operator schemas. */
export function schemaFunctionResolver(): FunctionResolver {
  const cache = new Map<string, FunctionProto | undefined>();
  return (domain, op, opset) => {
    const key = `${domain}:${op}:${opset}`;
    if (cache.has(key)) return cache.get(key);
    let fn: FunctionProto | undefined;
    const schema = findSchema(domain, op, opset);
    const text = schema ? functionBody(schema, opset) : undefined;
    if (schema && text) {
      const parsed = parseFunction(text);
      if (parsed.ast && !hasErrors(parsed.diagnostics)) {
        const lowered = lowerFunction(parsed.ast, text);
        if (lowered.result && !hasErrors(lowered.diagnostics)) {
          fn = lowered.result;
          const given = new Set(fn.attributeProto.map((a) => a.name));
          for (const a of schema.attributes.values()) {
            const dflt = given.has(a.name) ? undefined : defaultAttribute(a);
            if (dflt) fn.attributeProto.push(dflt);
          }
        }
      }
    }
    cache.set(key, fn);
    return fn;
  };
}
