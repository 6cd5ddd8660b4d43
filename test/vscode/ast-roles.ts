// The highlighting each piece of a parsed file should get, read from the parser's AST: the
// reference the TextMate grammar is checked against over the corpus.
import type * as A from "../../grammar/src/ast.js";
import { parseModel } from "../../grammar/src/index.js";

export type Role =
  | "header-key"
  | "element-type"
  | "type-constructor"
  | "attribute-type"
  | "operator"
  | "domain"
  | "value-name"
  | "attribute-name"
  | "number"
  | "string"
  | "comment";

export const EXPECTED_SCOPE: Readonly<Record<Role, string>> = {
  "header-key": "keyword.other.header.onnxtxt",
  "element-type": "storage.type.primitive.onnxtxt",
  "type-constructor": "storage.type.constructor.onnxtxt",
  "attribute-type": "storage.type.attribute.onnxtxt",
  operator: "entity.name.function.operator.onnxtxt",
  domain: "entity.name.namespace.onnxtxt",
  "value-name": "variable.other.value.onnxtxt",
  "attribute-name": "entity.other.attribute-name.onnxtxt",
  number: "constant.numeric",
  string: "string.quoted.double.onnxtxt",
  comment: "comment.line.number-sign.onnxtxt",
};

export interface RoleAt {
  readonly role: Role;
  readonly offset: number;
}

function isNode(x: unknown): x is A.AstNode {
  return typeof x === "object" && x !== null && typeof (x as { kind?: unknown }).kind === "string";
}

/** Every role in `text`; undefined when the text does not parse cleanly. */
export function rolesOf(text: string): RoleAt[] | undefined {
  const parsed = parseModel(text);
  if (!parsed.ast || parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  const out: RoleAt[] = parsed.comments.map((c) => ({ role: "comment", offset: c.span.start }));
  const add = (role: Role, node: { span: { start: number } } | undefined): void => {
    if (node) out.push({ role, offset: node.span.start });
  };
  const name = (n: A.Name | A.Empty | undefined, role: Role): void => {
    if (n?.kind === "Name") add(n.quoted ? "string" : role, n);
  };
  const visit = (node: A.AstNode): void => {
    switch (node.kind) {
      case "HeaderEntry":
        add("header-key", node.key);
        break;
      case "TensorType":
        add("element-type", node.elem);
        break;
      case "MapType":
        add("type-constructor", node);
        add("element-type", node.key);
        break;
      case "SeqType":
      case "OptionalType":
      case "SparseTensorType":
      case "OpaqueType":
        add("type-constructor", node);
        break;
      case "Attribute":
        name(node.name, "attribute-name");
        add("attribute-type", node.annotation);
        break;
      case "OpName":
        name(node.opType, "operator");
        node.domain.forEach((d) => name(d, "domain"));
        break;
      case "Node":
        node.outputs.items.forEach((n) => name(n, "value-name"));
        node.inputs?.items.forEach((n) => name(n, "value-name"));
        break;
      case "ValueDecl":
        name(node.name, "value-name");
        break;
      case "Int":
      case "Float":
        add("number", node);
        break;
      case "PackedNumbers": {
        // One token for `{1, 2.5, ...}`: check each number's first character.
        const body = text.slice(node.span.start, node.span.end);
        for (const m of body.matchAll(/-?[0-9A-Za-z.+]+/g)) out.push({ role: "number", offset: node.span.start + m.index });
        break;
      }
      case "Str":
        add("string", node);
        break;
      default:
        break;
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => isNode(v) && visit(v));
      else if (isNode(value)) visit(value);
    }
  };
  visit(parsed.ast);
  return out;
}
