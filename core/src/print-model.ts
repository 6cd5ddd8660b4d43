// Binary model -> text: raise to the AST (with residual comments), then print. The text can be
// streamed: statements are raised and laid out one at a time, weights written from their bytes.
import type { ModelProto } from "../../proto/src/index.js";
import { raiseModel } from "./raise/raise-model.js";
import { onlyLeading } from "./print/comments.js";
import { printAst } from "./print/printer.js";
import { adoptModel } from "./clone.js";

/** Options of {@link printModel}. */
export interface PrintOptions {
  /** The line width the layout aims at (default 100). */
  readonly width?: number;
  /**
   * Streams the text to `write` as UTF-8 chunks instead of returning it (the result is then "").
   * Each chunk is valid only during the call (the buffer is reused): copy it to keep it. The
   * whole text never exists at once, in bytes or as a string: the statements of the main graph
   * and of each function are raised and laid out one at a time, and tensor data is written
   * from its values in pieces. Also with `plain`.
   */
  readonly write?: (bytes: Uint8Array) => void;
  /** About how many bytes `write` gets at a time (default 4 MiB). */
  readonly chunkBytes?: number;
  /**
   * Leave out the residual `#@` comments: only what the official syntax says (as `print --plain`);
   * what they held is lost, {@link printModelPlain} says what.
   */
  readonly plain?: boolean;
}

/**
 * The model as text in the canonical layout, losing nothing: what the official syntax cannot
 * say goes into `#@` residual comments (see docs/syntax.md). With `options.write`, the text is
 * streamed to it in chunks and the result is "":
 *
 * ```ts
 * printModel(model, { write: (chunk) => stream.write(Buffer.from(chunk)) });
 * ```
 *
 * The streamed chunks join to exactly the text returned without `write`.
 */
export function printModel(model: ModelProto, options: PrintOptions = {}): string {
  model = adoptModel(model);
  const { plain, ...opts } = options;
  if (plain) return printModelPlain(model, opts).text;
  const { ast, lazyBodies, leading, verify } = raiseModel(model);
  const text = printAst(ast, { comments: onlyLeading(leading), lazyBodies, ...opts });
  verify();
  return text;
}

/**
 * The text without residual comments (what the official syntax says, for reading and diffs),
 * and what was left out: `#@KIND key` -> how many elements had it. With `write`, the text is
 * streamed as {@link printModel} streams it (`text` is then "").
 */
export function printModelPlain(model: ModelProto, opts: Omit<PrintOptions, "plain"> = {}): { text: string; dropped: ReadonlyMap<string, number> } {
  const { ast, lazyBodies, dropped, verify } = raiseModel(adoptModel(model), true);
  const text = printAst(ast, { lazyBodies, ...opts });
  verify();
  return { text, dropped };
}
