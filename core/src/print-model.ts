// Binary model -> text: raise to the AST (with residual comments), then print.
import type { ModelProto } from "../../proto/src/index.js";
import { raiseModel } from "./raise/raise-model.js";
import { onlyLeading } from "./print/comments.js";
import { printAst } from "./print/printer.js";
import { adoptModel } from "./clone.js";

/** Options of {@link printModel}. */
export interface PrintOptions {
  /** The line width the layout aims at. */
  readonly width?: number;
  /** Stream the text to `write` in chunks instead (the result is then ""); not with `plain`. */
  readonly write?: (bytes: Uint8Array) => void;
  readonly chunkBytes?: number;
  /**
   * Leave out the residual `#@` comments: only what the official syntax says (as `print --plain`);
   * what they held is lost, {@link printModelPlain} says what.
   */
  readonly plain?: boolean;
}

/** With `write`, the text is streamed to it in chunks (see layout) and the result is "". */
export function printModel(model: ModelProto, options: PrintOptions = {}): string {
  model = adoptModel(model);
  const { plain, ...opts } = options;
  if (plain) {
    const text = printModelPlain(model, opts.width === undefined ? {} : { width: opts.width }).text;
    opts.write?.(new TextEncoder().encode(text));
    return opts.write ? "" : text;
  }
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
