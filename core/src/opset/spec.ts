// One row of the step table: what changed between two versions of an op, as data, and the
// generic adapters that follow from it. Ops whose change is more than data add `up`/`down`.
import type { NodeProto } from "../../../proto/src/index.js";
import type { OpSchema } from "../schema/index.js";
import { attributeOf, attrValue, getAttr, removeAttr, sameValue, setAttr, type AttrValue } from "./attrs.js";
import { keep, rankOf, refuse, shapeOf, type Adapter, type StepContext, type StepOutcome } from "./context.js";

export interface RemovedAttr {
  /** The value the older version may hold for the node to convert up ("any": dropped whatever it holds). */
  readonly ok: AttrValue | "any";
  /** Written when going down (for an attribute the older version requires, e.g. is_test = 1). */
  readonly downSet?: AttrValue;
}

export interface StepSpec {
  /** One line for the docs: what changed and how we convert it (generated when absent). */
  readonly how?: string;
  /** Attributes the newer version added, with the value giving the older behaviour (null: absent). */
  readonly added?: Readonly<Record<string, AttrValue | null>>;
  /** Attributes the newer version removed. */
  readonly removed?: Readonly<Record<string, RemovedAttr>>;
  /** Attributes whose default changed: written explicitly in both directions. */
  readonly defaults?: readonly string[];
  /** Axis attributes that may be negative from the newer version on: going down they are normalized with input 0's rank. */
  readonly negativeAxes?: readonly string[];
  /** Attribute values new in the newer version: going down they are refused. */
  readonly newValues?: Readonly<Record<string, readonly AttrValue[]>>;
  /** Numpy broadcasting came with the newer version: going down, every input must have the same known shape. */
  readonly broadcast?: boolean;
  /** Optional inputs the newer version added (by position): going down they must be absent. */
  readonly addedInputs?: readonly number[];
  /** Op-specific adapters, run after the generic ones; a string refuses the direction with that reason. */
  readonly up?: Adapter | string;
  readonly down?: Adapter | string;
}

function attrText(v: AttrValue | null): string {
  return v === null ? "absent" : JSON.stringify(v);
}

function upGeneric(spec: StepSpec, node: NodeProto, newer: OpSchema | undefined, older: OpSchema | undefined, ctx: StepContext): string | undefined {
  for (const [name, r] of Object.entries(spec.removed ?? {})) {
    const a = getAttr(node, name);
    if (!a) continue;
    if (r.ok !== "any" && !sameValue(attrValue(a), r.ok))
      return `attribute ${name} = ${attrText(attrValue(a) ?? null)} has no equivalent at opset ${ctx.newer}`;
    removeAttr(node, name);
  }
  for (const [name, old] of Object.entries(spec.added ?? {})) {
    const s = newer?.attributes.get(name);
    if (old === null || getAttr(node, name) || !s) continue;
    if (!sameValue(s.default, old)) setAttr(node, attributeOf(name, s.type, old));
  }
  for (const name of spec.defaults ?? []) {
    const s = older?.attributes.get(name);
    if (!getAttr(node, name) && s?.default !== undefined) setAttr(node, attributeOf(name, newer?.attributes.get(name)?.type ?? s.type, s.default));
  }
  return undefined;
}

function downGeneric(spec: StepSpec, node: NodeProto, newer: OpSchema | undefined, older: OpSchema | undefined, ctx: StepContext): string | undefined {
  for (const i of spec.addedInputs ?? []) {
    if (node.input[i]) return `input ${i + 1} ('${node.input[i]}') did not exist before opset ${ctx.newer}`;
  }
  for (const [name, values] of Object.entries(spec.newValues ?? {})) {
    const a = getAttr(node, name);
    const v = a ? attrValue(a) : newer?.attributes.get(name)?.default;
    if (v !== undefined && values.some((x) => sameValue(x, v))) return `${name} = ${JSON.stringify(v)} is new in opset ${ctx.newer}`;
  }
  for (const [name, old] of Object.entries(spec.added ?? {})) {
    const a = getAttr(node, name);
    const s = newer?.attributes.get(name);
    const v = a ? attrValue(a) : (s?.default ?? null);
    const same = old === null ? !a : v !== undefined && v !== null && sameValue(v, old);
    if (!same) return `attribute ${name} = ${attrText(v ?? null)} has no equivalent before opset ${ctx.newer}`;
    removeAttr(node, name);
  }
  for (const [name, r] of Object.entries(spec.removed ?? {})) {
    const s = older?.attributes.get(name);
    if (r.downSet !== undefined && s) setAttr(node, attributeOf(name, s.type, r.downSet));
  }
  for (const name of spec.defaults ?? []) {
    const s = newer?.attributes.get(name);
    if (!getAttr(node, name) && s?.default !== undefined) setAttr(node, attributeOf(name, older?.attributes.get(name)?.type ?? s.type, s.default));
  }
  for (const name of spec.negativeAxes ?? []) {
    const a = getAttr(node, name);
    if (!a) continue;
    const v = attrValue(a);
    const list = Array.isArray(v) ? (v as number[]) : typeof v === "number" ? [v] : [];
    if (list.every((x) => x >= 0)) continue;
    const rank = rankOf(ctx, node.input[0] ?? "");
    if (rank === undefined) return `${name} is negative and the rank of '${node.input[0]}' is unknown (opset ${ctx.older} needs a non-negative ${name})`;
    const fixed = list.map((x) => (x < 0 ? x + rank : x));
    setAttr(node, attributeOf(name, Array.isArray(v) ? "INTS" : "INT", Array.isArray(v) ? fixed : fixed[0]!));
  }
  if (spec.broadcast) {
    const shapes = node.input.filter((n) => n !== "").map((n) => shapeOf(ctx, n));
    const first = shapes[0];
    const known = first !== undefined && first.every((d) => typeof d === "number");
    if (!known || shapes.some((s) => s === undefined || s.length !== first.length || s.some((d, i) => d !== first[i]))) {
      return `opset ${ctx.older} needs inputs of one shape (no broadcasting), and ${known ? "the shapes differ" : "the shapes are not all known"}`;
    }
  }
  return undefined;
}

/** The adapter for one direction of a step described by `spec`. */
export function specAdapter(spec: StepSpec, up: boolean, newer: OpSchema | undefined, older: OpSchema | undefined): Adapter {
  const custom = up ? spec.up : spec.down;
  return (node, ctx): StepOutcome => {
    if (typeof custom === "string") return refuse(custom);
    const problem = up ? upGeneric(spec, node, newer, older, ctx) : downGeneric(spec, node, newer, older, ctx);
    if (problem) return refuse(problem);
    return custom ? custom(node, ctx) : keep(node);
  };
}
