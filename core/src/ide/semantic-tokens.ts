// Semantic tokens: a classification of every name, keyword and literal by its role, so that
// a value called `float` colours as a value and an op type as a function.
import type { AstNode } from "../../../grammar/src/ast.js";
import type { Analysis } from "./analysis.js";
import { childrenOf, childrenOverlapping, WALK_STEP, walkAstSteps } from "../../../grammar/src/ast-walk.js";
import { finish } from "../../../grammar/src/steps.js";
import type { Span } from "../../../grammar/src/span.js";
import type { TextChange } from "./shift-diagnostics.js";
import { editedStatement } from "./edited-statement.js";
import { spliceDisjoint, type Spliced } from "./text-change.js";

export const TOKEN_TYPES = [
  "namespace",
  "type",
  "typeParameter",
  "parameter",
  "variable",
  "property",
  "function",
  "keyword",
  "comment",
  "string",
  "number",
  "label",
] as const;
export const TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];
type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

export interface SemanticToken {
  readonly start: number;
  readonly length: number;
  readonly type: TokenType;
  readonly modifiers: readonly TokenModifier[];
}

/** The tokens of the document, or of those that overlap `range` (a whole-document walk is pruned to it). */
export function semanticTokens(a: Analysis, range?: Span): SemanticToken[] {
  return finish(semanticTokenSteps(a, range));
}

/** semanticTokens in steps (see walkAstSteps): the same tokens, with pauses along the walk. */
export function* semanticTokenSteps(a: Analysis, range?: Span): Generator<void, SemanticToken[], void> {
  const out: SemanticToken[] = [];
  const inRange = (s: Span): boolean => !range || (s.start < range.end && range.start < s.end);
  const push = (start: number, end: number, type: TokenType, modifiers: TokenModifier[] = []): void => {
    if (end > start) out.push({ start, length: end - start, type, modifiers });
  };
  for (const c of a.comments) if (inRange(c.span)) push(c.span.start, c.span.end, "comment");
  // False: no children to visit.
  const visit = (n: AstNode, parent: AstNode | undefined, grandparent: AstNode | undefined): boolean => {
    if (n.kind === "PackedNumbers" || !inRange(n.span)) return false;
    const s = n.span;
    switch (n.kind) {
      case "Int":
      case "Float":
        push(s.start, s.end, "number");
        return false;
      case "Str":
        push(s.start, s.end, "string");
        return false;
      case "Keyword":
        push(s.start, s.end, parent?.kind === "HeaderEntry" ? "keyword" : "type");
        return false;
      case "Name": {
        const cls = classifyName(a, n, parent, grandparent);
        if (cls) push(s.start, s.end, cls[0], cls[1]);
        return false;
      }
    }
    return true;
  };
  if (a.ast) yield* walkAstSteps(a.ast, visit, WALK_STEP, range ? (n) => childrenOverlapping(n, range) : childrenOf);
  out.sort((x, y) => x.start - y.start);
  return out;
}

/**
 * The tokens of `a` from those of an older text `old` and one replacement between the two
 * texts, when the replacement lies inside one statement of `a` that parsed cleanly: only that
 * statement is classified again (a name's class depends on its own statement and on
 * declarations, which a node statement does not hold). Undefined when that does not apply.
 */
export function updatedTokens(a: Analysis, old: readonly SemanticToken[], change: TextChange): Spliced<SemanticToken> | undefined {
  const region = editedStatement(a, change);
  if (!region) return undefined;
  const delta = change.newLength - (change.end - change.start);
  const moved = (t: SemanticToken, d: number): SemanticToken => ({ ...t, start: t.start + d });
  return spliceDisjoint(old, (t) => t.start + t.length, moved, { start: region.start, end: region.end - delta }, delta, semanticTokens(a, region));
}

function classifyName(
  a: Analysis,
  n: Extract<AstNode, { kind: "Name" }>,
  parent: AstNode | undefined,
  grandparent: AstNode | undefined,
): [TokenType, TokenModifier[]] | undefined {
  switch (parent?.kind) {
    case "OpName":
      if (parent.opType === n) {
        const local = a.symbols.occurrenceAt(n.span.start)?.symbol.kind === "function";
        return ["function", local ? [] : ["defaultLibrary"]];
      }
      return parent.overload === n ? ["label", []] : ["namespace", []];
    case "Function":
      return ["function", ["declaration"]];
    case "Graph":
      return ["namespace", ["declaration"]];
    case "Attribute":
      return grandparent?.kind === "ParamList" ? ["parameter", ["declaration"]] : ["property", []];
    case "ParamList":
      return ["parameter", ["declaration"]];
    case "Ref":
      return ["parameter", []];
    case "Dim":
      return ["typeParameter", []];
    case "Label":
      return ["label", []];
    case "OpaqueType":
    case "TensorValue":
      return ["type", []];
    default: {
      const occ = a.symbols.occurrenceAt(n.span.start);
      if (!occ || occ.symbol.kind !== "value") return ["variable", []];
      const mods: TokenModifier[] = [];
      if (occ.role === "def") mods.push("declaration");
      if (occ.symbol.producer?.kind === "initializer") mods.push("readonly");
      return ["variable", mods];
    }
  }
}
