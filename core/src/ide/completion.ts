// Completion: operators after `=`, attribute names and typical values inside `<...>`, the
// values in scope inside an input list, types in signatures, header keys and domains.
import type { Analysis } from "./analysis.js";
import { innermost, pathAt } from "../../../grammar/src/ast-walk.js";
import {
  ATTRIBUTE_TYPES as ATTRIBUTE_TYPE_WORDS,
  ELEMENT_TYPES,
  FUNCTION_HEADER_KEYS,
  MODEL_HEADER_KEYS,
  TYPE_CONSTRUCTORS,
} from "../../../grammar/src/keywords.js";
import { nameText } from "../../../grammar/src/names.js";
import { opsetsAt } from "./opsets.js";
import { attributeText, defaultText } from "./schema-text.js";
import { canonicalDomain, getSchema, knownDomains, latestOpsetVersion, listOps, type AttributeSchema, type OpSchema } from "../schema/index.js";
import { functionKey } from "./symbols.js";
import { openBrackets, opBefore, wordBefore } from "./text-context.js";

export type CompletionKind = "operator" | "function" | "attribute" | "value" | "type" | "keyword" | "domain" | "constant";

interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  readonly documentation?: string;
  /** Snippet syntax (`${1:X}`) when `snippet` is true, plain text otherwise. */
  readonly insertText: string;
  readonly snippet: boolean;
  readonly sortText?: string;
}

interface CompletionResult {
  /** The text the items replace: the word typed so far. */
  readonly replaceStart: number;
  readonly items: CompletionItem[];
}

export function completion(a: Analysis, offset: number): CompletionResult {
  const word = wordBefore(a.text, offset);
  const replaceStart = offset - word.length;
  const stack = openBrackets(a.text, replaceStart);
  const open = stack.at(-1);
  const result = (items: CompletionItem[]): CompletionResult => ({ replaceStart, items });

  if (!open || open.char === "{") {
    const lineStart = a.text.lastIndexOf("\n", replaceStart - 1) + 1;
    const before = a.text.slice(lineStart, replaceStart);
    if (/(^|[^=])=\s*$/.test(before) && !/=>\s*$/.test(before)) return result(operatorItems(a, offset));
    return result([]);
  }
  if (open.char === "<") {
    const op = opBefore(a.text, open.offset);
    if (op) return result(attributeItems(a, open.offset, offset, op.domain, op.opType));
    if (stack.length === 1) return result(headerKeyItems(a, open.offset));
    return result(typeItems());
  }
  if (open.char === "(") {
    if (opBefore(a.text, open.offset)) return result(valueItems(a, offset));
    return result(typeItems());
  }
  // `[`: an opset list in a header offers domains.
  if (stack.length >= 2 && stack[stack.length - 2]!.char === "<" && /opset_import\s*:\s*$/.test(a.text.slice(Math.max(0, open.offset - 40), open.offset))) {
    return result(knownDomains().map((d) => ({ label: JSON.stringify(d), kind: "domain" as const, insertText: `${JSON.stringify(d)} : `, snippet: false })));
  }
  return result([]);
}

function operatorItems(a: Analysis, offset: number): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const [domain, version] of opsetsAt(a.ast, offset)) {
    for (const s of listOps(domain, version)) {
      const op = domain ? `${domain}.${s.name}` : s.name;
      items.push({
        label: op,
        kind: "operator",
        detail: `since opset ${s.sinceVersion}`,
        documentation: s.docUrl,
        insertText: `${op} (${inputSnippet(s)})`,
        snippet: true,
      });
    }
  }
  for (const f of a.ast?.functions ?? []) {
    const k = functionKey(f);
    if (!k.name) continue;
    const op = k.domain ? `${k.domain}.${k.name}` : k.name;
    const ins = (f.inputs?.items ?? []).map((d, i) => `\${${i + 1}:${d.name?.value ?? "x"}}`).join(", ");
    items.push({ label: op, kind: "function", detail: "model-local function", insertText: `${op} (${ins})`, snippet: true });
  }
  return items;
}

function inputSnippet(s: OpSchema): string {
  const required = s.inputs.filter((p) => p.option !== "optional");
  return required.map((p, i) => `\${${i + 1}:${p.name}}`).join(", ");
}

/** An attribute the op at hand accepts, from its schema or a local function's parameters. */
interface AttrChoice {
  readonly name: string;
  readonly required: boolean;
  readonly type?: AttributeSchema["type"];
  readonly defaultText?: string;
  readonly detail: string;
}

const ATTRIBUTE_TYPES = new Set(Object.keys(ATTRIBUTE_TYPE_WORDS).map((w) => w.toUpperCase()));

function attributeChoices(a: Analysis, open: number, domain: string, opType: string): AttrChoice[] {
  const local = a.ast?.functions.find((f) => {
    const k = functionKey(f);
    return k.name === opType && k.domain === domain;
  });
  if (local) {
    return (local.params?.items ?? []).flatMap((p): AttrChoice[] => {
      if (p.kind === "Name") return [{ name: p.value, required: true, detail: "function attribute" }];
      if (!p.name) return [];
      const type = p.annotation?.text.toUpperCase();
      return [
        {
          name: p.name.value,
          required: false,
          ...(type && ATTRIBUTE_TYPES.has(type) ? { type: type as AttributeSchema["type"] } : {}),
          ...(p.value ? { defaultText: a.text.slice(p.value.span.start, p.value.span.end) } : {}),
          detail: `function attribute: ${a.text.slice(p.span.start, p.span.end)}`,
        },
      ];
    });
  }
  const version = opsetsAt(a.ast, open).get(canonicalDomain(domain));
  const schema = version === undefined ? undefined : getSchema(domain, opType, version);
  return [...(schema?.attributes.values() ?? [])].map((x) => ({
    name: x.name,
    required: x.required,
    type: x.type,
    ...(x.default !== undefined ? { defaultText: defaultText(x.default, x.type) } : {}),
    detail: attributeText(x),
  }));
}

function attributeItems(a: Analysis, open: number, offset: number, domain: string, opType: string): CompletionItem[] {
  const inside = a.text.slice(open + 1, offset);
  const segment = inside.slice(inside.lastIndexOf(",") + 1);
  const eq = /^\s*([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*[\w.@"-]*$/.exec(segment);
  const attrs = attributeChoices(a, open, domain, opType);
  if (eq)
    return attributeValueItems(
      a,
      open,
      attrs.find((x) => x.name === eq[1]),
    );
  const present = new Set([...inside.matchAll(/(?:^|,)\s*([A-Za-z_]\w*)\s*[:=]/g)].map((m) => m[1]));
  return attrs
    .filter((x) => !present.has(x.name))
    .map((x) => ({
      label: x.name,
      kind: "attribute" as const,
      detail: x.detail,
      insertText: x.defaultText !== undefined ? `${x.name} = \${1:${x.defaultText}}` : `${x.name} = \${1}`,
      snippet: true,
      sortText: `${x.required ? 0 : 1}${x.name}`,
    }));
}

const TYPICAL: Partial<Record<AttributeSchema["type"], string[]>> = {
  INT: ["0", "1"],
  FLOAT: ["1.0", "0.0"],
  INTS: ["[1, 1]", "[0, 0, 0, 0]"],
  FLOATS: ["[1.0]"],
  STRING: ['""'],
  STRINGS: ['[""]'],
  TENSOR: ["float[1] {0}", "int64[1] {0}"],
  GRAPH: ["g () => () {}"],
  TYPE_PROTO: ["float[]"],
};

function attributeValueItems(a: Analysis, open: number, attr: AttrChoice | undefined): CompletionItem[] {
  const out: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (text: string, detail: string): void => {
    if (seen.has(text)) return;
    seen.add(text);
    out.push({ label: text, kind: "constant", detail, insertText: text, snippet: false });
  };
  if (attr?.defaultText !== undefined) add(attr.defaultText, "default");
  for (const t of attr?.type ? (TYPICAL[attr.type] ?? []) : []) add(t, attr!.type!.toLowerCase());
  // Inside a function body, its attribute parameters can be referenced.
  const fn = a.ast?.functions.find((f) => f.span.start <= open && open <= f.span.end);
  for (const p of fn?.params?.items ?? []) {
    const name = (p.kind === "Name" ? p : p.name)?.value;
    if (name) add(`@${nameText(name)}`, "attribute reference");
  }
  return out;
}

function valueItems(a: Analysis, offset: number): CompletionItem[] {
  const scope = a.symbols.scopeAt(offset);
  if (!scope) return [];
  // A node cannot read its own outputs.
  const node = a.ast ? innermost(pathAt(a.ast, offset), "Node") : undefined;
  const visible = a.symbols.visibleValues(scope).filter((v) => !(v.producer?.kind === "node" && v.producer.node === node));
  return visible.map((v) => {
    const type = a.typeOf(v);
    return { label: v.name, kind: "value" as const, ...(type ? { detail: type } : {}), insertText: nameText(v.name), snippet: false };
  });
}

function typeItems(): CompletionItem[] {
  return [
    ...ELEMENT_TYPES.map((t) => ({ label: t, kind: "type" as const, insertText: t, snippet: false })),
    ...TYPE_CONSTRUCTORS.map((t) => ({ label: t, kind: "type" as const, insertText: `${t}(\${1})`, snippet: true })),
  ];
}

function headerKeyItems(a: Analysis, open: number): CompletionItem[] {
  const inFunction =
    (a.ast?.functions ?? []).some((f) => f.span.start <= open && open <= f.span.end) || (a.ast?.graph !== undefined && open > a.ast.graph.span.end);
  const keys = inFunction ? FUNCTION_HEADER_KEYS : MODEL_HEADER_KEYS;
  return keys.map((k) => ({
    label: k,
    kind: "keyword" as const,
    insertText: k === "opset_import" ? `opset_import: ["" : \${1:${latestOpsetVersion("") ?? 1}}]` : `${k}: `,
    snippet: k === "opset_import",
  }));
}
