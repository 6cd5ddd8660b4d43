// AttributeProto -> `name = value`. Values print in a form whose type the parser infers
// (floats always with a `.`), so annotations appear only where the syntax needs them:
// empty lists, references, and lists of tensors, graphs or types.
import type * as A from "../../../grammar/src/ast.js";
import {
  AttributeProto_AttributeType as AT,
  AttributeProtoSchema,
  TensorProtoSchema as tensorSchema,
  type AttributeProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { isSet } from "../ext/fields.js";
import { CANONICAL_NAN32, nanBitsAt } from "../io/nan-bits.js";
import { asFloatLiteral, float32Bits, formatFloat32 } from "../numbers/float-text.js";
import { isBareGraphName, isPlainWord } from "../../../grammar/src/names.js";
import { bareName, float, int, keyword, name, NO_SPAN, str } from "./ast-build.js";
import type { ModelDefaults, RaiseContext } from "./context.js";
// biome-ignore lint/suspicious/noImportCycles: a graph attribute holds a graph, which holds attributes (mutual recursion)
import { raiseGraph } from "./raise-graph.js";
import { raiseTensor, writtenAsExternal } from "./raise-tensor.js";
import { fieldsOf, has, setNames } from "./presence.js";
import { ATTR_FIELDS, ATTR_NAME, ATTR_REF_NAME, ATTR_TYPE, ATTR_VALUE_FIELDS } from "./field-tables.js";
import { raiseType } from "./raise-type.js";
import { Residual } from "./residual.js";
import { utf8Text } from "./utf8-text.js";

const ANNOTATION: Partial<Record<AT, string>> = {
  [AT.FLOAT]: "float",
  [AT.INT]: "int",
  [AT.STRING]: "string",
  [AT.TENSOR]: "tensor",
  [AT.GRAPH]: "graph",
  [AT.FLOATS]: "floats",
  [AT.INTS]: "ints",
  [AT.STRINGS]: "strings",
  [AT.TENSORS]: "tensors",
  [AT.GRAPHS]: "graphs",
  [AT.SPARSE_TENSOR]: "sparse_tensor",
  [AT.SPARSE_TENSORS]: "sparse_tensors",
  [AT.TYPE_PROTO]: "type_proto",
  [AT.TYPE_PROTOS]: "type_protos",
};

/** The proto field each attribute type stores its value in. */
const VALUE_FIELD: Partial<Record<AT, string>> = {
  [AT.FLOAT]: "f",
  [AT.INT]: "i",
  [AT.STRING]: "s",
  [AT.TENSOR]: "t",
  [AT.GRAPH]: "g",
  [AT.FLOATS]: "floats",
  [AT.INTS]: "ints",
  [AT.STRINGS]: "strings",
  [AT.TENSORS]: "tensors",
  [AT.GRAPHS]: "graphs",
  [AT.SPARSE_TENSORS]: "sparse_tensors",
  [AT.TYPE_PROTO]: "tp",
  [AT.TYPE_PROTOS]: "type_protos",
};

const SCALAR_FIELDS = new Set(["f", "i", "s"]);

const [TYPE, REF_ATTR_NAME, NAME] = [ATTR_TYPE, ATTR_REF_NAME, ATTR_NAME];
const DOC_STRING = fieldsOf(AttributeProtoSchema, ["doc_string"]);

/** Which kind of value an attribute holds: its type, or the one field that is set. */
export function kindOf(a: AttributeProto): AT | undefined {
  if (has(a, ATTR_FIELDS, TYPE) && ANNOTATION[a.type]) return a.type;
  for (const [t, f] of Object.entries(VALUE_FIELD)) if (isSet(AttributeProtoSchema, a, f)) return Number(t) as AT;
  return undefined;
}

/** The bits of a NaN float attribute element: the recorded ones (see io/nan-bits.ts), else the number's. */
function nanBits(a: AttributeProto, field: number, index: number, v: number): number {
  return Number(nanBitsAt(a, field, index) ?? float32Bits(v));
}

function floatLit(a: AttributeProto, residual: Residual, key: string): A.FloatLit {
  const v = a.f;
  if (v !== v) {
    const bits = nanBits(a, AttributeProtoSchema.field.f.number, 0, v);
    if (bits !== CANONICAL_NAN32) residual.put(key, bits.toString(16));
  }
  return float(asFloatLiteral(formatFloat32(v)), v);
}

function list(items: A.AttrValue[]): A.ListValue {
  return { kind: "List", span: NO_SPAN, items };
}

/**
 * Whether an attribute tensor's name presence differs from the model default (no name, set
 * or not against the default) in a way the file-level residual records, given that the tensor
 * is identified there (see tensorValue's `at`).
 */
export function differsInTensorName(t: TensorProto, defaults: ModelDefaults): boolean {
  return t.name === "" && isSet(tensorSchema, t, "name") === defaults.tensorNameUnset && !writtenAsExternal(t);
}

/**
 * A tensor as an attribute value: `float[2] name {1, 2}`. `at` gives the key ([first output,
 * attribute name]) that identifies a single tensor value in the file-level residual, where an
 * unusual name presence then goes instead of a residual of its own; it is asked for only then.
 */
export function tensorValue(t: AttributeProto["t"] & object, ctx: RaiseContext, at?: () => [string, string] | undefined): A.TensorValue {
  const { type, data, residual } = raiseTensor(t, ctx, true);
  const nameSet = isSet(tensorSchema, t, "name");
  let tname: A.Name | undefined;
  let key: [string, string] | undefined;
  if (nameSet && t.name !== "" && isBareGraphName(t.name)) tname = bareName(t.name);
  else if (nameSet && t.name !== "") residual.keep(tensorSchema, t, ["name"]);
  else if (differsInTensorName(t, ctx.defaults) && (key = at?.()) !== undefined) ctx.tensorNameExcept.push(key);
  else if (nameSet && ctx.defaults.tensorNameUnset) residual.put("name", "");
  else if (!nameSet && !ctx.defaults.tensorNameUnset) residual.clear("name");
  if (!tname && data.kind === "ExternalData") {
    // An unnamed external tensor cannot be written; a placeholder name is replaced back.
    tname = bareName("t");
    if (nameSet) residual.keep(tensorSchema, t, ["name"]);
    else residual.clear("name");
  }
  const node: A.TensorValue = { kind: "TensorValue", span: NO_SPAN, type, ...(tname ? { name: tname } : {}), data };
  ctx.hold(node, residual);
  return node;
}

/** A bare type as a value; an inexpressible one prints as `float` and the caller keeps it. */
function typeValue(tp: AttributeProto["tp"] & object): A.TypeValue {
  const type = raiseType(tp);
  return { kind: "TypeValue", span: NO_SPAN, type: type ?? { kind: "TensorType", span: NO_SPAN, elem: keyword("float") } };
}

/** Whether the attribute refers to one of its function's attributes (`name = @other`). */
export function isReference(a: AttributeProto): boolean {
  return has(a, ATTR_FIELDS, REF_ATTR_NAME);
}

/** How the file-level residual names an attribute's tensor: [the node's key, the attribute name]. */
export function tensorKey(nodeKey: string | undefined, a: AttributeProto): [string, string] | undefined {
  return nodeKey !== undefined && isPlainWord(a.name) ? [nodeKey, a.name] : undefined;
}

/**
 * Raises one attribute (its residual held for the statement); undefined when the syntax has no
 * way to write it at all. `nodeKey` gives the node's key in the file-level residual, asked for
 * only if an attribute tensor needs it.
 */
export function raiseAttribute(a: AttributeProto, ctx: RaiseContext, nodeKey?: () => string | undefined): A.Attribute | undefined {
  const residual = new Residual().keepSet(a, DOC_STRING);
  const kind = kindOf(a);
  const typeSet = has(a, ATTR_FIELDS, TYPE);
  let attrName: A.Name;
  if (isPlainWord(a.name)) attrName = bareName(a.name);
  else {
    attrName = bareName("_");
    if (has(a, ATTR_FIELDS, NAME)) residual.keep(AttributeProtoSchema, a, ["name"]);
    else residual.clear("name");
  }
  const used = new Set<string>();
  let value: A.AttrValue;
  let annotate = false;
  const isRef = isReference(a);
  if (isRef) {
    value = { kind: "Ref", span: NO_SPAN, name: name(a.refAttrName) };
    used.add("ref_attr_name");
    annotate = typeSet && ANNOTATION[a.type] !== undefined;
    if (typeSet && !annotate) residual.keep(AttributeProtoSchema, a, ["type"]);
  } else {
    if (kind === undefined || kind === AT.SPARSE_TENSOR) return undefined;
    const field = VALUE_FIELD[kind]!;
    used.add(field);
    switch (kind) {
      case AT.FLOAT:
        value = floatLit(a, residual, "@nan");
        break;
      case AT.INT:
        value = int(a.i);
        break;
      case AT.STRING: {
        const s = utf8Text(a.s);
        if (s === undefined) residual.keep(AttributeProtoSchema, a, ["s"]);
        value = str(s ?? "");
        break;
      }
      case AT.TENSOR:
        if (!a.t) return undefined;
        value = tensorValue(a.t, ctx, () => tensorKey(nodeKey?.(), a));
        break;
      case AT.GRAPH:
        if (!a.g) return undefined;
        value = raiseGraph(a.g, ctx, true);
        break;
      case AT.TYPE_PROTO:
        if (!a.tp) return undefined;
        value = typeValue(a.tp);
        if (!raiseType(a.tp)) residual.keep(AttributeProtoSchema, a, ["tp"]);
        break;
      case AT.FLOATS: {
        const nan: Record<string, string> = {};
        value = list(
          a.floats.map((v, i) => {
            const bits = v !== v ? nanBits(a, AttributeProtoSchema.field.floats.number, i, v) : CANONICAL_NAN32;
            if (bits !== CANONICAL_NAN32) nan[i] = bits.toString(16);
            return float(asFloatLiteral(formatFloat32(v)), v);
          }),
        );
        if (Object.keys(nan).length) residual.put("@nan", nan);
        break;
      }
      case AT.INTS:
        value = list(a.ints.map((v) => int(v)));
        break;
      case AT.STRINGS: {
        const texts = a.strings.map((b) => utf8Text(b));
        if (texts.some((t) => t === undefined)) {
          residual.keep(AttributeProtoSchema, a, ["strings"]);
          value = list([]);
        } else value = list(texts.map((t) => str(t!)));
        break;
      }
      case AT.TENSORS:
        value = list(a.tensors.map((t) => tensorValue(t, ctx)));
        annotate = true;
        break;
      case AT.GRAPHS:
        value = list(a.graphs.map((g) => raiseGraph(g, ctx, true)));
        annotate = true;
        break;
      case AT.TYPE_PROTOS:
        if (a.typeProtos.some((t) => !raiseType(t))) residual.keep(AttributeProtoSchema, a, ["type_protos"]);
        value = list(a.typeProtos.map(typeValue));
        annotate = true;
        break;
      case AT.SPARSE_TENSORS:
        // Only the empty list has a spelling; the residual restores the elements.
        residual.keep(AttributeProtoSchema, a, ["sparse_tensors"]);
        value = list([]);
        annotate = true;
        break;
      default:
        return undefined;
    }
    if (value.kind === "List" && value.items.length === 0) annotate = true;
    // The text sets the type; without one in the message it must be cleared again.
    if (!typeSet) residual.clear("type");
    else if (a.type !== kind) residual.keep(AttributeProtoSchema, a, ["type"]);
    // Scalars the text always writes: an unset one comes back set unless cleared.
    if (SCALAR_FIELDS.has(field) && !isSet(AttributeProtoSchema, a, field)) residual.clear(field);
  }
  // Value fields set beside the one written (usually none).
  const others = setNames(a, ATTR_VALUE_FIELDS).filter((f) => !used.has(f) && f !== "doc_string");
  if (others.length) residual.keep(AttributeProtoSchema, a, others);
  const annotationKind = kind ?? (typeSet ? a.type : undefined);
  const annotation = annotate && annotationKind !== undefined && ANNOTATION[annotationKind] ? keyword(ANNOTATION[annotationKind]!) : undefined;
  if (isRef && typeSet && !annotation) residual.keep(AttributeProtoSchema, a, ["type"]);
  const node: A.Attribute = { kind: "Attribute", span: NO_SPAN, name: attrName, ...(annotation ? { annotation } : {}), value };
  ctx.hold(node, residual);
  return node;
}
