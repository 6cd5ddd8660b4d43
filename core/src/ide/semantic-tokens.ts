// Semantic tokens: a classification of every name, keyword and literal by its role, so that
// a value called `float` colours as a value and an op type as a function.
import type { AstNode } from "../../../grammar/src/ast.js";
import type { Analysis } from "./analysis.js";
import { walkAst } from "../../../grammar/src/ast-walk.js";

export const TOKEN_TYPES = [
  "namespace", "type", "typeParameter", "parameter", "variable", "property", "function", "keyword",
  "comment", "string", "number", "label",
] as const;
export const TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];
export type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

export interface SemanticToken {
  readonly start: number;
  readonly length: number;
  readonly type: TokenType;
  readonly modifiers: readonly TokenModifier[];
}

export function semanticTokens(a: Analysis): SemanticToken[] {
  const out: SemanticToken[] = [];
  const push = (start: number, end: number, type: TokenType, modifiers: TokenModifier[] = []): void => {
    if (end > start) out.push({ start, length: end - start, type, modifiers });
  };
  for (const c of a.comments) push(c.span.start, c.span.end, "comment");
  if (a.ast) {
    const parents = new Map<AstNode, AstNode | undefined>();
    walkAst(a.ast, (n, parent) => {
      if (n.kind === "PackedNumbers") return false;
      parents.set(n, parent);
      const s = n.span;
      switch (n.kind) {
        case "Int":
        case "Float":
          push(s.start, s.end, "number");
          break;
        case "Str":
          push(s.start, s.end, "string");
          break;
        case "Keyword":
          push(s.start, s.end, parent?.kind === "HeaderEntry" ? "keyword" : "type");
          break;
        case "Name": {
          const cls = classifyName(a, n, parent, parent ? parents.get(parent) : undefined);
          if (cls) push(s.start, s.end, cls[0], cls[1]);
          break;
        }
      }
    });
  }
  out.sort((x, y) => x.start - y.start);
  return out;
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
