// Rename of values, functions and function parameters. Edits exactly the occurrences the
// symbol index links, so subgraph scopes and outer-scope captures are respected.
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { isIdentifier, writeName } from "./names.js";
import type { TextEdit } from "./text-edit.js";


export type PrepareRenameResult =
  | { readonly ok: true; readonly span: Span; readonly placeholder: string }
  | { readonly ok: false; readonly reason: string };

export function prepareRename(a: Analysis, offset: number): PrepareRenameResult {
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return { ok: false, reason: "Only values, functions and function parameters can be renamed (not op names or keywords)." };
  return { ok: true, span: occ.span, placeholder: occ.symbol.name };
}

export type RenameResult = { readonly ok: true; readonly edits: TextEdit[] } | { readonly ok: false; readonly reason: string };

export function rename(a: Analysis, offset: number, newName: string): RenameResult {
  const prep = prepareRename(a, offset);
  if (!prep.ok) return prep;
  const occ = a.symbols.occurrenceAt(offset)!;
  const sym = occ.symbol;
  if (newName === "") return { ok: false, reason: "The new name is empty." };
  const bareOnly = sym.occurrences.some((o) => !o.quotable);
  if (bareOnly && !isIdentifier(newName)) {
    const where = sym.kind === "function" ? "op types at call sites" : "attribute names at call sites";
    return { ok: false, reason: `'${newName}' is not an identifier, and ${where} cannot be quoted.` };
  }
  const clash = sym.kind === "value" && sym.scope ? sym.scope.values.get(newName) : undefined;
  if (clash && clash !== sym && clash.producer) {
    return { ok: false, reason: `'${newName}' is already defined in this scope.` };
  }
  const quoted = writeName(newName);
  const edits = sym.occurrences
    .map((o) => ({ span: o.span, newText: o.quotable ? quoted : newName }))
    .sort((x, y) => x.span.start - y.span.start);
  return { ok: true, edits };
}
