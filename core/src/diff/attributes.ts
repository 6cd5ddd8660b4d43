// Attributes of two matched nodes compared by name. Values are shown as the text syntax writes
// them (lists and tensors shortened); graph-valued attributes are left to the caller, which
// diffs their bodies like any graph.
import { AttributeProto_AttributeType as T, type AttributeProto, type GraphProto } from "../../../proto/src/index.js";
import { formatFloat32 } from "../numbers/float-text.js";
import { compareTensors, tensorTypeText, type TensorRules } from "./tensors.js";
import { typeText } from "./type-text.js";
import type { TensorDifference } from "./types.js";

const utf8 = new TextDecoder("utf-8");
const SHOWN_ITEMS = 8;

function list<X>(items: readonly X[], show: (x: X) => string): string {
  const shown = items.slice(0, SHOWN_ITEMS).map(show);
  if (items.length > SHOWN_ITEMS) shown.push(`... ${items.length} items`);
  return `[${shown.join(", ")}]`;
}

/** The attribute's value as the text syntax writes it, shortened for a report line. */
export function attributeText(a: AttributeProto): string {
  if (a.refAttrName) return `@${a.refAttrName}`;
  switch (a.type) {
    case T.FLOAT:
      return formatFloat32(a.f);
    case T.INT:
      return String(a.i);
    case T.STRING:
      return JSON.stringify(utf8.decode(a.s));
    case T.FLOATS:
      return list(a.floats, formatFloat32);
    case T.INTS:
      return list(a.ints, String);
    case T.STRINGS:
      return list(a.strings, (s) => JSON.stringify(utf8.decode(s)));
    case T.TENSOR:
      return a.t ? tensorTypeText(a.t) : "tensor";
    case T.TENSORS:
      return list(a.tensors, tensorTypeText);
    case T.GRAPH:
      return "graph";
    case T.GRAPHS:
      return `${a.graphs.length} graphs`;
    case T.TYPE_PROTO:
      return typeText(a.tp);
    case T.TYPE_PROTOS:
      return list(a.typeProtos, typeText);
    default:
      return `(type ${a.type})`;
  }
}

function sameList<X>(x: readonly X[], y: readonly X[], eq: (p: X, q: X) => boolean): boolean {
  return x.length === y.length && x.every((v, i) => eq(v, y[i]!));
}

const sameBytes = (x: Uint8Array, y: Uint8Array): boolean => x.length === y.length && x.every((v, i) => v === y[i]);

export interface AttributeDifferences {
  /** One line per difference: `alpha: 0.5 -> 0.2`, `+ axis: 1`, `- axis: 1`. */
  readonly lines: string[];
  readonly tensors: TensorDifference[];
  /** Graph-valued attributes on both sides, for the caller to diff: [name, A's graphs, B's graphs]. */
  readonly graphs: [string, readonly GraphProto[], readonly GraphProto[]][];
}

function graphsOf(a: AttributeProto): GraphProto[] {
  return a.type === T.GRAPH ? (a.g ? [a.g] : []) : a.graphs;
}

const NONE: AttributeDifferences = Object.freeze({ lines: [], tensors: [], graphs: [] });

export function compareAttributes(as: readonly AttributeProto[], bs: readonly AttributeProto[], rules: TensorRules): AttributeDifferences {
  if (as.length === 0 && bs.length === 0) return NONE;
  const out: AttributeDifferences = { lines: [], tensors: [], graphs: [] };
  if (as.length === bs.length && as.every((a, i) => a.name === bs[i]!.name)) {
    // the usual case: the same attributes in the same order
    as.forEach((a, i) => compareOne(a, bs[i]!, rules, out));
    return out;
  }
  const byName = new Map(bs.map((b) => [b.name, b]));
  const names = new Set(as.map((a) => a.name));
  for (const a of as) {
    const b = byName.get(a.name);
    if (!b) out.lines.push(`attribute ${a.name} removed (was ${attributeText(a)})`);
    else compareOne(a, b, rules, out);
  }
  for (const b of bs) if (!names.has(b.name)) out.lines.push(`attribute ${b.name} added: ${attributeText(b)}`);
  return out;
}

function compareOne(a: AttributeProto, b: AttributeProto, rules: TensorRules, out: AttributeDifferences): void {
  const changed = (): void => void out.lines.push(`attribute ${a.name}: ${attributeText(a)} -> ${attributeText(b)}`);
  if (a.type !== b.type || a.refAttrName !== b.refAttrName) return changed();
  if (a.docString !== b.docString) out.lines.push(`attribute ${a.name}: doc_string changed`);
  switch (a.type) {
    case T.GRAPH:
    case T.GRAPHS: {
      const ga = graphsOf(a);
      const gb = graphsOf(b);
      if (ga.length !== gb.length) return changed();
      out.graphs.push([a.name, ga, gb]);
      return;
    }
    case T.TENSOR:
    case T.TENSORS: {
      const ta = a.type === T.TENSOR ? (a.t ? [a.t] : []) : a.tensors;
      const tb = b.type === T.TENSOR ? (b.t ? [b.t] : []) : b.tensors;
      if (ta.length !== tb.length) return changed();
      ta.forEach((t, i) => {
        const c = compareTensors(t, tb[i]!, rules);
        if (!c) return;
        out.lines.push(`attribute ${a.name}${a.type === T.TENSORS ? `[${i}]` : ""}: ${c.line}`);
        if (c.difference) out.tensors.push(c.difference);
      });
      return;
    }
    default:
      if (!sameValue(a, b)) changed();
  }
}

function sameValue(a: AttributeProto, b: AttributeProto): boolean {
  switch (a.type) {
    case T.FLOAT:
      return Object.is(a.f, b.f) || a.f === b.f;
    case T.INT:
      return a.i === b.i;
    case T.STRING:
      return sameBytes(a.s, b.s);
    case T.FLOATS:
      return sameList(a.floats, b.floats, (x, y) => Object.is(x, y) || x === y);
    case T.INTS:
      return sameList(a.ints, b.ints, (x, y) => x === y);
    case T.STRINGS:
      return sameList(a.strings, b.strings, sameBytes);
    case T.TYPE_PROTO:
      return typeText(a.tp) === typeText(b.tp);
    case T.TYPE_PROTOS:
      return sameList(a.typeProtos, b.typeProtos, (x, y) => typeText(x) === typeText(y));
    default:
      // sparse tensors and unknown types: their text says enough for a report
      return attributeText(a) === attributeText(b);
  }
}
