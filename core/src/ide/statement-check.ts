// The syntax check of one edited statement: when an edit stays inside a node statement of a
// text that parsed cleanly, parsing that statement alone tells at once whether the edit broke
// the syntax. The server publishes this within milliseconds of a keystroke; the whole-text
// analysis follows and replaces it.
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseNode } from "../../../grammar/src/index.js";
import type { Analysis } from "./analysis.js";
import { innermost, pathAt } from "../../../grammar/src/ast-walk.js";
import type { TextChange } from "./shift-diagnostics.js";

/** Syntax diagnostics of the statement `change` edits, or undefined when the shortcut does not apply. */
export function statementSyntaxCheck(before: Analysis, change: TextChange, after: string): Diagnostic[] | undefined {
  if (!before.ast || hasErrors(before.diagnostics.slice(0, before.syntaxCount))) return undefined;
  const node = innermost(pathAt(before.ast, change.start), "Node");
  if (!node || !(node.span.start < change.start && change.end <= node.span.end)) return undefined;
  const delta = change.newLength - (change.end - change.start);
  const start = node.span.start;
  const parsed = parseNode(after.slice(start, node.span.end + delta));
  return parsed.diagnostics.map((d) => (d.span ? { ...d, span: { start: d.span.start + start, end: d.span.end + start } } : d));
}
