// Binary model -> text: raise to the AST (with extension comments), then print.
import type { ModelProto } from "../../../proto/src/index.js";
import { raiseModel } from "../raise/raise-model.js";
import { onlyLeading } from "./comments.js";
import { printAst } from "./printer.js";

export function printModel(model: ModelProto, opts: { width?: number } = {}): string {
  const { ast, leading } = raiseModel(model);
  return printAst(ast, { comments: onlyLeading(leading), ...opts });
}
