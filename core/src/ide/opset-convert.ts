// "Convert model to opset N" (issue #31): the edit comes from core's text conversion, so
// unchanged statements keep their layout and comments. A conversion that would leave nodes
// behind is never applied silently: it comes back with the refusals, and its action disabled.
import type { Span } from "../../../grammar/src/span.js";
import { convertOpsetText } from "../opset/index.js";
import { latestOpsetVersion } from "../schema/index.js";
import type { Analysis } from "./analysis.js";
import type { CodeAction } from "./code-actions.js";
import { headerOpsets } from "./opsets.js";
import type { TextEdit } from "./text-edit.js";

export interface ModelOpsetConversion {
  readonly from: number;
  readonly target: number;
  /** Empty when the text is already at `target`. */
  readonly edits: TextEdit[];
  /** Nodes that cannot move: where (when known) and why. */
  readonly refused: readonly { readonly span?: Span; readonly message: string }[];
  /** The text had to be printed canonically (comments and layout not kept). */
  readonly canonical: boolean;
}

/** The ai.onnx opset the model imports, from its header. */
export function importedOpset(a: Analysis): number | undefined {
  return headerOpsets(a.ast?.header).get("");
}

/** The one replacement turning `before` into `after`: their common prefix and suffix are left alone. */
function minimalEdit(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return [{ span: { start, end: before.length - end }, newText: after.slice(start, after.length - end) }];
}

/** The conversion of the document to opset `target`, or why there is none (the text is not a model, the opset does not exist). */
export function modelOpsetConversion(a: Analysis, target: number): ModelOpsetConversion | string {
  const from = importedOpset(a);
  if (from === undefined) return "the model imports no ai.onnx opset";
  try {
    const r = convertOpsetText(a.text, target);
    const refused = r.conversion.refused.map((n) => ({
      ...(n.span && { span: n.span }),
      message: `${n.name ? `node '${n.name}' ` : ""}(${n.op}) at ${n.path || "the main graph"}: ${n.reason}`,
    }));
    return { from, target, edits: minimalEdit(a.text, r.text), refused, canonical: r.canonical };
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The targets offered as actions: the newest opset and the ones next to the imported one. */
export function offeredTargets(from: number): number[] {
  const latest = latestOpsetVersion("") ?? from;
  return [...new Set([latest, from + 1, from - 1])].filter((t) => t >= 1 && t <= latest && t !== from);
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The action for one conversion: disabled, with the refusals as its reason, when nodes cannot move. */
export function conversionAction(c: ModelOpsetConversion): CodeAction {
  const title = `Convert model to opset ${c.target}`;
  if (c.refused.length > 0) {
    const shown = c.refused.slice(0, 3).map((r) => r.message);
    const more = c.refused.length > 3 ? `; and ${c.refused.length - 3} more` : "";
    return {
      title: `${title} (${plural(c.refused.length, "node cannot", "nodes cannot")} convert)`,
      kind: "refactor.rewrite",
      edits: [],
      disabled: `${plural(c.refused.length, "node cannot", "nodes cannot")} convert: ${shown.join("; ")}${more}`,
    };
  }
  return { title: c.canonical ? `${title} (reprinted: comments and layout not kept)` : title, kind: "refactor.rewrite", edits: c.edits };
}

/**
 * Offered when `range` touches the model's `opset_import`, where the opset is written: each
 * target is a whole conversion, too much for every request (an editor asks at the top of each
 * file it opens). The VS Code command reaches any target from anywhere.
 */
export function convertModelActions(a: Analysis, range: Span): CodeAction[] {
  const entry = a.ast?.header?.entries.find((e) => e.key.text === "opset_import");
  const from = importedOpset(a);
  if (!entry || from === undefined || range.start > entry.span.end || range.end < entry.span.start) return [];
  if (a.diagnostics.slice(0, a.syntaxCount).some((d) => d.severity === "error")) return [];
  return offeredTargets(from).flatMap((t) => {
    const c = modelOpsetConversion(a, t);
    return typeof c === "string" ? [] : [conversionAction(c)];
  });
}
