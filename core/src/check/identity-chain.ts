// `identity-chain`: an Identity whose input is another Identity's output copies a copy; the
// second node can read the first one's input directly. Nodes arrive in graph order.
import type { NodeProto } from "../../../proto/src/index.js";
import type { Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";

const isIdentity = (n: NodeProto): boolean => n.opType === "Identity" && (n.domain === "" || n.domain === "ai.onnx");

export class IdentityChains {
  /** Each Identity output seen so far, with the name it copies. */
  private readonly copies = new Map<string, string>();

  visit(node: NodeProto, where: Where, out: Emitter): void {
    if (!isIdentity(node) || node.input.length !== 1 || node.output.length !== 1) return;
    const source = this.copies.get(node.input[0]!);
    if (source !== undefined)
      out.emit("identity-chain", `Identity copies '${node.input[0]}', itself an Identity of '${source}'; read '${source}' directly`, node, where, { input: 0 });
    this.copies.set(node.output[0]!, source ?? node.input[0]!);
  }
}
