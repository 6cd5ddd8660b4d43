// The file-level residual names the nodes whose domain presence, and the attribute tensors whose
// name presence, differ from the model's defaults. It is printed first, before any statement,
// while statements are raised only as they are printed (a big graph's are never all in memory).
// So the lists are found beforehand by this walk, which meets nodes in the order the raise does;
// the raise still collects them itself, and raiseModel's caller checks the two agree.
import { AttributeProto_AttributeType as AT, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { nodeKeyOf, type ModelDefaults } from "./context.js";
import { differsInTensorName, isReference, kindOf, tensorKey } from "./raise-attribute.js";
import { differsInDomain } from "./field-tables.js";

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
      // The key only for the nodes that need one: finding it may count every node's output.
      const key = (): string | undefined => nodeKeyOf(n.output, defaults);
      if (differsInDomain(n, defaults)) {
        const k = key();
        if (k !== undefined) found.domain.push(k);
      }
      for (const a of n.attribute) {
        // Only the value the text writes is raised: a reference, or the attribute's one kind.
        if (isReference(a)) continue;
        const kind = kindOf(a);
        if (kind === AT.TENSOR && a.t) {
          const at = differsInTensorName(a.t, defaults) ? tensorKey(key(), a) : undefined;
          if (at) found.tensorName.push(at);
        } else if (kind === AT.GRAPH && a.g) visit(a.g.node);
        else if (kind === AT.GRAPHS) for (const g of a.graphs) visit(g.node);
      }
    }
  };
  if (model.graph) visit(model.graph.node);
  for (const f of model.functions) visit(f.node);
  return found;
}
