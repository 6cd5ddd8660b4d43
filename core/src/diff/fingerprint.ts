// A short text standing for a node's attributes, to prefer, among nodes that could pair, the
// one with the same attributes (two Constants on nothing, two Convs on the same input).
import type { AttributeProto, NodeProto, TensorProto } from "../../../proto/src/index.js";

const cache = new WeakMap<NodeProto, string>();

/** FNV-1a over a tensor's bytes and numbers: equal tensors hash equal. */
function tensorHash(t: TensorProto): string {
  let h = 0x811c9dc5;
  const mix = (v: number): void => {
    h = Math.imul(h ^ (v & 0xff), 0x01000193);
  };
  for (const b of t.rawData) mix(b);
  for (const v of t.floatData) mix(Math.round(v * 1e6));
  for (const v of t.int32Data) mix(v);
  for (const v of t.int64Data) mix(Number(v & 0xffn));
  for (const v of t.doubleData) mix(Math.round(v * 1e6));
  for (const s of t.stringData) for (const b of s) mix(b);
  return `${t.dataType}[${t.dims.join(",")}]#${(h >>> 0).toString(16)}`;
}

function attributeText(a: AttributeProto): string {
  const parts = [a.name, String(a.type), a.refAttrName, String(a.f), String(a.i), a.s.join(","), a.floats.join(","), a.ints.join(",")];
  for (const s of a.strings) parts.push(s.join(","));
  if (a.t) parts.push(tensorHash(a.t));
  for (const t of a.tensors) parts.push(tensorHash(t));
  if (a.g) parts.push(`g${a.g.node.length}`);
  for (const g of a.graphs) parts.push(`g${g.node.length}`);
  return parts.join("\u0001");
}

export function attributeFingerprint(n: NodeProto): string {
  let f = cache.get(n);
  if (f === undefined) {
    f = n.attribute.length === 0 ? "" : n.attribute.map(attributeText).sort().join("\u0002");
    cache.set(n, f);
  }
  return f;
}
