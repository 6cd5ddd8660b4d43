// Residuals that no longer match the visible text: a `residual-stale` warning at the comment,
// and the visible text wins.
import type { JsonObject } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { isAdditive, visibleDigest } from "./digest.js";
import type { Target } from "./targets.js";

/**
 * A residual whose `"@digest"` no longer matches the visible part of its element (edited by
 * hand) keeps only what adds to the element (a doc string, the storage); what restates or
 * depends on the visible text is dropped with a `residual-stale` warning: the text wins.
 */
export function checkDigests(own: Map<Target, JsonObject>, ownSpan: Map<Target, A.Comment["span"]>, diagnostics: Diagnostic[]): void {
  for (const [t, data] of own) {
    const digest = data["@digest"];
    if (digest === undefined || t.kind === "attr") continue;
    const now = visibleDigest(t.kind, t.kind === "graph" ? { name: t.msg.name } : t.msg);
    if (now === digest) continue;
    const kept: JsonObject = {};
    const dropped: string[] = [];
    for (const [k, v] of Object.entries(data)) {
      if (isAdditive(k)) kept[k] = v;
      else if (k !== "@digest") dropped.push(k);
    }
    own.set(t, kept);
    const span = ownSpan.get(t);
    diagnostics.push({
      severity: "warning",
      code: "residual-stale",
      message: `the ${t.kind} was edited after this residual was written (digest ${String(digest)}, now ${now}): its ${dropped.join(", ")} ${dropped.length === 1 ? "no longer applies" : "no longer apply"}; the visible text is used`,
      ...(span && { span }),
    });
  }
}

export function staleNote(what: string, span: A.Comment["span"] | undefined): Diagnostic {
  return { severity: "warning", code: "residual-stale", message: `the residual's ${what} is ignored: the visible text wins`, ...(span && { span }) };
}
