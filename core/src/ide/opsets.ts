// The opsets in force at a position: a function's own opset_import inside its body, the
// model's elsewhere. Domain "ai.onnx" is folded into "".
import type { Header, Model, OpNode } from "../../../grammar/src/ast.js";
import { canonicalDomain, getSchema, type OpSchema } from "../schema/index.js";
import { opKey } from "./symbols.js";

export function headerOpsets(header: Header | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of header?.entries ?? []) {
    if (e.key.text !== "opset_import" || e.value?.kind !== "OpsetList") continue;
    for (const item of e.value.items) {
      if (item.version) out.set(canonicalDomain(item.domain?.value ?? ""), Number(item.version.value));
    }
  }
  return out;
}

export function opsetsAt(model: Model | undefined, offset: number): Map<string, number> {
  if (!model) return new Map();
  const fn = model.functions.find((f) => f.span.start <= offset && offset <= f.span.end);
  if (fn) {
    const own = headerOpsets(fn.header);
    if (own.size > 0) return own;
  }
  return headerOpsets(model.header);
}

/** The schema a node's op resolves to at the opsets in force, if the op is a known one. */
export function schemaOfNode(model: Model | undefined, node: OpNode): { schema?: OpSchema; version?: number; domain: string } {
  const key = opKey(node);
  const domain = canonicalDomain(key.domain);
  const version = opsetsAt(model, node.span.start).get(domain);
  const schema = version === undefined ? undefined : getSchema(domain, key.name, version);
  return { domain, ...(version !== undefined ? { version } : {}), ...(schema ? { schema } : {}) };
}
