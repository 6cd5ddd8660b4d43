// The remaining standard operators: bit casts, string ops, image decoding, crops, Col2Im,
// AffineGrid, deformable convolution, STFT and random generators.
import { dataTypeInfo, TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpRule } from "../context.js";
import { broadcastShapes, normAxis, product } from "../dims.js";
import type { Dim } from "../types.js";
import { NN_RULES } from "./nn.js";

function known(d: Dim): d is number {
  return typeof d === "number";
}

const bitCast: OpRule = (c) => {
  const to = c.int("to") ?? 0;
  const from = dataTypeInfo(c.elemIn(0))?.bits;
  const bits = dataTypeInfo(to)?.bits;
  c.set(0, from !== undefined && from === bits ? c.shapeIn(0) : undefined, to);
};

const stringSplit: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  c.set(0, [...s, undefined], DT.STRING);
  c.set(1, s, DT.INT64);
};

const imageDecoder: OpRule = (c) => {
  const format = c.string("pixel_format", "RGB");
  c.set(0, [undefined, undefined, format === "Grayscale" ? 1 : 3], DT.UINT8);
};

const centerCropPad: OpRule = (c) => {
  const s = c.shapeIn(0);
  const target = c.intsIn(1);
  if (!s) return;
  if (!target)
    return c.set(
      0,
      s.map(() => undefined),
    );
  const axes = (c.ints("axes") ?? target.map((_, i) => s.length - target.length + i)).map((a) => normAxis(a, s.length));
  const out: Dim[] = [...s];
  axes.forEach((a, i) => {
    if (a !== undefined) out[a] = target[i];
  });
  c.set(0, out);
};

const col2im: OpRule = (c) => {
  const s = c.shapeIn(0);
  const image = c.intsIn(1);
  const block = c.intsIn(2);
  if (!s || s.length !== 3) return;
  const blockSize = block ? product(block) : undefined;
  const channels = known(s[1]) && blockSize ? s[1] / blockSize : undefined;
  c.set(0, [
    s[0],
    channels,
    ...(image ?? (c.shapeIn(1)?.[0] !== undefined && known(c.shapeIn(1)![0]) ? Array.from({ length: c.shapeIn(1)![0] as number }, () => undefined) : [])),
  ]);
};

const affineGrid: OpRule = (c) => {
  const size = c.intsIn(1);
  const theta = c.shapeIn(0);
  if (size) return c.set(0, size.length === 4 ? [size[0], size[2], size[3], 2] : [size[0], size[2], size[3], size[4], 3]);
  const n = c.shapeIn(1)?.[0];
  if (n === 4) c.set(0, [theta?.[0], undefined, undefined, 2]);
  else if (n === 5) c.set(0, [theta?.[0], undefined, undefined, undefined, 3]);
};

const stft: OpRule = (c) => {
  const signal = c.shapeIn(0);
  const step = c.intsIn(1)?.[0];
  const window = c.has(2) ? c.shapeIn(2)?.[0] : undefined;
  const length = c.has(3) ? c.intsIn(3)?.[0] : window;
  const n = signal?.[1];
  const frames = known(n) && known(length) && step ? Math.floor((n - length) / step) + 1 : undefined;
  const bins = known(length) ? (c.int("onesided", 1) ? Math.floor(length / 2) + 1 : length) : undefined;
  c.set(0, [signal?.[0], frames, bins, 2]);
};

const maxRoiPool: OpRule = (c) => {
  const x = c.shapeIn(0);
  const rois = c.shapeIn(1);
  const pooled = c.ints("pooled_shape") ?? [undefined, undefined];
  c.set(0, [rois?.[0], x?.[1], ...pooled]);
};

const random: OpRule = (c) => c.set(0, c.ints("shape"), c.int("dtype", DT.FLOAT));

export const MISC_RULES: Record<string, OpRule> = {
  BitCast: bitCast,
  CumProd: (c) => c.set(0, c.shapeIn(0)),
  StringSplit: stringSplit,
  StringConcat: (c) => {
    const a = c.shapeIn(0);
    const b = c.shapeIn(1);
    if (a && b) c.set(0, broadcastShapes([a, b]), DT.STRING);
  },
  RegexFullMatch: (c) => c.set(0, c.shapeIn(0), DT.BOOL),
  ImageDecoder: imageDecoder,
  CenterCropPad: centerCropPad,
  Col2Im: col2im,
  AffineGrid: affineGrid,
  DeformConv: NN_RULES.Conv!,
  STFT: stft,
  MaxRoiPool: maxRoiPool,
  RandomNormal: random,
  RandomUniform: random,
};
