// Binary model -> text: raise to the AST (with residual comments), then print.
import type { ModelProto } from "../../proto/src/index.js";
import { raiseModel } from "./raise/raise-model.js";
import { onlyLeading } from "./print/comments.js";
import { printAst } from "./print/printer.js";

/** With `write`, the text is streamed to it in chunks (see layout) and the result is "". */
export function printModel(model: ModelProto, opts: { width?: number; write?: (bytes: Uint8Array) => void; chunkBytes?: number } = {}): string {
  const { ast, lazyBodies, leading, verify } = raiseModel(model);
  const text = printAst(ast, { comments: onlyLeading(leading), lazyBodies, ...opts });
  verify();
  return text;
}

/**
 * The text without residual comments (what the official syntax says, for reading and diffs),
 * and what was left out: `#@KIND key` -> how many elements had it.
 */
export function printModelPlain(model: ModelProto, opts: { width?: number } = {}): { text: string; dropped: ReadonlyMap<string, number> } {
  const { ast, lazyBodies, dropped, verify } = raiseModel(model, true);
  const text = printAst(ast, { lazyBodies, ...opts });
  verify();
  return { text, dropped };
}
