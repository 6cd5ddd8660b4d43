// Reading and writing a node's attributes by name, for adapters that move or rename them.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { AttributeProto_AttributeType as AT, AttributeProtoSchema, type AttributeProto, type NodeProto, type TensorProto } from "../../../proto/src/index.js";

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A plain attribute value, as the spec tables write them. */
export type AttrValue = number | string | readonly number[] | readonly string[];

export function getAttr(node: NodeProto, name: string): AttributeProto | undefined {
  return node.attribute.find((a) => a.name === name);
}

export function hasAttr(node: NodeProto, name: string): boolean {
  return getAttr(node, name) !== undefined;
}

export function removeAttr(node: NodeProto, name: string): void {
  node.attribute = node.attribute.filter((a) => a.name !== name);
}

export function intAttr(node: NodeProto, name: string): number | undefined {
  const a = getAttr(node, name);
  return a && (a.type === AT.INT || a.type === AT.UNDEFINED) ? Number(a.i) : undefined;
}

export function floatAttr(node: NodeProto, name: string): number | undefined {
  const a = getAttr(node, name);
  if (!a) return undefined;
  return a.type === AT.INT ? Number(a.i) : a.f;
}

export function stringAttr(node: NodeProto, name: string): string | undefined {
  const a = getAttr(node, name);
  return a ? utf8.decode(a.s) : undefined;
}

export function intsAttr(node: NodeProto, name: string): number[] | undefined {
  const a = getAttr(node, name);
  return a ? a.ints.map(Number) : undefined;
}

/** The attribute as a plain value (INT, FLOAT, STRING and their lists), undefined for others. */
export function attrValue(a: AttributeProto): AttrValue | undefined {
  switch (a.type) {
    case AT.INT:
      return Number(a.i);
    case AT.FLOAT:
      return a.f;
    case AT.STRING:
      return utf8.decode(a.s);
    case AT.INTS:
      return a.ints.map(Number);
    case AT.FLOATS:
      return [...a.floats];
    case AT.STRINGS:
      return a.strings.map((s) => utf8.decode(s));
    default:
      return undefined;
  }
}

export function sameValue(a: AttrValue | undefined, b: AttrValue | undefined): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => x === b[i] || (typeof x === "number" && Math.fround(x) === Math.fround(b[i] as number)));
  if (typeof a === "number" && typeof b === "number") return a === b || Math.fround(a) === Math.fround(b);
  return a === b;
}

function attr(name: string, init: MessageInitShape<typeof AttributeProtoSchema>): AttributeProto {
  return create(AttributeProtoSchema, { name, ...init });
}

export function intAttribute(name: string, v: number): AttributeProto {
  return attr(name, { type: AT.INT, i: BigInt(v) });
}

export function floatAttribute(name: string, v: number): AttributeProto {
  return attr(name, { type: AT.FLOAT, f: v });
}

export function stringAttribute(name: string, v: string): AttributeProto {
  return attr(name, { type: AT.STRING, s: encoder.encode(v) });
}

export function intsAttribute(name: string, v: readonly number[]): AttributeProto {
  return attr(name, { type: AT.INTS, ints: v.map((x) => BigInt(x)) });
}

export function floatsAttribute(name: string, v: readonly number[]): AttributeProto {
  return attr(name, { type: AT.FLOATS, floats: [...v] });
}

export function stringsAttribute(name: string, v: readonly string[]): AttributeProto {
  return attr(name, { type: AT.STRINGS, strings: v.map((s) => encoder.encode(s)) });
}

export function tensorAttribute(name: string, t: TensorProto): AttributeProto {
  return attr(name, { type: AT.TENSOR, t });
}

/** An attribute of the given schema type holding `v`. */
export function attributeOf(name: string, type: string, v: AttrValue): AttributeProto {
  switch (type) {
    case "INT":
      return intAttribute(name, v as number);
    case "FLOAT":
      return floatAttribute(name, v as number);
    case "STRING":
      return stringAttribute(name, v as string);
    case "INTS":
      return intsAttribute(name, v as number[]);
    case "FLOATS":
      return floatsAttribute(name, v as number[]);
    default:
      return stringsAttribute(name, v as string[]);
  }
}

/** Sets (or replaces) an attribute, keeping the position of one it replaces. */
export function setAttr(node: NodeProto, a: AttributeProto): void {
  const i = node.attribute.findIndex((x) => x.name === a.name);
  if (i >= 0) node.attribute[i] = a;
  else node.attribute.push(a);
}
