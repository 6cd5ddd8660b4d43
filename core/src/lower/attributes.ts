// Attributes: value kind inference, `: type` annotations and lists (syntax doc §3), as in the
// 1.23 parser. Deviation (follows the ONNX spec, not the 1.23 parser, which drops them): lists
// of tensors, graphs and types fill `tensors`, `graphs` and `type_protos`.
import type * as A from "../../../grammar/src/ast.js";
import { ATTRIBUTE_TYPES } from "../../../grammar/src/keywords.js";
import { AttributeProto_AttributeType as AT, AttributeProtoSchema, type AttributeProto, type GraphProto } from "../../../proto/src/index.js";
import type { LowerContext } from "./context.js";
import { parseFloat32 } from "./float32.js";
import { messageFactory } from "./messages.js";
import { lowerTensor } from "./tensors.js";
import { int64Of, lowerType } from "./types.js";

const utf8 = new TextEncoder();
const newAttribute = messageFactory(AttributeProtoSchema);

const PLURAL: Partial<Record<AT, AT>> = {
  [AT.INT]: AT.INTS,
  [AT.FLOAT]: AT.FLOATS,
  [AT.STRING]: AT.STRINGS,
  [AT.TENSOR]: AT.TENSORS,
  [AT.GRAPH]: AT.GRAPHS,
  [AT.SPARSE_TENSOR]: AT.SPARSE_TENSORS,
  [AT.TYPE_PROTO]: AT.TYPE_PROTOS,
};
const SINGULAR = new Map<AT, AT>(Object.entries(PLURAL).map(([s, p]) => [p, Number(s) as AT]));

const TYPE_NAMES = new Map<number, string>(Object.entries(ATTRIBUTE_TYPES).map(([k, v]) => [v, k]));

function typeName(t: AT): string {
  return TYPE_NAMES.get(t) ?? "undefined";
}

/** The AttributeType a single value has by itself (before annotations). */
function kindOf(v: A.AttrValue): AT | undefined {
  switch (v.kind) {
    case "Int":
      return AT.INT;
    case "Float":
      return AT.FLOAT;
    case "Str":
      return AT.STRING;
    case "TensorValue":
      return AT.TENSOR;
    case "TypeValue":
      return AT.TYPE_PROTO;
    case "Graph":
      return AT.GRAPH;
    default:
      return undefined;
  }
}

type GraphLowerer = (g: A.Graph) => GraphProto;

export interface AttrEnv {
  readonly cx: LowerContext;
  readonly text: string | undefined;
  readonly lowerGraph: GraphLowerer;
}

function floatOf(lit: A.IntLit | A.FloatLit, env: AttrEnv): number {
  const f = parseFloat32(lit.text);
  if (!Number.isFinite(f) && Number.isFinite(lit.kind === "Float" ? lit.value : Number(lit.value))) {
    env.cx.error("int-range", `${lit.text} is beyond the float range`, lit.span);
  }
  return f;
}

export function lowerAttribute(attr: A.Attribute, env: AttrEnv): AttributeProto {
  const { cx } = env;
  const a = newAttribute();
  a.name = attr.name?.value ?? "";
  const annotated = attr.annotation ? (ATTRIBUTE_TYPES[attr.annotation.text] as AT) : undefined;
  const v = attr.value;
  if (cx.mapping)
    cx.sourceMap.set(a, {
      whole: attr.span,
      ...(attr.name && { name: attr.name.span }),
      ...(attr.annotation && { type: attr.annotation.span }),
      ...(v && { value: v.span }),
    });
  if (!v) return a;
  if (v.kind === "List") {
    lowerList(a, v, annotated, env);
    return a;
  }
  if (v.kind === "Ref") {
    a.refAttrName = v.name?.value ?? "";
    if (annotated !== undefined) a.type = annotated;
    return a;
  }
  const kind = kindOf(v)!;
  if (v.kind === "Int" && annotated === AT.FLOAT) {
    a.type = AT.FLOAT;
    a.f = floatOf(v, env);
    return a;
  }
  if (annotated !== undefined && annotated !== kind) {
    cx.error("type-mismatch", `attribute '${a.name}' is declared ${typeName(annotated)} but its value is ${article(typeName(kind))}`, v.span);
    return a;
  }
  a.type = kind;
  setSingle(a, v, env);
  return a;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function setSingle(a: AttributeProto, v: A.AttrValue, env: AttrEnv): void {
  switch (v.kind) {
    case "Int":
      a.i = int64Of(v, env.cx, "the attribute value");
      return;
    case "Float":
      a.f = floatOf(v, env);
      return;
    case "Str":
      a.s = utf8.encode(v.value);
      return;
    case "TensorValue": {
      const t = lowerTensor({ type: v.type, name: v.name?.value ?? "", ...(v.data && { data: v.data }), span: v.span }, env.cx, env.text);
      if (t) a.t = t;
      return;
    }
    case "TypeValue":
      a.tp = lowerType(v.type, env.cx);
      return;
    case "Graph":
      a.g = env.lowerGraph(v);
      return;
  }
}

function lowerList(a: AttributeProto, list: A.ListValue, annotated: AT | undefined, env: AttrEnv): void {
  const { cx } = env;
  if (list.items.length === 0) {
    if (annotated === undefined) {
      cx.error("type-mismatch", `the empty list of attribute '${a.name}' needs a type annotation, e.g. ${a.name}: ints = []`, list.span);
    } else if (!SINGULAR.has(annotated)) {
      cx.error("type-mismatch", `attribute '${a.name}' is declared ${typeName(annotated)}, a single value, but its value is a list`, list.span);
    } else a.type = annotated;
    return;
  }
  // The list type starts as the annotation (a singular one is widened, as the reference does)
  // and is otherwise fixed by the first element.
  let listType: AT | undefined = annotated === undefined ? undefined : (PLURAL[annotated] ?? annotated);
  for (const item of list.items) {
    const expected = listType === undefined ? undefined : SINGULAR.get(listType);
    if (item.kind === "Ref") {
      cx.error("type-mismatch", "a reference (@name) cannot be a list element; write the reference as the whole value", item.span);
      continue;
    }
    let kind = kindOf(item)!;
    if (kind === AT.INT && expected === AT.FLOAT) kind = AT.FLOAT;
    if (expected !== undefined && kind !== expected) {
      cx.error("type-mismatch", `a list of ${typeName(listType!)} cannot hold ${article(typeName(kindOf(item)!))}`, item.span);
      continue;
    }
    listType ??= PLURAL[kind];
    switch (item.kind) {
      case "Int":
        if (kind === AT.FLOAT) a.floats.push(floatOf(item, env));
        else a.ints.push(int64Of(item, cx, "the list element"));
        break;
      case "Float":
        a.floats.push(floatOf(item, env));
        break;
      case "Str":
        a.strings.push(utf8.encode(item.value));
        break;
      case "TensorValue": {
        const t = lowerTensor({ type: item.type, name: item.name?.value ?? "", ...(item.data && { data: item.data }), span: item.span }, cx, env.text);
        if (t) a.tensors.push(t);
        break;
      }
      case "TypeValue":
        a.typeProtos.push(lowerType(item.type, cx));
        break;
      case "Graph":
        a.graphs.push(env.lowerGraph(item));
        break;
    }
  }
  if (listType !== undefined) a.type = listType;
}
