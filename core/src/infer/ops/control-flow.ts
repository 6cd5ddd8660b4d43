// If, Loop and Scan: their output types come from inferring the body graphs with the types
// the op passes in (loop counters, carried values, scan slices).
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpRule } from "../context.js";
import { normAxis } from "../dims.js";
import { isTensor, tensor, type Dim, type ValueType } from "../types.js";

/** What two branches agree on: element type always, dims where they match. */
function unify(a: ValueType | undefined, b: ValueType | undefined): ValueType | undefined {
  if (!a || !b) return a ?? b;
  if (isTensor(a) && isTensor(b)) {
    const elem = a.elem || b.elem;
    if (!a.shape || !b.shape || a.shape.length !== b.shape.length) return tensor(elem);
    return tensor(
      elem,
      a.shape.map((d, i) => (d === b.shape![i] ? d : undefined)),
    );
  }
  return a;
}

const ifOp: OpRule = (c) => {
  // With a known condition only one branch ever runs: the other is inferred without reporting
  // (it would be checked against shapes it never sees) and does not widen the outputs.
  const cond = c.constIn(0);
  const taken = cond?.values.length === 1 ? (cond.values[0] ? "then_branch" : "else_branch") : undefined;
  const thenOut = c.subgraph("then_branch", [], taken === "else_branch") ?? [];
  const elseOut = c.subgraph("else_branch", [], taken === "then_branch") ?? [];
  c.node.output.forEach((_, i) => c.setType(i, taken === "then_branch" ? thenOut[i] : taken === "else_branch" ? elseOut[i] : unify(thenOut[i], elseOut[i])));
};

function withLeadingDim(t: ValueType | undefined, d: Dim): ValueType | undefined {
  return isTensor(t) ? tensor(t.elem, t.shape ? [d, ...t.shape] : undefined) : t;
}

const loop: OpRule = (c) => {
  const carried = c.inputs.slice(2);
  const body = c.subgraph("body", [tensor(DT.INT64, []), tensor(DT.BOOL, []), ...carried]) ?? [];
  const n = carried.length;
  c.node.output.forEach((_, i) => {
    if (i < n) c.setType(i, unify(body[i + 1], undefined) ?? carried[i]);
    else c.setType(i, withLeadingDim(body[i + 1], undefined));
  });
};

function dropLeading(t: ValueType | undefined, count: number): ValueType | undefined {
  if (!isTensor(t)) return t;
  return tensor(t.elem, t.shape && t.shape.length >= count ? t.shape.slice(count) : undefined);
}

/** Scan-8: a batch dimension leads every state and scan input, the sequence comes second. */
const scan8: OpRule = (c) => {
  const m = c.int("num_scan_inputs")!;
  const n = c.inputCount - 1 - m;
  const states = c.inputs.slice(1, 1 + n);
  const scans = c.inputs.slice(1 + n);
  const first = scans.find(isTensor);
  const batch = first?.shape?.[0];
  const seqLen = first?.shape?.[1];
  const body = c.subgraph("body", [...states.map((t) => dropLeading(t, 1)), ...scans.map((t) => dropLeading(t, 2))]) ?? [];
  c.node.output.forEach((_, i) => {
    const t = body[i];
    if (!isTensor(t)) return c.setType(i, t);
    const lead = i < n ? [batch] : [batch, seqLen];
    c.setType(i, tensor(t.elem, t.shape ? [...lead, ...t.shape] : undefined));
  });
};

const scan: OpRule = (c) => {
  if (c.opset < 9) return scan8(c);
  const m = c.int("num_scan_inputs")!;
  const n = c.inputCount - m;
  const inAxes = c.ints("scan_input_axes") ?? Array.from({ length: m }, () => 0);
  const outAxes = c.ints("scan_output_axes");
  let seqLen: Dim;
  const slices = c.inputs.slice(n).map((t, j) => {
    if (!isTensor(t) || !t.shape) return isTensor(t) ? tensor(t.elem) : undefined;
    const axis = normAxis(inAxes[j]!, t.shape.length) ?? 0;
    if (seqLen === undefined) seqLen = t.shape[axis];
    return tensor(
      t.elem,
      t.shape.filter((_, k) => k !== axis),
    );
  });
  const body = c.subgraph("body", [...c.inputs.slice(0, n), ...slices]) ?? [];
  c.node.output.forEach((_, i) => {
    if (i < n) return c.setType(i, body[i] ?? c.inputs[i]);
    const t = body[i];
    if (!isTensor(t) || !t.shape) return c.setType(i, isTensor(t) ? tensor(t.elem) : t);
    const rank = t.shape.length + 1;
    const axis = normAxis(outAxes?.[i - n] ?? 0, rank) ?? 0;
    const shape = [...t.shape];
    shape.splice(axis, 0, seqLen);
    c.setType(i, tensor(t.elem, shape));
  });
};

export const CONTROL_FLOW_RULES: Record<string, OpRule> = { If: ifOp, Loop: loop, Scan: scan };
