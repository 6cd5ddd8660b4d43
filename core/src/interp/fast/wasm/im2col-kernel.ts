// im2col in WebAssembly: writes row k = (c, ky, kx) of B for output columns [n0, n1) of one
// image, zeroing the padding columns up to nEnd. Compiled ahead by the optimizing tier, so a
// one-shot run does not spend its first convolutions in cold JavaScript.

import { FunctionBuilder, type Local } from "./assembler.js";

export function buildIm2colKernel(): FunctionBuilder {
  const f = new FunctionBuilder("im2col", [
    "i32", // x: byte offset of the first input channel plane
    "i32", // col: byte offset of B row 0
    "i32",
    "i32",
    "i32", // channels, height, width
    "i32",
    "i32", // kh, kw
    "i32",
    "i32", // sh, sw
    "i32",
    "i32", // dh, dw
    "i32",
    "i32", // padTop, padLeft
    "i32", // outW
    "i32", // ldb (floats)
    "i32",
    "i32",
    "i32", // n0, n1, nEnd
  ]);
  const [x, col, channels, height, width, kh, kw, sh, sw, dh, dw, padTop, padLeft, outW, ldb, n0, n1, nEnd] = f.params as [
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
    Local,
  ];
  const c = f.local("i32"),
    ky = f.local("i32"),
    kx = f.local("i32");
  const row = f.local("i32"),
    plane = f.local("i32"),
    src = f.local("i32");
  const n = f.local("i32"),
    end = f.local("i32"),
    oy = f.local("i32"),
    ox = f.local("i32");
  const iy = f.local("i32"),
    ix = f.local("i32"),
    dst = f.local("i32"),
    stop = f.local("i32");
  const startOy = f.local("i32"),
    startOx = f.local("i32");

  // The first column's output position.
  f.get(n0).get(outW).i32DivU().set(startOy);
  f.get(n0).get(startOy).get(outW).i32Mul().i32Sub().set(startOx);
  f.get(col).set(row);
  f.get(x).set(plane);
  f.forRange(c, channels, () => {
    f.forRange(ky, kh, () => {
      f.forRange(kx, kw, () => {
        f.get(n0).set(n);
        f.get(startOy).set(oy);
        f.get(startOx).set(ox);
        f.block(() => {
          f.loop(() => {
            f.get(n).get(n1).i32GeS().brIf(1);
            // end = min(n1, n + outW - ox)
            f.get(n).get(outW).i32Add().get(ox).i32Sub().set(end);
            f.get(end)
              .get(n1)
              .i32GtS()
              .ifThen(() => f.get(n1).set(end));
            // iy = oy*sh - padTop + ky*dh
            f.get(oy).get(sh).i32Mul().get(padTop).i32Sub().get(ky).get(dh).i32Mul().i32Add().set(iy);
            f.get(row).get(n).i32(2).i32Shl().i32Add().set(dst);
            f.get(row).get(end).i32(2).i32Shl().i32Add().set(stop);
            f.get(iy)
              .get(height)
              .i32LtU()
              .ifThen(
                () => {
                  f.get(plane).get(iy).get(width).i32Mul().i32(2).i32Shl().i32Add().set(src);
                  // ix = ox*sw - padLeft + kx*dw, advancing by sw per column.
                  f.get(ox).get(sw).i32Mul().get(padLeft).i32Sub().get(kx).get(dw).i32Mul().i32Add().set(ix);
                  f.block(() => {
                    f.loop(() => {
                      f.get(dst).get(stop).i32GeS().brIf(1);
                      f.get(ix)
                        .get(width)
                        .i32LtU()
                        .ifThen(
                          () => {
                            f.get(dst).get(src).get(ix).i32(2).i32Shl().i32Add().f32Load().f32Store();
                          },
                          () => {
                            f.get(dst).f32(0).f32Store();
                          },
                        );
                      f.addTo(dst, 4);
                      f.addTo(ix, sw);
                      f.br(0);
                    });
                  });
                },
                () => {
                  f.block(() => {
                    f.loop(() => {
                      f.get(dst).get(stop).i32GeS().brIf(1);
                      f.get(dst).f32(0).f32Store();
                      f.addTo(dst, 4);
                      f.br(0);
                    });
                  });
                },
              );
            f.get(end).set(n);
            f.addTo(oy, 1);
            f.i32(0).set(ox);
            f.br(0);
          });
        });
        // Zero the padding columns [n1, nEnd).
        f.get(row).get(n1).i32(2).i32Shl().i32Add().set(dst);
        f.get(row).get(nEnd).i32(2).i32Shl().i32Add().set(stop);
        f.block(() => {
          f.loop(() => {
            f.get(dst).get(stop).i32GeS().brIf(1);
            f.get(dst).f32(0).f32Store();
            f.addTo(dst, 4);
            f.br(0);
          });
        });
        f.get(row).get(ldb).i32(2).i32Shl().i32Add().set(row);
      });
    });
    f.get(plane).get(height).get(width).i32Mul().i32(2).i32Shl().i32Add().set(plane);
  });
  return f;
}
