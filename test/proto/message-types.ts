// Every message type of onnx.proto, nested ones too, each with its function of a generated
// module (`decodeX` of onnx_decode.ts, `encodeX` of onnx_encode.ts), for the differential tests.
import { strict as assert } from "node:assert";
import type { DescMessage } from "@bufbuild/protobuf";
import { file_onnx } from "../../proto/src/index.js";

export function messageTypes<F>(generated: object, prefix: string): { schema: DescMessage; fn: F }[] {
  const out: { schema: DescMessage; fn: F }[] = [];
  const visit = (schema: DescMessage): void => {
    const name = schema.typeName.slice("onnx.".length).replaceAll(".", "_");
    const fn = (generated as Record<string, unknown>)[`${prefix}${name}`];
    assert.equal(typeof fn, "function", `no ${prefix}${name} for ${schema.typeName}`);
    out.push({ schema, fn: fn as F });
    schema.nestedMessages.forEach(visit);
  };
  file_onnx.messages.forEach(visit);
  return out;
}
