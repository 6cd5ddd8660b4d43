// Plain reference loops the fast kernels are checked against, and seeded test data.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

export function randomArray(n: number, random: () => number): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = random() * 2 - 1;
  return a;
}

export interface ConvCase {
  batch: number;
  channels: number;
  height: number;
  width: number;
  m: number;
  kh: number;
  kw: number;
  group: number;
  strides: [number, number];
  pads: [number, number, number, number];
  dilations: [number, number];
}

export function referenceConv(x: Float32Array, w: Float32Array, bias: Float32Array | undefined, c: ConvCase, relu = false): Float32Array {
  const { batch, channels, height, width, m, kh, kw, group } = c;
  const [sh, sw] = c.strides,
    [dh, dw] = c.dilations,
    [pt, pl, pb, pr] = c.pads;
  const outH = Math.floor((height + pt + pb - ((kh - 1) * dh + 1)) / sh) + 1;
  const outW = Math.floor((width + pl + pr - ((kw - 1) * dw + 1)) / sw) + 1;
  const cg = channels / group,
    mg = m / group;
  const y = new Float32Array(batch * m * outH * outW);
  for (let b = 0; b < batch; b++)
    for (let o = 0; o < m; o++) {
      const g = Math.floor(o / mg);
      for (let oy = 0; oy < outH; oy++)
        for (let ox = 0; ox < outW; ox++) {
          let sum = bias ? bias[o]! : 0;
          for (let ci = 0; ci < cg; ci++)
            for (let ky = 0; ky < kh; ky++)
              for (let kx = 0; kx < kw; kx++) {
                const iy = oy * sh - pt + ky * dh,
                  ix = ox * sw - pl + kx * dw;
                if (iy < 0 || iy >= height || ix < 0 || ix >= width) continue;
                sum += x[((b * channels + g * cg + ci) * height + iy) * width + ix]! * w[((o * cg + ci) * kh + ky) * kw + kx]!;
              }
          y[((b * m + o) * outH + oy) * outW + ox] = relu ? Math.max(0, sum) : sum;
        }
    }
  return y;
}

/** Largest |a-b| / (atol + rtol*|b|); <= 1 means close. */
export function closeness(a: Float32Array, b: Float32Array, rtol = 1e-4, atol = 1e-5): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!) / (atol + rtol * Math.abs(b[i]!));
    if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
  }
  return worst;
}
