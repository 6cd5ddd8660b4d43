// Control flow: If, Loop, Scan and SequenceMap. Bodies run through ctx.runGraph, which
// gives them the enclosing scope (outer-scope capture).
import type { GraphProto } from "../../../../proto/src/index.js";
import type { KernelContext, Registry } from "../registry.js";
import { byteSizeOf, DT, int64Tensor, reshaped, scalar, tensor, type Tensor, type Value } from "../value.js";
import { concat, sliceTensor } from "./shape.js";
import { axisOf, fail, t } from "./util.js";

/** Stacks equally shaped tensors along a new axis. */
export function stack(items: readonly Tensor[], axis = 0): Tensor {
  const expanded = items.map((x) => {
    const d = x.dims.slice();
    d.splice(axis, 0, 1);
    return reshaped(x, d);
  });
  return concat(expanded, axis);
}

function ifKernel([cond]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const c = t(cond);
  const branch = c.data[0] ? ctx.attrs.requireGraph("then_branch") : ctx.attrs.requireGraph("else_branch");
  return ctx.runGraph(branch, []);
}

/**
 * What one scan-output value held in a JS array costs beyond its data (object, typed array,
 * dims): counted so a Loop with a huge trip count hits the memory limit, not the heap limit.
 */
const HELD_VALUE_OVERHEAD = 512;

function loopKernel(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const body = ctx.attrs.requireGraph("body");
  const maxTrip = inputs[0] === undefined ? Infinity : Number(t(inputs[0]).data[0]);
  let cond = inputs[1] === undefined ? true : Boolean(t(inputs[1]).data[0]);
  let carried = inputs.slice(2) as (Value | undefined)[];
  const nCarried = carried.length;
  const scans: Value[][] = [];
  let held = 0;
  let i = 0;
  while (i < maxTrip && cond) {
    ctx.checkGuards(i + 1, held);
    const outs = ctx.runGraph(body, [int64Tensor([], [i]), scalar(DT.BOOL, cond), ...carried]);
    cond = Boolean(t(outs[0]).data[0]);
    carried = outs.slice(1, 1 + nCarried);
    outs.slice(1 + nCarried).forEach((v, k) => {
      (scans[k] ??= []).push(v);
      held += byteSizeOf(v) + HELD_VALUE_OVERHEAD;
    });
    i++;
  }
  const nScan = body.output.length - 1 - nCarried;
  const scanOuts: Value[] = [];
  for (let k = 0; k < nScan; k++) {
    const items = scans[k] ?? [];
    if (items.length === 0) scanOuts.push(tensor(DT.FLOAT, [0]));
    else if (items[0]!.kind === "tensor") scanOuts.push(stack(items as Tensor[]));
    else scanOuts.push({ kind: "sequence", items });
  }
  return [...(carried as Value[]), ...scanOuts];
}

function scanKernel(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const body = ctx.attrs.requireGraph("body");
  const nScan = ctx.attrs.int("num_scan_inputs") ?? fail("Scan: no num_scan_inputs");
  if (ctx.opset < 9) return scan8(inputs, ctx, body, nScan);
  const nState = inputs.length - nScan;
  const states = inputs.slice(0, nState).map((v) => t(v));
  const scanIns = inputs.slice(nState).map((v) => t(v));
  const inAxes = ctx.attrs.ints("scan_input_axes") ?? scanIns.map(() => 0);
  const inDirs = ctx.attrs.ints("scan_input_directions") ?? scanIns.map(() => 0);
  const { finalStates, scanOutputs } = runScan(ctx, body, states, scanIns, inAxes, inDirs);
  const nOut = body.output.length - nState;
  const outAxes = ctx.attrs.ints("scan_output_axes") ?? new Array<number>(nOut).fill(0);
  const outDirs = ctx.attrs.ints("scan_output_directions") ?? new Array<number>(nOut).fill(0);
  const outs = scanOutputs.map((items, k) => {
    const ordered = outDirs[k] ? items.slice().reverse() : items;
    const rank = (ordered[0]?.dims.length ?? 0) + 1;
    const axis = axisOf(outAxes[k]!, rank);
    return stack(ordered, axis);
  });
  return [...finalStates, ...outs];
}

function runScan(ctx: KernelContext, body: GraphProto, initial: Tensor[], scanIns: Tensor[], inAxes: number[], inDirs: number[]) {
  const axes = scanIns.map((x, k) => axisOf(inAxes[k]!, x.dims.length));
  const len = scanIns.length > 0 ? scanIns[0]!.dims[axes[0]!]! : 0;
  let states: Value[] = initial;
  const scanOutputs: Tensor[][] = [];
  for (let i = 0; i < len; i++) {
    ctx.checkGuards(i + 1);
    const slices = scanIns.map((x, k) => {
      const axis = axes[k]!;
      const idx = inDirs[k] ? len - 1 - i : i;
      const starts = x.dims.map(() => 0);
      const counts = x.dims.slice();
      starts[axis] = idx;
      counts[axis] = 1;
      const s = sliceTensor(
        x,
        starts,
        x.dims.map(() => 1),
        counts,
      );
      return reshaped(
        s,
        x.dims.filter((_, r) => r !== axis),
      );
    });
    const outs = ctx.runGraph(body, [...states, ...slices]);
    states = outs.slice(0, initial.length);
    outs.slice(initial.length).forEach((v, k) => (scanOutputs[k] ??= []).push(t(v)));
  }
  const nOut = body.output.length - initial.length;
  for (let k = 0; k < nOut; k++) scanOutputs[k] ??= [];
  return { finalStates: states, scanOutputs };
}

/** Scan-8: a leading batch axis and an optional sequence_lens input. */
function scan8(inputs: readonly (Value | undefined)[], ctx: KernelContext, body: GraphProto, nScan: number): Value[] {
  const rest = inputs.slice(1);
  const nState = rest.length - nScan;
  const states = rest.slice(0, nState).map((v) => t(v));
  const scanIns = rest.slice(nState).map((v) => t(v));
  const batch = (states[0] ?? scanIns[0]!).dims[0]!;
  const dirs = ctx.attrs.ints("directions") ?? scanIns.map(() => 0);
  const perBatch: Value[][] = [];
  const pick = (x: Tensor, b: number) => {
    const starts = x.dims.map(() => 0);
    const counts = x.dims.slice();
    starts[0] = b;
    counts[0] = 1;
    return reshaped(
      sliceTensor(
        x,
        starts,
        x.dims.map(() => 1),
        counts,
      ),
      x.dims.slice(1),
    );
  };
  for (let b = 0; b < batch; b++) {
    const r = runScan(
      ctx,
      body,
      states.map((s) => pick(s, b)),
      scanIns.map((s) => pick(s, b)),
      scanIns.map(() => 0),
      dirs,
    );
    perBatch.push([...r.finalStates, ...r.scanOutputs.map((items) => stack(items, 0))]);
  }
  return perBatch[0]!.map((_, k) =>
    stack(
      perBatch.map((p) => t(p[k])),
      0,
    ),
  );
}

function sequenceMap(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const body = ctx.attrs.requireGraph("body");
  const first = inputs[0];
  if (!first || first.kind !== "sequence") fail("SequenceMap: the first input must be a sequence");
  const n = first.items.length;
  const results: Value[][] = body.output.map(() => []);
  for (let i = 0; i < n; i++) {
    ctx.checkGuards(i + 1);
    const args = inputs.map((v) => (v && v.kind === "sequence" ? v.items[i] : v));
    const outs = ctx.runGraph(body, args);
    outs.forEach((v, k) => results[k]!.push(v));
  }
  return results.map((items) => ({ kind: "sequence", items }) as Value);
}

export function registerControl(r: Registry): void {
  r.register("If", ifKernel);
  r.register("Loop", loopKernel);
  r.register("Scan", scanKernel);
  r.register("SequenceMap", sequenceMap);
}
