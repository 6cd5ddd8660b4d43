// A statement's `"@attr"` residual entry (raise/lift.ts) handed to the parts it describes.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { Target } from "./targets.js";

type AttrTarget = Extract<Target, { kind: "attr" }>;

/**
 * A statement's `"@attr"` entry carries the residuals of its attributes and of the tensors
 * and subgraphs in their values (see raise/lift.ts); each becomes the own data of that part.
 */
export function expandLifted(
  targets: readonly Target[],
  own: Map<Target, JsonObject>,
  ownSpan: Map<Target, A.Comment["span"]>,
  diagnostics: Diagnostic[],
): void {
  const byMsg = new Map<object, Target>();
  for (const t of targets) if (!byMsg.has(t.msg)) byMsg.set(t.msg, t);
  for (const [t, data] of [...own]) {
    const lifted = data["@attr"];
    if (lifted === undefined || (t.kind !== "node" && t.kind !== "function")) continue;
    const span = ownSpan.get(t);
    const protos = t.kind === "node" ? t.msg.attribute : t.msg.attributeProto;
    const problem = (message: string): void => {
      diagnostics.push({ severity: "warning", code: "residual-stale", message: `${message}; the visible text is used`, ...(span && { span }) });
    };
    if (typeof lifted !== "object" || lifted === null || Array.isArray(lifted)) {
      diagnostics.push({ severity: "error", code: "extension", message: "'@attr' maps attribute indices to their residuals", ...(span && { span }) });
      continue;
    }
    const give = (msg: object | undefined, part: JsonValue | undefined, what: string): void => {
      if (part === undefined) return;
      const target = msg && byMsg.get(msg);
      if (!target || typeof part !== "object" || part === null || Array.isArray(part)) return problem(`the residual's ${what} is not in the text`);
      own.set(target, { ...(own.get(target) ?? {}), ...part });
      if (span) ownSpan.set(target, span);
    };
    for (const [k, entry] of Object.entries(lifted)) {
      const ap = protos[Number(k)];
      const target = ap && (byMsg.get(ap) as AttrTarget | undefined);
      if (!ap || !target || typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        problem(`the residual's attribute ${k} is not in the text`);
        continue;
      }
      const { "@tensor": tensor, "@tensors": tensors, "@graph": graph, "@graphs": graphs, ...fields } = entry;
      if (Object.keys(fields).length) give(ap, fields, `attribute ${k}`);
      give(ap.t, tensor, `tensor of attribute ${k}`);
      give(ap.g, graph, `graph of attribute ${k}`);
      for (const [list, items, what] of [
        [ap.tensors, tensors, "tensor"],
        [ap.graphs, graphs, "graph"],
      ] as const) {
        if (items === undefined) continue;
        if (typeof items !== "object" || items === null || Array.isArray(items)) problem(`the residual's ${what}s of attribute ${k} are not in the text`);
        else for (const [i, part] of Object.entries(items)) give(list[Number(i)], part, `${what} ${i} of attribute ${k}`);
      }
    }
  }
}
