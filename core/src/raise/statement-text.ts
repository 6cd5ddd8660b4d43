// The fast path of printing a big graph: a plain node's statement text straight from its
// NodeProto, as raiseNode + the printer would write it flat, without the AST or the layout
// document in between. "Plain" means raiseNode would attach no residual and leave no trace in
// the raise context: known fields only, names the syntax can spell, scalar or list attributes
// of their declared type. Anything else gives undefined and takes the full path.
import { AttributeProto_AttributeType as AT, type AttributeProto, type NodeProto } from "../../../proto/src/index.js";
import { isPlainWord, nameText, quote } from "../../../grammar/src/names.js";
import { asFloatLiteral, formatFloat32 } from "../numbers/float-text.js";
import type { ModelDefaults } from "./context.js";
import { ATTR_FIELDS, ATTR_REF_NAME, ATTR_TYPE, ATTR_VALUE_FIELDS, differsInDomain } from "./field-tables.js";
import { has, isOwnField } from "./presence.js";
import { utf8Text } from "./utf8-text.js";

/** Index in ATTR_VALUE_FIELDS of the field each fast-path attribute type keeps its value in. */
const VALUE_INDEX: Partial<Record<AT, number>> = { [AT.FLOAT]: 0, [AT.INT]: 1, [AT.STRING]: 2, [AT.FLOATS]: 5, [AT.INTS]: 6, [AT.STRINGS]: 7 };

/** `a, b` for an id list; names the syntax cannot take bare are quoted (`""` for an empty one). */
function ids(names: readonly string[]): string {
  let text = "";
  for (let i = 0; i < names.length; i++) text += i > 0 ? ", " + nameText(names[i]!) : nameText(names[i]!);
  return text;
}

/** Float attribute texts already made: graphs repeat a few values (alpha, epsilon) many times. */
const floatTexts = new Map<number, string>();

function floatText(v: number): string | undefined {
  if (v !== v) return undefined; // (NaNs may need their bits kept)
  let text = floatTexts.get(v);
  if (text === undefined) {
    text = asFloatLiteral(formatFloat32(v));
    if (floatTexts.size >= 1024) floatTexts.clear();
    if (v !== 0) floatTexts.set(v, text); // (a key 0 would stand for -0 too)
  }
  return text;
}

/** Whether the attribute sets exactly the one field its type says (no doc string, no reference, nothing beside). */
function onlyValueField(a: AttributeProto, index: number): boolean {
  const f = ATTR_VALUE_FIELDS.isSet;
  for (let i = 0; i < f.length; i++) if (f[i]!(a as unknown as Readonly<Record<string, unknown>>) !== (i === index)) return false;
  return true;
}

/** `name = value` of a plain attribute, or undefined. */
function attributeText(a: AttributeProto): string | undefined {
  if (!has(a, ATTR_FIELDS, ATTR_TYPE) || has(a, ATTR_FIELDS, ATTR_REF_NAME) || !isPlainWord(a.name)) return undefined;
  const index = VALUE_INDEX[a.type];
  if (index === undefined || !onlyValueField(a, index)) return undefined;
  let value: string | undefined;
  switch (a.type) {
    case AT.FLOAT:
      value = floatText(a.f);
      break;
    case AT.INT:
      value = a.i.toString();
      break;
    case AT.STRING: {
      const s = utf8Text(a.s);
      value = s === undefined ? undefined : quote(s);
      break;
    }
    case AT.FLOATS:
      value = "[";
      for (let i = 0; i < a.floats.length && value !== undefined; i++) {
        const t = floatText(a.floats[i]!);
        value = t === undefined ? undefined : value + (i > 0 ? ", " + t : t);
      }
      if (value !== undefined) value += "]";
      break;
    case AT.INTS:
      value = "[";
      for (let i = 0; i < a.ints.length; i++) value += i > 0 ? ", " + a.ints[i]!.toString() : a.ints[i]!.toString();
      value += "]";
      break;
    case AT.STRINGS:
      value = "[";
      for (let i = 0; i < a.strings.length && value !== undefined; i++) {
        const s = utf8Text(a.strings[i]!);
        value = s === undefined ? undefined : value + (i > 0 ? ", " + quote(s) : quote(s));
      }
      if (value !== undefined) value += "]";
      break;
  }
  return value === undefined ? undefined : a.name + " = " + value;
}

/**
 * The one-line statement of `n` (`[label] outs = dom.Op <attrs> (ins)`), exactly as the printer
 * writes the raised node flat, when raising it would attach and record nothing; else undefined.
 */
export function statementText(n: NodeProto, defaults: ModelDefaults): string | undefined {
  // The fields are read directly, not through presence.ts's per-field tests (proto2: a singular
  // field is set when it is an own property): this runs on every node of the biggest graphs.
  if (n.metadataProps.length || n.deviceConfigurations.length || Object.hasOwn(n, "docString")) return undefined;
  if (!isOwnField(n, "opType") || !isPlainWord(n.opType) || differsInDomain(n, defaults)) return undefined;
  let op = n.opType;
  if (n.domain !== "") {
    const parts = n.domain.split(".");
    for (const p of parts) if (!isPlainWord(p)) return undefined;
    op = n.domain + "." + op;
  }
  if (isOwnField(n, "overload")) {
    if (!isPlainWord(n.overload)) return undefined;
    op += ":" + n.overload;
  }
  let text = isOwnField(n, "name") ? "[" + nameText(n.name) + "] " : "";
  text += n.output.length ? ids(n.output) + " = " + op : "= " + op;
  const attrs = n.attribute;
  if (attrs.length) {
    text += " <";
    for (let i = 0; i < attrs.length; i++) {
      const a = attributeText(attrs[i]!);
      if (a === undefined) return undefined;
      text += i > 0 ? ", " + a : a;
    }
    text += ">";
  }
  return text + " (" + ids(n.input) + ")";
}
