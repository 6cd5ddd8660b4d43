// The formatter: parse with comments, attach them, print with the same printer as binary
// models. Text with syntax errors is refused (the caller shows the diagnostics).
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { parseModel } from "../../../grammar/src/index.js";
import { attachComments } from "./attach-comments.js";
import { printAst } from "./printer.js";

export type FormatResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export function formatText(text: string, opts: { width?: number } = {}): FormatResult {
  const parsed = parseModel(text);
  if (!parsed.ast || hasErrors(parsed.diagnostics)) return { ok: false, diagnostics: parsed.diagnostics.filter((d) => d.severity === "error") };
  const comments = attachComments(parsed.ast, parsed.comments, text);
  return { ok: true, text: printAst(parsed.ast, { comments, source: text, ...opts }) };
}
