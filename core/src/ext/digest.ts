// The short digest a residual carries of the visible part of the element it annotates
// (`"@digest"`): computed from the message that the visible text alone lowers to, so a hand
// edit of that part (an attribute, a dim, a value) changes it, while layout and number
// spelling do not. The printer takes it from the raised AST (raise/visible-digest.ts), the
// reader from the lowered model before any residual applies.
import { clone, toJson, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { FunctionProtoSchema, GraphProtoSchema, NodeProtoSchema, TensorProtoSchema, ValueInfoProtoSchema } from "../../../proto/src/index.js";
import type { ExtKind } from "./ext-comment.js";

/** FNV-1a over the UTF-16 code units of `s`: eight hex digits. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

function json<Desc extends DescMessage>(schema: Desc, msg: MessageShape<Desc>): string {
  return JSON.stringify(toJson(schema, msg, { useProtoFieldName: true }));
}

/**
 * The digest of an element's visible part. A graph's residual depends on its name only, a
 * function's on its header (not its body); nodes, value infos and tensors on all they say.
 */
export function visibleDigest(kind: Exclude<ExtKind, "model" | "attr">, msg: object): string {
  switch (kind) {
    case "graph":
      return fnv(JSON.stringify((msg as MessageShape<typeof GraphProtoSchema>).name));
    case "function": {
      const header = clone(FunctionProtoSchema, msg as MessageShape<typeof FunctionProtoSchema>);
      header.node = [];
      header.valueInfo = [];
      return fnv(json(FunctionProtoSchema, header));
    }
    case "node":
      return fnv(json(NodeProtoSchema, msg as MessageShape<typeof NodeProtoSchema>));
    case "value":
      return fnv(json(ValueInfoProtoSchema, msg as MessageShape<typeof ValueInfoProtoSchema>));
    case "tensor":
      return fnv(json(TensorProtoSchema, msg as MessageShape<typeof TensorProtoSchema>));
  }
}

/**
 * Residual keys that only add to the element, whatever its visible text says: they still
 * apply when the element was edited. Every other key restates or depends on the visible part.
 */
const ADDITIVE = new Set([
  "doc_string",
  "metadata_props",
  "device_configurations",
  "segment",
  "sparse_initializer",
  "quantization_annotation",
  "@storage",
  "@external",
  "@denotation",
]);

export function isAdditive(key: string): boolean {
  return ADDITIVE.has(key);
}

/** Whether a residual's data depends on the visible part (and so carries a digest). */
export function dependsOnText(data: Readonly<Record<string, unknown>>): boolean {
  for (const k in data) if (k !== "@digest" && !ADDITIVE.has(k)) return true;
  return false;
}
