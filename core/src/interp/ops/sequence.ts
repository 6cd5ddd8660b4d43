// Sequence and optional kernels.
import type { KernelContext, Registry } from "../registry.js";
import { DT, intList, reshaped, tensor, type SequenceValue, type Value } from "../value.js";
import { stack } from "./control.js";
import { concat, sliceTensor } from "./shape.js";
import { axisOf, fail, t } from "./util.js";

function seq(v: Value | undefined): SequenceValue {
  if (!v || v.kind !== "sequence") fail("expected a sequence");
  return v;
}

function position(v: Value | undefined, length: number, dflt: number, insert = false): number {
  if (v === undefined) return dflt;
  const p = intList(t(v))[0]!;
  const q = p < 0 ? p + length : p;
  if (q < 0 || q > (insert ? length : length - 1)) fail(`sequence position ${p} is out of range for length ${length}`);
  return q;
}

function splitToSequence([x, split]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const axis = axisOf(ctx.attrs.int("axis", 0), a.dims.length);
  const keep = ctx.attrs.int("keepdims", 1) === 1;
  const dim = a.dims[axis]!;
  let sizes: number[];
  const sp = split === undefined ? undefined : t(split);
  if (!sp) sizes = new Array<number>(dim).fill(1);
  else if (sp.dims.length === 0) {
    const k = intList(sp)[0]!;
    sizes = [];
    for (let s = 0; s < dim; s += k) sizes.push(Math.min(k, dim - s));
  } else sizes = intList(sp);
  let start = 0;
  const items = sizes.map((s) => {
    const starts = a.dims.map(() => 0);
    const counts = a.dims.slice();
    starts[axis] = start;
    counts[axis] = s;
    start += s;
    const part = sliceTensor(
      a,
      starts,
      a.dims.map(() => 1),
      counts,
    );
    return !sp && !keep
      ? reshaped(
          part,
          a.dims.filter((_, i) => i !== axis),
        )
      : part;
  });
  return [{ kind: "sequence", items, elemType: a.dtype }];
}

export function registerSequenceOps(r: Registry): void {
  r.register("SequenceEmpty", (_in, ctx) => [{ kind: "sequence", items: [], elemType: ctx.attrs.int("dtype", DT.FLOAT) }]);
  r.register("SequenceConstruct", (inputs) => [{ kind: "sequence", items: inputs.map((v) => t(v)) }]);
  r.register("SequenceLength", ([s]) => [tensor(DT.INT64, [], BigInt64Array.of(BigInt(seq(s).items.length)))]);
  r.register("SequenceAt", ([s, p]) => {
    const q = seq(s);
    return [q.items[position(p, q.items.length, 0)]!];
  });
  r.register("SequenceInsert", ([s, v, p]) => {
    const q = seq(s);
    const items = q.items.slice();
    items.splice(position(p, items.length, items.length, true), 0, t(v));
    return [{ kind: "sequence", items, elemType: q.elemType }];
  });
  r.register("SequenceErase", ([s, p]) => {
    const q = seq(s);
    const items = q.items.slice();
    items.splice(position(p, items.length, items.length - 1), 1);
    return [{ kind: "sequence", items, elemType: q.elemType }];
  });
  r.register("SplitToSequence", splitToSequence);
  r.register("ConcatFromSequence", ([s], ctx) => {
    const items = seq(s).items.map((v) => t(v));
    const axis = ctx.attrs.int("axis", 0);
    if (ctx.attrs.int("new_axis", 0) === 1) {
      const rank = (items[0]?.dims.length ?? 0) + 1;
      return [stack(items, axisOf(axis, rank))];
    }
    return [concat(items, axis)];
  });
  r.register("Optional", ([x], ctx) => {
    const tp = ctx.attrs.raw("type")?.tp;
    const elem = tp?.value.case === "tensorType" ? tp.value.value.elemType : undefined;
    return [{ kind: "optional", value: x, ...(elem !== undefined ? { elemType: elem } : {}) }];
  });
  r.register("OptionalHasElement", ([x]) => {
    const has = x !== undefined && (x.kind !== "optional" || x.value !== undefined);
    return [tensor(DT.BOOL, [], Uint8Array.of(has ? 1 : 0))];
  });
  r.register("OptionalGetElement", ([x]) => {
    if (x === undefined) fail("OptionalGetElement: the optional is empty");
    if (x.kind !== "optional") return [x];
    if (x.value === undefined) fail("OptionalGetElement: the optional is empty");
    return [x.value];
  });
}
