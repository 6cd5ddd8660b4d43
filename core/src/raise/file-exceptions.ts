// The file-level residual names the nodes whose domain presence, and the attribute tensors whose
// name presence, differ from the model's defaults. It is printed first, before any statement,
// while statements are raised only as they are printed (a big graph's are never all in memory).
// So the lists are found beforehand by this walk, which meets nodes in the order the raise does;
// the raise still collects them itself, and raiseModel's caller checks the two agree.
import { AttributeProto_AttributeType as AT, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { nodeKeyOf, type ModelDefaults } from "./context.js";
import { differsInTensorName, isReference, kindOf, tensorKey } from "./raise-attribute.js";
import { differsInDomain } from "./raise-graph.js";

export interface FileExceptions {
  /** Nodes (by first output) whose domain presence differs from the default. */
  readonly domain: string[];
  /** Attribute tensors ([first output, attribute name]) whose name presence differs from the default. */
  readonly tensorName: [string, string][];
}

export function fileExceptions(model: ModelProto, defaults: ModelDefaults): FileExceptions {
  const found: FileExceptions = { domain: [], tensorName: [] };
  const visit = (nodes: readonly NodeProto[]): void => {
    for (const n of nodes) {
      const key = nodeKeyOf(n.output, defaults);
      if (key !== undefined && differsInDomain(n, defaults)) found.domain.push(key);
      for (const a of n.attribute) {
        // Only the value the text writes is raised: a reference, or the attribute's one kind.
        if (isReference(a)) continue;
        const kind = kindOf(a);
        if (kind === AT.TENSOR && a.t) {
          const at = tensorKey(key, a);
          if (at && differsInTensorName(a.t, defaults)) found.tensorName.push(at);
        } else if (kind === AT.GRAPH && a.g) visit(a.g.node);
        else if (kind === AT.GRAPHS) for (const g of a.graphs) visit(g.node);
      }
    }
  };
  if (model.graph) visit(model.graph.node);
  for (const f of model.functions) visit(f.node);
  return found;
}
