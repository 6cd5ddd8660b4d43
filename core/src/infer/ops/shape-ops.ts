// Operators that rearrange tensors: their output shapes follow from input shapes, attributes
// and (folded) constant inputs such as a Reshape target or Slice bounds.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import { constOfTensor } from "../constants.js";
import type { OpContext, OpRule } from "../context.js";
import { broadcastShapes, normAxis, product, productDim, ShapeError } from "../dims.js";
import { formatShape, type Dim, type Shape } from "../types.js";
import { int64Const } from "./fold.js";

function known(d: Dim): d is number {
  return typeof d === "number";
}

const shapeOp: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) {
    c.set(0, [undefined], DT.INT64);
    return;
  }
  const rank = s.length;
  const clamp = (v: number): number => Math.min(Math.max(v < 0 ? v + rank : v, 0), rank);
  const start = clamp(c.int("start", 0)!);
  const end = c.hasAttr("end") ? clamp(c.int("end")!) : rank;
  const dims = s.slice(start, Math.max(start, end));
  c.set(0, [dims.length], DT.INT64);
  if (dims.every(known)) c.setConst(0, int64Const(dims as number[])!);
};

const size: OpRule = (c) => {
  c.set(0, [], DT.INT64);
  const s = c.shapeIn(0);
  const n = s && product(s);
  if (n !== undefined) c.setConst(0, { elem: DT.INT64, shape: [], values: [n] });
};

function reshapeTarget(c: OpContext): number[] | undefined {
  return c.opset < 5 ? c.ints("shape") : c.intsIn(1);
}

const reshape: OpRule = (c) => {
  const target = reshapeTarget(c);
  const input = c.shapeIn(0);
  if (!target) {
    const t = c.shapeIn(1);
    if (c.opset >= 5 && t && t.length === 1 && known(t[0]))
      c.set(
        0,
        Array.from({ length: t[0] }, () => undefined),
      );
    return;
  }
  const allowZero = c.int("allowzero", 0) === 1;
  const out: Dim[] = target.map((d, i) => (d === 0 && !allowZero ? input?.[i] : d === -1 ? undefined : d));
  const inferIndex = target.indexOf(-1);
  if (inferIndex >= 0 && input) {
    const total = product(input);
    const rest = product(out.filter((_, i) => i !== inferIndex));
    if (total !== undefined && rest !== undefined && rest !== 0) {
      if (total % rest !== 0) throw new ShapeError(`cannot reshape ${formatShape(input)} (${total} elements) to ${formatShape(target)}`);
      out[inferIndex] = total / rest;
    }
  } else if (input && inferIndex < 0) {
    const a = product(input);
    const b = product(out);
    if (a !== undefined && b !== undefined && a !== b)
      throw new ShapeError(`cannot reshape ${formatShape(input)} (${a} elements) to ${formatShape(out)} (${b} elements)`);
  }
  c.set(0, out);
  const k = c.constIn(0);
  if (k && out.every(known)) c.setConst(0, { ...k, shape: out as number[] });
};

const flatten: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const axis = c.int("axis", 1)!;
  const a = axis < 0 ? axis + s.length : axis;
  if (a < 0 || a > s.length) throw new ShapeError(`axis ${axis} is out of range for rank ${s.length}`);
  c.set(0, [productDim(s.slice(0, a)), productDim(s.slice(a))]);
};

const transpose: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const perm = c.ints("perm") ?? s.map((_, i) => s.length - 1 - i);
  if (perm.length !== s.length) throw new ShapeError(`perm has ${perm.length} entries for an input of rank ${s.length}`);
  c.set(
    0,
    perm.map((p) => s[p]),
  );
};

const concat: OpRule = (c) => {
  const shapes: Shape[] = [];
  for (let i = 0; i < c.inputCount; i++) {
    const s = c.shapeIn(i);
    if (!s) return;
    shapes.push(s);
  }
  if (shapes.length === 0) return;
  const rank = shapes[0]!.length;
  if (shapes.some((s) => s.length !== rank)) throw new ShapeError(`inputs have different ranks (${shapes.map(formatShape).join(", ")})`);
  const axis = normAxis(c.int("axis", c.opset < 4 ? 1 : 0)!, rank);
  if (axis === undefined) throw new ShapeError(`axis ${c.int("axis")} is out of range for rank ${rank}`);
  const out: Dim[] = [];
  for (let d = 0; d < rank; d++) {
    if (d === axis) {
      out.push(shapes.every((s) => known(s[d])) ? shapes.reduce((a, s) => a + (s[d] as number), 0) : undefined);
      continue;
    }
    let dim: Dim;
    for (const s of shapes) {
      const v = s[d];
      if (known(v) && known(dim) && v !== dim) throw new ShapeError(`dimension ${d} is ${dim} in one input and ${v} in another`);
      if (known(v) || dim === undefined) dim = v;
    }
    out.push(dim);
  }
  c.set(0, out);
  const consts = Array.from({ length: c.inputCount }, (_, i) => c.constIn(i));
  if (rank === 1 && consts.every((k) => k !== undefined)) {
    const values = consts.flatMap((k) => k!.values);
    c.setConst(0, { elem: consts[0]!.elem, shape: [values.length], values });
  }
};

const split: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const axis = normAxis(c.int("axis", 0)!, s.length);
  if (axis === undefined) return;
  const n = c.node.output.length;
  let sizes = c.opset >= 13 ? c.intsIn(1) : c.ints("split");
  if (!sizes && c.opset < 13 && c.inputCount > 1) sizes = c.intsIn(1);
  const total = s[axis];
  const sizesGiven = c.opset >= 13 ? c.has(1) : c.hasAttr("split") || c.has(1);
  if (!sizes && !sizesGiven && known(total)) {
    const chunk = Math.ceil(total / n);
    sizes = Array.from({ length: n }, (_, i) => Math.max(0, Math.min(chunk, total - chunk * i)));
    if (c.opset < 18 && total % n !== 0) sizes = undefined;
  }
  for (let i = 0; i < n; i++) {
    const out = [...s];
    out[axis] = sizes?.[i];
    c.set(i, out);
  }
};

function sliceDim(dim: Dim, start: number, end: number, step: number): Dim {
  if (!known(dim)) return undefined;
  const clampIdx = (v: number, lo: number, hi: number): number => Math.min(Math.max(v < 0 ? v + dim : v, lo), hi);
  let s: number;
  let e: number;
  if (step > 0) {
    s = clampIdx(start, 0, dim);
    e = clampIdx(end, 0, dim);
    return Math.max(0, Math.ceil((e - s) / step));
  }
  s = clampIdx(start, -1, dim - 1);
  e = clampIdx(end, -1, dim - 1);
  return Math.max(0, Math.ceil((e - s) / step));
}

const slice: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const old = c.opset < 10;
  const starts = old ? c.ints("starts") : c.intsIn(1);
  const ends = old ? c.ints("ends") : c.intsIn(2);
  const axes = old ? c.ints("axes") : c.has(3) ? c.intsIn(3) : undefined;
  const steps = old ? undefined : c.has(4) ? c.intsIn(4) : undefined;
  if (!starts || !ends || (!old && c.has(3) && !axes) || (c.has(4) && !steps)) {
    c.set(
      0,
      s.map(() => undefined),
    );
    return;
  }
  const out: Dim[] = [...s];
  starts.forEach((start, i) => {
    const axis = normAxis(axes ? axes[i]! : i, s.length);
    if (axis === undefined) throw new ShapeError(`axis ${axes?.[i]} is out of range for rank ${s.length}`);
    // As onnx's inference refuses it (a zero step would slice forever).
    if (steps?.[i] === 0) throw new ShapeError(`steps[${i}] is 0; a step cannot be 0`);
    out[axis] = sliceDim(s[axis], start, ends[i]!, steps ? steps[i]! : 1);
  });
  c.set(0, out);
  const k = c.constIn(0);
  if (k && k.shape.length === 1 && out.every(known) && (!steps || steps.every((st) => st === 1))) {
    const n = k.values.length;
    const axisStart = Math.min(Math.max(starts[0]! < 0 ? starts[0]! + n : starts[0]!, 0), n);
    c.setConst(0, { elem: k.elem, shape: [out[0] as number], values: k.values.slice(axisStart, axisStart + (out[0] as number)) });
  }
};

const gather: OpRule = (c) => {
  const data = c.shapeIn(0);
  const idx = c.shapeIn(1);
  if (!data || !idx) return;
  const axis = normAxis(c.int("axis", 0)!, data.length);
  if (axis === undefined) throw new ShapeError(`axis ${c.int("axis")} is out of range for rank ${data.length}`);
  c.set(0, [...data.slice(0, axis), ...idx, ...data.slice(axis + 1)]);
  const k = c.constIn(0);
  const ix = c.intsIn(1);
  if (k && ix && k.shape.length === 1) {
    const n = k.values.length;
    if (ix.every((i) => i >= -n && i < n)) c.setConst(0, { elem: k.elem, shape: c.constIn(1)!.shape, values: ix.map((i) => k.values[i < 0 ? i + n : i]!) });
  }
};

function squeezeAxes(c: OpContext): number[] | undefined {
  return c.opset >= 13 ? (c.has(1) ? c.intsIn(1) : undefined) : c.ints("axes");
}

const squeeze: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const axesGiven = c.opset >= 13 ? c.has(1) : c.hasAttr("axes");
  const axes = squeezeAxes(c);
  if (axesGiven && !axes) return;
  let drop: Set<number>;
  if (axes) drop = new Set(axes.map((a) => (a < 0 ? a + s.length : a)));
  else {
    if (s.some((d) => !known(d))) return;
    drop = new Set(s.flatMap((d, i) => (d === 1 ? [i] : [])));
  }
  for (const a of drop) if (known(s[a]) && s[a] !== 1) throw new ShapeError(`cannot squeeze axis ${a} of size ${s[a]}`);
  const out = s.filter((_, i) => !drop.has(i));
  c.set(0, out);
  const k = c.constIn(0);
  if (k && out.every(known)) c.setConst(0, { ...k, shape: out as number[] });
};

const unsqueeze: OpRule = (c) => {
  const s = c.shapeIn(0);
  const axes = c.opset >= 13 ? c.intsIn(1) : c.ints("axes");
  if (!s || !axes) return;
  const rank = s.length + axes.length;
  const norm = new Set(axes.map((a) => (a < 0 ? a + rank : a)));
  const out: Dim[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) out.push(norm.has(i) ? 1 : s[j++]);
  c.set(0, out);
  const k = c.constIn(0);
  if (k && out.every(known)) c.setConst(0, { ...k, shape: out as number[] });
};

const expand: OpRule = (c) => {
  const s = c.shapeIn(0);
  const target = c.intsIn(1);
  if (!target) {
    const t = c.shapeIn(1);
    if (t && known(t[0]) && s) c.set(0, broadcastShapes([s, Array.from({ length: t[0] }, () => undefined)]));
    return;
  }
  if (!s) return;
  const rank = Math.max(s.length, target.length);
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    const a = s[i - (rank - s.length)];
    const b = target[i - (rank - target.length)];
    if (i < rank - target.length) out.push(a);
    else if (i < rank - s.length) out.push(b);
    else if (b === 1) out.push(a);
    else if (a === 1) out.push(b);
    else if (known(a) && a !== b) throw new ShapeError(`cannot expand dimension ${a} to ${b}`);
    else out.push(b);
  }
  c.set(0, out);
};

const tile: OpRule = (c) => {
  const s = c.shapeIn(0);
  const reps = c.intsIn(1);
  if (!s) return;
  if (!reps) {
    c.set(
      0,
      s.map(() => undefined),
    );
    return;
  }
  c.set(
    0,
    s.map((d, i) => (known(d) ? d * reps[i]! : reps[i] === 1 ? d : undefined)),
  );
};

const pad: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const pads = c.opset < 11 ? (c.ints("pads") ?? c.ints("paddings")) : c.intsIn(1);
  if (!pads) {
    c.set(
      0,
      s.map(() => undefined),
    );
    return;
  }
  const axes = c.opset >= 18 && c.has(3) ? c.intsIn(3) : undefined;
  if (c.opset >= 18 && c.has(3) && !axes) {
    c.set(
      0,
      s.map(() => undefined),
    );
    return;
  }
  const ax = (axes ?? s.map((_, i) => i)).map((a) => (a < 0 ? a + s.length : a));
  const out: Dim[] = [...s];
  ax.forEach((a, i) => {
    const d = s[a];
    out[a] = known(d) ? d + pads[i]! + pads[i + ax.length]! : undefined;
  });
  c.set(0, out);
};

const constantOfShape: OpRule = (c) => {
  const value = c.tensorAttr("value");
  const elem = value?.dataType ?? DT.FLOAT;
  const target = c.intsIn(0);
  if (target) {
    c.set(0, target, elem);
    const v = value ? constOfTensor(value) : undefined;
    const n = product(target);
    if (n !== undefined && n <= 64) c.setConst(0, { elem, shape: target, values: Array.from({ length: n }, () => v?.values[0] ?? 0) });
    return;
  }
  const t = c.shapeIn(0);
  c.set(0, t && known(t[0]) ? Array.from({ length: t[0] }, () => undefined) : undefined, elem);
};

const constant: OpRule = (c) => {
  const t = c.tensorAttr("value");
  if (t) {
    c.set(0, t.dims.map(Number), t.dataType);
    const k = constOfTensor(t);
    if (k) c.setConst(0, k);
    return;
  }
  const sparse = c.attr("sparse_value")?.sparseTensor;
  if (sparse) {
    c.set(0, sparse.dims.map(Number), sparse.values?.dataType ?? 0);
    return;
  }
  const i = c.attr("value_int");
  if (i) return c.setConst(0, { elem: DT.INT64, shape: [], values: [Number(i.i)] });
  const is = c.attr("value_ints");
  if (is) return c.setConst(0, { elem: DT.INT64, shape: [is.ints.length], values: is.ints.map(Number) });
  const f = c.attr("value_float");
  if (f) return c.setConst(0, { elem: DT.FLOAT, shape: [], values: [f.f] });
  const fs = c.attr("value_floats");
  if (fs) return c.setConst(0, { elem: DT.FLOAT, shape: [fs.floats.length], values: [...fs.floats] });
  const s = c.attr("value_string");
  if (s) return c.set(0, [], DT.STRING);
  const ss = c.attr("value_strings");
  if (ss) return c.set(0, [ss.strings.length], DT.STRING);
};

const range: OpRule = (c) => {
  const [start, limit, delta] = [c.constIn(0), c.constIn(1), c.constIn(2)];
  if (start && limit && delta && delta.values[0] !== 0) {
    const n = Math.max(Math.ceil((limit.values[0]! - start.values[0]!) / delta.values[0]!), 0);
    // (A NaN or infinite bound gives no count: set makes that length unknown, and no constant.)
    c.set(0, [n]);
    if (n <= 1024) c.setConst(0, { elem: start.elem, shape: [n], values: Array.from({ length: n }, (_, i) => start.values[0]! + i * delta.values[0]!) });
    return;
  }
  c.set(0, [undefined]);
};

const oneHot: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const depth = c.intsIn(1)?.[0];
  const rank = s.length + 1;
  const axis = normAxis(c.int("axis", -1)!, rank) ?? rank - 1;
  const out: Dim[] = [...s];
  out.splice(axis, 0, depth);
  c.set(0, out);
};

const topK: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const axis = normAxis(c.int("axis", -1)!, s.length);
  if (axis === undefined) return;
  const k = c.opset >= 10 ? c.intsIn(1)?.[0] : c.int("k");
  const out = [...s];
  out[axis] = k;
  c.set(0, out);
  c.set(1, out, DT.INT64);
};

const depthToSpace: OpRule = (c) => {
  const s = c.shapeIn(0);
  const b = c.int("blocksize")!;
  if (!s || s.length !== 4) return;
  const [n, ch, h, w] = s;
  c.set(0, [n, known(ch) ? ch / (b * b) : undefined, known(h) ? h * b : undefined, known(w) ? w * b : undefined]);
};

const spaceToDepth: OpRule = (c) => {
  const s = c.shapeIn(0);
  const b = c.int("blocksize")!;
  if (!s || s.length !== 4) return;
  const [n, ch, h, w] = s;
  c.set(0, [n, known(ch) ? ch * b * b : undefined, known(h) ? h / b : undefined, known(w) ? w / b : undefined]);
};

const gatherElements: OpRule = (c) => c.set(0, c.shapeIn(1));

const gatherND: OpRule = (c) => {
  const data = c.shapeIn(0);
  const idx = c.shapeIn(1);
  const b = c.int("batch_dims", 0)!;
  if (!data || !idx) return;
  const last = idx[idx.length - 1];
  if (!known(last)) return;
  c.set(0, [...idx.slice(0, -1), ...data.slice(b + last)]);
};

const resize: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const isUpsample = c.node.opType === "Upsample";
  const scales = isUpsample
    ? c.opset < 9
      ? c.floats("scales")
      : c.constIn(1)?.values
    : c.opset < 11
      ? c.constIn(1)?.values
      : c.has(2)
        ? c.constIn(2)?.values
        : undefined;
  const sizes = !isUpsample && c.opset >= 11 && c.has(3) ? c.intsIn(3) : undefined;
  const axes = c.opset >= 18 ? c.ints("axes") : undefined;
  const ax = (axes ?? s.map((_, i) => i)).map((a) => (a < 0 ? a + s.length : a));
  const out: Dim[] = [...s];
  if (sizes && sizes.length === ax.length) ax.forEach((a, i) => (out[a] = sizes[i]));
  else if (scales && scales.length === ax.length)
    ax.forEach((a, i) => {
      const d = s[a];
      out[a] = known(d) ? Math.floor(d * scales[i]!) : scales[i] === 1 ? d : undefined;
    });
  else
    return c.set(
      0,
      s.map(() => undefined),
    );
  c.set(0, out);
};

const compress: OpRule = (c) => {
  const s = c.shapeIn(0);
  const axis = c.hasAttr("axis") ? c.int("axis") : undefined;
  if (axis === undefined) return c.set(0, [undefined]);
  if (!s) return;
  const a = normAxis(axis, s.length);
  if (a === undefined) return;
  const out = [...s];
  out[a] = undefined;
  c.set(0, out);
};

const nonZero: OpRule = (c) => c.set(0, [c.rankIn(0), undefined], DT.INT64);

const unique: OpRule = (c) => {
  const s = c.shapeIn(0);
  const axis = c.hasAttr("axis") ? c.int("axis") : undefined;
  if (axis === undefined || !s) c.set(0, [undefined]);
  else {
    const out = [...s];
    const a = normAxis(axis, s.length);
    if (a !== undefined) out[a] = undefined;
    c.set(0, out);
  }
  for (let i = 1; i < 4; i++) c.set(i, [undefined], DT.INT64);
};

export const SHAPE_RULES: Record<string, OpRule> = {
  Shape: shapeOp,
  Size: size,
  Reshape: reshape,
  Flatten: flatten,
  Transpose: transpose,
  Concat: concat,
  Split: split,
  Slice: slice,
  Gather: gather,
  GatherElements: gatherElements,
  GatherND: gatherND,
  Squeeze: squeeze,
  Unsqueeze: unsqueeze,
  Expand: expand,
  Tile: tile,
  Pad: pad,
  ConstantOfShape: constantOfShape,
  Constant: constant,
  Range: range,
  OneHot: oneHot,
  TopK: topK,
  DepthToSpace: depthToSpace,
  SpaceToDepth: spaceToDepth,
  Resize: resize,
  Upsample: resize,
  Compress: compress,
  NonZero: nonZero,
  Unique: unique,
};
