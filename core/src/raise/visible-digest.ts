// The printer's side of the residual digest (ext/digest.ts): the element's raised AST is
// lowered alone, exactly as the reader will lower its printed text, and digested.
import type * as A from "../../../grammar/src/ast.js";
import { visibleDigest } from "../ext/digest.js";
import type { ExtKind } from "../ext/ext-comment.js";
import { lowerFunction, lowerNode, lowerValueDecl } from "../lower/index.js";

export function digestOfAst(kind: ExtKind, node: A.AstNode): string | undefined {
  switch (kind) {
    case "graph":
      return node.kind === "Graph" ? visibleDigest("graph", { name: node.name?.value ?? "" }) : undefined;
    case "function":
      return node.kind === "Function" ? visibleDigest("function", lowerFunction(node).result) : undefined;
    case "node":
      return node.kind === "Node" ? visibleDigest("node", lowerNode(node).result) : undefined;
    case "value":
      return node.kind === "ValueDecl" ? visibleDigest("value", lowerValueDecl(node).result.valueInfo) : undefined;
    case "tensor": {
      const t = node.kind === "ValueDecl" ? lowerValueDecl(node).result.initializer : undefined;
      return t && visibleDigest("tensor", t);
    }
    default:
      return undefined;
  }
}
