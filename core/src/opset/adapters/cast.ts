// Cast and CastLike: `to` became a DataType number (6), saturate (19) concerns float8 only, and
// CastLike (15) is a Cast to a known type below its first version.
import { AttributeProto_AttributeType as AT, dataTypeByName, dataTypeInfo } from "../../../../proto/src/index.js";
import { attributeOf, getAttr, intAttr, removeAttr, setAttr, stringAttr } from "../attrs.js";
import { elemOf, keep, refuse, type Adapter } from "../context.js";

const CAST_NAMES: Readonly<Record<string, string>> = {
  FLOAT: "float",
  FLOAT16: "float16",
  DOUBLE: "double",
  STRING: "string",
  BOOL: "bool",
  COMPLEX64: "complex64",
  COMPLEX128: "complex128",
};

/** Cast 1 -> 6: `to` changed from a type name (STRING) to a TensorProto.DataType (INT). */
export const castToUp: Adapter = (node) => {
  const a = getAttr(node, "to");
  if (!a || a.type !== AT.STRING) return keep(node);
  const name = stringAttr(node, "to")!;
  const info = dataTypeByName(CAST_NAMES[name.toUpperCase()] ?? name.toLowerCase());
  if (!info) return refuse(`unknown type name '${name}'`);
  setAttr(node, attributeOf("to", "INT", info.id));
  return keep(node);
};

export const castToDown: Adapter = (node) => {
  const to = intAttr(node, "to");
  const info = to === undefined ? undefined : dataTypeInfo(to);
  if (!info) return refuse("no valid 'to' attribute");
  setAttr(node, attributeOf("to", "STRING", info.name.toUpperCase()));
  return keep(node);
};

const FLOAT8 = new Set([17, 18, 19, 20, 23]);

/** Cast/CastLike/QuantizeLinear 19 -> older: saturate concerns float8 only; dropped when no float8 is involved. */
export const saturateDown: Adapter = (node, ctx) => {
  const types = [...node.input, ...node.output].filter((n) => n !== "").map((n) => elemOf(ctx, n));
  const to = intAttr(node, "to");
  if (types.some((t) => t === undefined)) return refuse("saturate is new in opset 19 and the element types are not all known");
  if ([...types, to].some((t) => t !== undefined && FLOAT8.has(t))) return refuse("saturate concerns float8 types, new in opset 19");
  removeAttr(node, "saturate");
  return keep(node);
};

/** CastLike-15 below 15: a Cast to the element type of its second input. */
export const castLikeToCast: Adapter = (node, ctx) => {
  const to = elemOf(ctx, node.input[1] ?? "");
  if (to === undefined) return refuse(`the element type of '${node.input[1]}' is unknown, and Cast needs it as 'to'`);
  node.opType = "Cast";
  node.input = [node.input[0]!];
  setAttr(node, attributeOf("to", "INT", to));
  return keep(node);
};
