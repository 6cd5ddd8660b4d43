// One node of a model moved through the step table on its own, for the editor's fix of an op
// removed at the imported opset (Upsample at 10, Scatter at 11): the node is read as written for
// the last opset that had it and moved up to the imported one, leaving every other node alone.
import type { FunctionProto, GraphProto, ModelProto, NodeProto } from "../../../proto/src/index.js";
import { inferModel } from "../infer/index.js";
import type { ValueType } from "../infer/types.js";
import { canonicalDomain, getSchemaVersions } from "../schema/index.js";
import { walkModel } from "../walk.js";
import { Constants } from "./constants.js";
import type { StepContext } from "./context.js";
import { functionTypes } from "./function-types.js";
import { Names } from "./names.js";
import { convertNode, type NodeResult } from "./node-steps.js";

/** The opset an op was removed at (its last schema is a deprecated marker), if it was. */
export function removedAt(domain: string, op: string): number | undefined {
  const versions = getSchemaVersions(canonicalDomain(domain), op);
  const last = versions[versions.length - 1];
  // Only an op that existed before its removal can be read at an older version.
  return last?.deprecated && versions.length > 1 ? last.sinceVersion : undefined;
}

type Types = ReadonlyMap<string, ValueType>;

/** The graph or function that holds `node`, with its types and constants. */
function placeOf(model: ModelProto, node: NodeProto): { types: Types; constants: Constants } | undefined {
  let graphTypes: ReadonlyMap<GraphProto, Types> = new Map();
  try {
    graphTypes = inferModel(model).graphTypes;
  } catch {
    // Without types, adapters that need them refuse and say so.
  }
  let found: { types: Types; constants: Constants } | undefined;
  walkModel(model, {
    graph(g) {
      if (!found && g.node.includes(node)) found = { types: graphTypes.get(g) ?? new Map(), constants: Constants.ofGraph(g) };
    },
  });
  if (found) return found;
  const fn: FunctionProto | undefined = model.functions.find((f) => f.node.includes(node));
  return fn && { types: functionTypes(model, graphTypes).get(fn) ?? new Map(), constants: Constants.ofNodes(fn.node, []) };
}

/**
 * The nodes that express `node` (of a removed op, written for the opset before its removal) at
 * opset `to`, or why not. `node` must be one of `model`'s nodes.
 */
export function convertRemovedNode(model: ModelProto, node: NodeProto, to: number): NodeResult {
  const domain = canonicalDomain(node.domain);
  const removed = removedAt(domain, node.opType);
  if (removed === undefined || to < removed) return { refused: `${node.opType} is not removed at opset ${to}`, step: [to, to] };
  const place = placeOf(model, node);
  if (!place) return { refused: "the node is not in the model", step: [removed - 1, to] };
  const names = Names.ofModel(model);
  const local = new Map<string, ValueType>();
  const context = (older: number, newer: number, up: boolean, at: number): StepContext => ({
    older,
    newer,
    up,
    at,
    constants: place.constants,
    type: (n) => local.get(n) ?? place.types.get(n),
    setType: (n, t) => void local.set(n, t),
    fresh: (hint) => names.fresh(hint),
    used: (n) => names.used(n),
  });
  return convertNode(node, domain, removed - 1, to, { context });
}
