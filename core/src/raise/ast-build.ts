// Constructors for AST nodes that have no source text: every span is the zero-width span at
// offset 0, as the AST contract allows for raised trees.
import type * as A from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import { nameText } from "../../../grammar/src/names.js";

export const NO_SPAN: Span = { start: 0, end: 0 };

/** A name in a quotable position: bare when it can be, quoted otherwise. */
export function name(value: string): A.Name {
  return { kind: "Name", span: NO_SPAN, value, quoted: nameText(value) !== value };
}

/** A name in an identifier-only position (the caller has checked that it is one). */
export function bareName(value: string): A.Name {
  return { kind: "Name", span: NO_SPAN, value, quoted: false };
}

export function keyword(text: string): A.Keyword {
  return { kind: "Keyword", span: NO_SPAN, text };
}

export function int(value: bigint | number): A.IntLit {
  const v = BigInt(value);
  return { kind: "Int", span: NO_SPAN, text: v.toString(), value: v };
}

export function float(text: string, value: number): A.FloatLit {
  return { kind: "Float", span: NO_SPAN, text, value };
}

export function str(value: string): A.StrLit {
  return { kind: "Str", span: NO_SPAN, value };
}

export function valueDeclList(items: A.ValueDecl[]): A.ValueDeclList {
  return { kind: "ValueDeclList", span: NO_SPAN, items };
}

export function propList(entries: readonly { key: string; value: string }[]): A.PropList {
  return {
    kind: "PropList",
    span: NO_SPAN,
    items: entries.map((e) => ({ kind: "PropEntry", span: NO_SPAN, key: str(e.key), value: str(e.value) })),
  };
}
