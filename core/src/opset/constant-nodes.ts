// Constant nodes during a conversion: found, read-after-conversion checks, and the ones whose
// type the target's Constant op cannot hold, which become initializers.
import type { NodeProto, TensorProto } from "../../../proto/src/index.js";
import { tensor, typeString } from "../infer/types.js";
import { canonicalDomain, getSchema } from "../schema/index.js";
import { shallow } from "./shallow.js";

export function isConstant(n: NodeProto): boolean {
  return n.opType === "Constant" && canonicalDomain(n.domain) === "";
}

/** Every name the nodes (and their subgraphs) read. */
export function readNames(nodes: readonly NodeProto[], into: Set<string>): Set<string> {
  for (const n of nodes) {
    for (const i of n.input) into.add(i);
    for (const a of n.attribute) {
      for (const g of a.g ? [a.g, ...a.graphs] : a.graphs) {
        readNames(g.node, into);
        for (const o of g.output) into.add(o.name);
      }
    }
  }
  return into;
}

/**
 * A Constant whose type the Constant op of the target opset does not take (int64 before 9, say)
 * becomes an initializer of the same name, which holds any type.
 */
export function asInitializer(n: NodeProto, to: number | undefined, initializers: TensorProto[] | undefined): TensorProto | undefined {
  const a = n.attribute.length === 1 ? n.attribute[0] : undefined;
  if (!initializers || to === undefined || !a || a.name !== "value" || !a.t || !n.output[0]) return undefined;
  const allowed = getSchema("", "Constant", to)?.typeConstraints.get("T")?.allowedSet;
  const type = typeString(tensor(a.t.dataType));
  if (!allowed || type === undefined || allowed.has(type)) return undefined;
  return shallow(a.t, { name: n.output[0] });
}
