// The fields raise checks on every node and attribute, with their descriptors looked up once:
// shared by the full raise and the statement fast path (statement-text.ts), which must agree.
import { AttributeProtoSchema, NodeProtoSchema, type NodeProto } from "../../../proto/src/index.js";
import type { ModelDefaults } from "./context.js";
import { fieldsOf, isOwnField } from "./presence.js";

/** Node fields checked on every node (index order matters for `has`). */
export const NODE_FIELDS = fieldsOf(NodeProtoSchema, ["domain", "op_type", "overload", "name"]);
export const [DOMAIN, OP_TYPE, OVERLOAD, NAME] = [0, 1, 2, 3] as const;
/** Node fields the text has no spelling for (the residual keeps them). */
export const NODE_EXTRA = fieldsOf(NodeProtoSchema, ["doc_string", "metadata_props", "device_configurations"]);

/** Every attribute field that holds a value, or says something beside the name and type. */
export const ATTR_VALUE_FIELDS = fieldsOf(AttributeProtoSchema, [
  "f",
  "i",
  "s",
  "t",
  "g",
  "floats",
  "ints",
  "strings",
  "tensors",
  "graphs",
  "doc_string",
  "tp",
  "type_protos",
  "ref_attr_name",
  "sparse_tensor",
  "sparse_tensors",
]);
/** Fields checked on every attribute (index order matters for `has`). */
export const ATTR_FIELDS = fieldsOf(AttributeProtoSchema, ["type", "ref_attr_name", "name"]);
export const [ATTR_TYPE, ATTR_REF_NAME, ATTR_NAME] = [0, 1, 2] as const;

/** Whether a node written without a domain means the other presence than the model default. */
export function differsInDomain(n: NodeProto, defaults: ModelDefaults): boolean {
  // isOwnField rather than has(n, NODE_FIELDS, DOMAIN): this runs on every node.
  return n.domain === "" && isOwnField(n, "domain") === defaults.nodeDomainUnset;
}
