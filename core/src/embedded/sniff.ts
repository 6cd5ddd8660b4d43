// The kind of a text that no call names (a raw string, a fence, OnnxParser's input), from how it
// starts: `{` a node list, a `<...>` header with a domain and no ir_version a function, any other
// header a model, `name (` a graph, anything else nodes.
import type { EmbeddedKind } from "./types.js";

/** Skips white space and `#` comments from `i`. */
function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] !== "#") return i;
    const nl = text.indexOf("\n", i);
    if (nl < 0) return text.length;
    i = nl + 1;
  }
}

export function sniffKind(text: string): EmbeddedKind {
  const at = skipBlank(text, 0);
  const c = text[at];
  if (c === "{") return "nodes";
  if (c === "<") {
    const close = text.indexOf(">", at);
    const header = text.slice(at, close < 0 ? undefined : close);
    return /\bdomain\s*:/.test(header) && !/\bir_version\s*:/.test(header) ? "function" : "model";
  }
  // `name (inputs) => (outputs)`: a node's first name is followed by `,` or `=`, never `(`
  return /^(?:[A-Za-z_][\w.$-]*|"(?:[^"\\\n]|\\.)*")\s*\(/.test(text.slice(at, at + 256)) ? "graph" : "nodes";
}
