// Neural-network operators: convolutions and pooling (spatial output sizes), matrix products,
// normalizations, recurrent layers, losses and a few image/signal ops.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpContext, OpRule } from "../context.js";
import { broadcastShapes, normAxis, ShapeError } from "../dims.js";
import { formatShape, type Dim, type Shape } from "../types.js";

function known(d: Dim): d is number {
  return typeof d === "number";
}

interface Window {
  kernel: number[];
  strides: number[];
  dilations: number[];
  pads: number[];
}

function window(c: OpContext, spatial: number, kernel: number[] | undefined): Window | undefined {
  if (!kernel || kernel.length !== spatial) return undefined;
  return {
    kernel,
    strides: c.ints("strides") ?? kernel.map(() => 1),
    dilations: c.ints("dilations") ?? kernel.map(() => 1),
    pads: c.ints("pads") ?? kernel.map(() => 0).concat(kernel.map(() => 0)),
  };
}

/** Output sizes of a sliding window over `dims` (conv and pooling). */
function slide(c: OpContext, dims: Shape, w: Window, ceil: boolean): Dim[] {
  const autoPad = c.string("auto_pad", "NOTSET");
  return dims.map((d, i) => {
    if (!known(d)) return undefined;
    const stride = w.strides[i] ?? 1;
    const effective = (w.kernel[i]! - 1) * (w.dilations[i] ?? 1) + 1;
    if (autoPad === "SAME_UPPER" || autoPad === "SAME_LOWER") return Math.ceil(d / stride);
    const padded = autoPad === "VALID" ? d : d + w.pads[i]! + w.pads[i + dims.length]!;
    const steps = (padded - effective) / stride;
    let out = (ceil ? Math.ceil(steps) : Math.floor(steps)) + 1;
    // With ceil_mode, a last window that starts in the right padding is dropped.
    if (ceil && autoPad !== "VALID" && (out - 1) * stride >= d + w.pads[i]!) out--;
    if (out < 1 && autoPad !== "VALID") throw new ShapeError(`the window (${effective}) is larger than the padded input (${padded}) in spatial dimension ${i}`);
    return out;
  });
}

function conv(xIndex: number, wIndex: number, elem?: number): OpRule {
  return (c) => {
    const x = c.shapeIn(xIndex);
    const wShape = c.shapeIn(wIndex);
    if (!x || x.length < 3) return;
    const spatial = x.length - 2;
    const kernel = c.ints("kernel_shape") ?? (wShape && wShape.slice(2).every(known) ? (wShape.slice(2) as number[]) : undefined);
    const w = window(c, spatial, kernel);
    const group = c.int("group", 1)!;
    if (wShape && known(x[1]) && known(wShape[1]) && x[1] !== wShape[1] * group) {
      throw new ShapeError(`the input has ${x[1]} channels but the weights expect ${(wShape[1]! as number) * group}`);
    }
    c.set(0, [x[0], wShape?.[0], ...(w ? slide(c, x.slice(2), w, false) : x.slice(2).map(() => undefined))], elem);
  };
}

const convTranspose: OpRule = (c) => {
  const x = c.shapeIn(0);
  const wShape = c.shapeIn(1);
  if (!x || x.length < 3) return;
  const spatial = x.length - 2;
  const group = c.int("group", 1)!;
  const channels = wShape && known(wShape[1]) ? wShape[1] * group : undefined;
  const outputShape = c.ints("output_shape");
  if (outputShape) {
    c.set(0, [x[0], channels, ...outputShape.slice(-spatial)]);
    return;
  }
  const kernel = c.ints("kernel_shape") ?? (wShape && wShape.slice(2).every(known) ? (wShape.slice(2) as number[]) : undefined);
  const w = window(c, spatial, kernel);
  if (!w) return c.set(0, [x[0], channels, ...x.slice(2).map(() => undefined)]);
  const outPad = c.ints("output_padding") ?? kernel!.map(() => 0);
  const autoPad = c.string("auto_pad", "NOTSET");
  const dims = x.slice(2).map((d, i) => {
    if (!known(d)) return undefined;
    if (autoPad === "SAME_UPPER" || autoPad === "SAME_LOWER") return d * w.strides[i]!;
    const pads = autoPad === "VALID" ? 0 : w.pads[i]! + w.pads[i + spatial]!;
    return w.strides[i]! * (d - 1) + outPad[i]! + (w.kernel[i]! - 1) * w.dilations[i]! + 1 - pads;
  });
  c.set(0, [x[0], channels, ...dims]);
};

const pool: OpRule = (c) => {
  const x = c.shapeIn(0);
  if (!x || x.length < 3) return;
  const w = window(c, x.length - 2, c.ints("kernel_shape"));
  const out = [x[0], x[1], ...(w ? slide(c, x.slice(2), w, c.int("ceil_mode", 0) === 1) : x.slice(2).map(() => undefined))];
  c.set(0, out);
  if (c.node.output.length > 1) c.set(1, out, DT.INT64);
};

const globalPool: OpRule = (c) => {
  const x = c.shapeIn(0);
  if (x) c.set(0, [x[0], x[1], ...x.slice(2).map(() => 1)]);
};

function matmulShape(a: Shape, b: Shape): Dim[] {
  if (a.length === 0 || b.length === 0) throw new ShapeError("MatMul inputs must not be scalars");
  const a2 = a.length === 1 ? [1, a[0]] : a;
  const b2 = b.length === 1 ? [b[0], 1] : b;
  const k1 = a2[a2.length - 1];
  const k2 = b2[b2.length - 2];
  if (known(k1) && known(k2) && k1 !== k2) {
    throw new ShapeError(`inner dimensions differ: ${formatShape(a)} has ${k1} columns but ${formatShape(b)} has ${k2} rows`);
  }
  const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)]);
  const out: Dim[] = [...batch];
  if (a.length !== 1) out.push(a2[a2.length - 2]);
  if (b.length !== 1) out.push(b2[b2.length - 1]);
  return out;
}

function matmul(aIndex: number, bIndex: number, elem?: number): OpRule {
  return (c) => {
    const a = c.shapeIn(aIndex);
    const b = c.shapeIn(bIndex);
    if (a && b) c.set(0, matmulShape(a, b), elem);
  };
}

const gemm: OpRule = (c) => {
  const a = c.shapeIn(0);
  const b = c.shapeIn(1);
  if (!a || !b || a.length !== 2 || b.length !== 2) return;
  const [m, k1] = c.int("transA", 0) ? [a[1], a[0]] : [a[0], a[1]];
  const [k2, n] = c.int("transB", 0) ? [b[1], b[0]] : [b[0], b[1]];
  if (known(k1) && known(k2) && k1 !== k2) throw new ShapeError(`inner dimensions differ: A gives ${k1} and B gives ${k2}`);
  c.set(0, [m, n]);
};

const batchNorm: OpRule = (c) => {
  const x = c.shapeIn(0);
  c.set(0, x);
  for (let i = 1; i < c.node.output.length; i++) c.set(i, c.opset >= 14 && i < 3 ? [x?.[1]] : (c.shapeIn(1) ?? [x?.[1]]));
};

const layerNorm: OpRule = (c) => {
  const x = c.shapeIn(0);
  c.set(0, x);
  if (!x) return;
  const axis = normAxis(c.int("axis", -1)!, x.length);
  if (axis === undefined) return;
  const stats = x.map((d, i) => (i < axis ? d : 1));
  const statElem = c.int("stash_type", DT.FLOAT) || DT.FLOAT;
  for (let i = 1; i < c.node.output.length; i++) c.set(i, stats, c.elemOut(i) || statElem);
};

const recurrent: OpRule = (c) => {
  const x = c.shapeIn(0);
  const hidden = c.int("hidden_size");
  const dirs = c.string("direction", "forward") === "bidirectional" ? 2 : 1;
  const layout = c.int("layout", 0)!;
  const [seq, batch] = x ? (layout === 0 ? [x[0], x[1]] : [x[1], x[0]]) : [undefined, undefined];
  const elem = c.elemIn(0);
  if (layout === 0) {
    c.set(0, [seq, dirs, batch, hidden], elem);
    c.set(1, [dirs, batch, hidden], elem);
    c.set(2, [dirs, batch, hidden], elem);
  } else {
    c.set(0, [batch, seq, dirs, hidden], elem);
    c.set(1, [batch, dirs, hidden], elem);
    c.set(2, [batch, dirs, hidden], elem);
  }
};

function parseTerm(term: string): string[] {
  return term.replace("...", ".").split("");
}

const einsum: OpRule = (c) => {
  const eq = (c.string("equation") ?? "").replace(/\s/g, "");
  const [lhs, rhs] = eq.split("->") as [string, string | undefined];
  const terms = lhs.split(",");
  const sizes = new Map<string, Dim>();
  const counts = new Map<string, number>();
  let ellipsis: Shape | undefined;
  for (let t = 0; t < terms.length; t++) {
    const s = c.shapeIn(t);
    if (!s) return;
    const letters = parseTerm(terms[t]!);
    const dotAt = letters.indexOf(".");
    const ellRank = dotAt >= 0 ? s.length - (letters.length - 1) : 0;
    let k = 0;
    for (const l of letters) {
      if (l === ".") {
        const part = s.slice(k, k + ellRank);
        ellipsis = ellipsis ? broadcastShapes([ellipsis, part]) : part;
        k += ellRank;
        continue;
      }
      const d = s[k++];
      const prev = sizes.get(l);
      sizes.set(l, known(prev) ? prev : d);
      counts.set(l, (counts.get(l) ?? 0) + 1);
    }
  }
  const outLetters =
    rhs !== undefined
      ? parseTerm(rhs)
      : [
          ...(ellipsis ? ["."] : []),
          ...[...counts]
            .filter(([, n]) => n === 1)
            .map(([l]) => l)
            .sort(),
        ];
  c.set(
    0,
    outLetters.flatMap((l) => (l === "." ? [...(ellipsis ?? [])] : [sizes.get(l)])),
  );
};

const nllLoss: OpRule = (c) => {
  const reduction = c.string("reduction", "mean");
  if (reduction !== "none") return c.set(0, []);
  const isSce = c.node.opType === "SoftmaxCrossEntropyLoss";
  c.set(0, c.shapeIn(1));
  if (isSce && c.node.output.length > 1) c.set(1, c.shapeIn(0));
};

const sceLoss: OpRule = (c) => {
  const reduction = c.string("reduction", "mean");
  c.set(0, reduction === "none" ? c.shapeIn(1) : []);
  if (c.node.output.length > 1) c.set(1, c.shapeIn(0));
};

const maxUnpool: OpRule = (c) => {
  const x = c.shapeIn(0);
  const given = c.has(2) ? c.intsIn(2) : undefined;
  if (given) return c.set(0, given);
  if (!x || x.length < 3) return;
  if (c.has(2)) return c.set(0, [x[0], x[1], ...x.slice(2).map(() => undefined)]);
  const kernel = c.ints("kernel_shape");
  if (!kernel) return;
  const strides = c.ints("strides") ?? kernel.map(() => 1);
  const pads = c.ints("pads") ?? kernel.map(() => 0).concat(kernel.map(() => 0));
  const n = kernel.length;
  c.set(0, [x[0], x[1], ...x.slice(2).map((d, i) => (known(d) ? (d - 1) * strides[i]! + kernel[i]! - pads[i]! - pads[i + n]! : undefined))]);
};

const roiAlign: OpRule = (c) => {
  const x = c.shapeIn(0);
  const rois = c.shapeIn(1);
  c.set(0, [rois?.[0], x?.[1], c.int("output_height", 1), c.int("output_width", 1)]);
};

const gridSample: OpRule = (c) => {
  const x = c.shapeIn(0);
  const grid = c.shapeIn(1);
  if (!x || !grid) return;
  c.set(0, [x[0], x[1], ...grid.slice(1, -1)]);
};

const windowOp: OpRule = (c) => {
  const n = c.intsIn(0)?.[0];
  c.set(0, [n], c.int("output_datatype", DT.FLOAT));
};

const melWeight: OpRule = (c) => {
  const dft = c.intsIn(1)?.[0];
  const bins = c.intsIn(0)?.[0];
  c.set(0, [known(dft) ? Math.floor(dft / 2) + 1 : undefined, bins], c.int("output_datatype", DT.FLOAT));
};

const dft: OpRule = (c) => {
  const x = c.shapeIn(0);
  if (!x) return;
  const inverse = c.int("inverse", 0) === 1;
  const onesided = c.int("onesided", 0) === 1;
  const out: Dim[] = [...x];
  // An inverse one-sided transform gives back a real signal.
  out[out.length - 1] = inverse && onesided ? 1 : 2;
  const axisValue = c.opset >= 20 ? (c.has(2) ? c.intsIn(2)?.[0] : -2) : c.int("axis", 1);
  if (axisValue === undefined)
    return c.set(
      0,
      out.map((d, i) => (i === 0 || i === out.length - 1 ? d : undefined)),
    );
  const axis = normAxis(axisValue, x.length);
  if (axis === undefined) return c.set(0, out);
  const length = c.has(1) ? c.intsIn(1)?.[0] : undefined;
  const n = x[axis];
  if (c.has(1)) out[axis] = length !== undefined && onesided && !inverse ? Math.floor(length / 2) + 1 : length;
  else if (onesided && known(n)) out[axis] = inverse ? (n - 1) * 2 : Math.floor(n / 2) + 1;
  c.set(0, out);
};

const det: OpRule = (c) => {
  const x = c.shapeIn(0);
  if (x && x.length >= 2) c.set(0, x.slice(0, -2));
};

export const NN_RULES: Record<string, OpRule> = {
  Conv: conv(0, 1),
  ConvInteger: conv(0, 1, DT.INT32),
  QLinearConv: conv(0, 3),
  ConvTranspose: convTranspose,
  MaxPool: pool,
  AveragePool: pool,
  LpPool: pool,
  GlobalAveragePool: globalPool,
  GlobalMaxPool: globalPool,
  GlobalLpPool: globalPool,
  MatMul: matmul(0, 1),
  MatMulInteger: matmul(0, 1, DT.INT32),
  QLinearMatMul: matmul(0, 3),
  Gemm: gemm,
  BatchNormalization: batchNorm,
  LayerNormalization: layerNorm,
  RNN: recurrent,
  GRU: recurrent,
  LSTM: recurrent,
  Einsum: einsum,
  NegativeLogLikelihoodLoss: nllLoss,
  SoftmaxCrossEntropyLoss: sceLoss,
  MaxUnpool: maxUnpool,
  RoiAlign: roiAlign,
  GridSample: gridSample,
  HannWindow: windowOp,
  HammingWindow: windowOp,
  BlackmanWindow: windowOp,
  MelWeightMatrix: melWeight,
  DFT: dft,
  Det: det,
  NonMaxSuppression: (c) => c.set(0, [undefined, 3], DT.INT64),
};
