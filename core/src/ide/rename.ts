// Rename of values, functions and function parameters. Edits exactly the occurrences the
// symbol index links, so subgraph scopes and outer-scope captures are respected.
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { isIdentifier, nameText } from "../../../grammar/src/names.js";
import { functionKey, functionKeyString, type Scope, type SymbolInfo } from "./symbols.js";
import type { TextEdit } from "./text-edit.js";

type PrepareRenameResult = { readonly ok: true; readonly span: Span; readonly placeholder: string } | { readonly ok: false; readonly reason: string };

export function prepareRename(a: Analysis, offset: number): PrepareRenameResult {
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return { ok: false, reason: "Only values, functions and function parameters can be renamed (not op names or keywords)." };
  return { ok: true, span: occ.span, placeholder: occ.symbol.name };
}

type RenameResult = { readonly ok: true; readonly edits: TextEdit[] } | { readonly ok: false; readonly reason: string };

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
  const clash = clashOf(a, sym, newName);
  if (clash) return { ok: false, reason: clash };
  const quoted = nameText(newName);
  const edits = sym.occurrences.map((o) => ({ span: o.span, newText: o.quotable ? quoted : newName })).sort((x, y) => x.span.start - y.span.start);
  return { ok: true, edits };
}

/** Why `newName` would change what some name refers to, if it would. */
function clashOf(a: Analysis, sym: SymbolInfo, newName: string): string | undefined {
  if (newName === sym.name) return undefined;
  if (sym.kind === "value" && sym.scope) {
    // Conservative: any definition of the new name in this scope, an enclosing one (it would
    // be shadowed) or a nested one (it would shadow) is refused.
    const home = sym.scope;
    const related = (s: Scope): boolean => {
      for (let p: Scope | undefined = s; p; p = p.parent) if (p === home) return true;
      for (let p: Scope | undefined = home.parent; p; p = p.parent) if (p === s) return true;
      return false;
    };
    for (const s of a.symbols.scopes) {
      const other = s.values.get(newName);
      if (other && other !== sym && other.producer && related(s)) {
        return `'${newName}' is already defined ${s === home ? "in this scope" : "in an enclosing or nested graph"}.`;
      }
    }
  }
  if (sym.kind === "param") {
    for (const params of a.symbols.functionParams.values()) {
      if ([...params.values()].includes(sym) && params.has(newName)) return `'${newName}' is already an attribute of this function.`;
    }
  }
  if (sym.kind === "function" && sym.func) {
    const key = functionKey(sym.func);
    if (a.symbols.functions.has(functionKeyString({ ...key, name: newName }))) return `a function '${newName}' already exists in domain '${key.domain}'.`;
  }
  return undefined;
}
