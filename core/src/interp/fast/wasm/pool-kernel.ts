// 2-D max and average pooling (no dilation) in WebAssembly over a range of NCHW planes.
// Each window is clipped to the input once, so the inner loops carry no bounds checks.
// Modes: 0 = max, 1 = average over the clipped window, 2 = average counting padding.

import { FunctionBuilder, type Local } from "./assembler.js";

export const POOL_MAX = 0;
export const POOL_AVERAGE = 1;
export const POOL_AVERAGE_INCLUDE_PAD = 2;

export function buildPoolKernel(): FunctionBuilder {
  const f = new FunctionBuilder("pool2d", [
    "i32",
    "i32", // x, y (byte offsets of the first plane)
    "i32", // planes
    "i32",
    "i32",
    "i32",
    "i32", // height, width, outH, outW
    "i32",
    "i32",
    "i32",
    "i32", // kh, kw, sh, sw
    "i32",
    "i32",
    "i32",
    "i32", // padTop, padLeft, padBottom, padRight
    "i32", // mode
  ]);
  const [x, y, planes, height, width, outH, outW, kh, kw, sh, sw, pt, pl, pb, pr, mode] = f.params as [
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
  const p = f.local("i32"),
    oy = f.local("i32"),
    ox = f.local("i32");
  const ylo = f.local("i32"),
    yhi = f.local("i32"),
    xlo = f.local("i32"),
    xhi = f.local("i32");
  const ys = f.local("i32"),
    xs = f.local("i32"),
    iy = f.local("i32"),
    ix = f.local("i32");
  const plane = f.local("i32"),
    row = f.local("i32"),
    dst = f.local("i32"),
    count = f.local("i32");
  const acc = f.local("f32");

  /** target = max(a, b) / min(a, b) on i32 locals via select. */
  const maxInto = (target: Local, a: () => void, b: () => void): void => {
    a();
    b();
    a();
    b();
    f.i32GtS().select().set(target);
  };
  const minInto = (target: Local, a: () => void, b: () => void): void => {
    a();
    b();
    a();
    b();
    f.i32LtS().select().set(target);
  };

  f.get(y).set(dst);
  f.get(x).set(plane);
  f.forRange(p, planes, () => {
    f.forRange(oy, outH, () => {
      f.get(oy).get(sh).i32Mul().get(pt).i32Sub().set(ys);
      maxInto(
        ylo,
        () => f.get(ys),
        () => f.i32(0),
      );
      minInto(
        yhi,
        () => f.get(ys).get(kh).i32Add(),
        () => f.get(height),
      );
      f.forRange(ox, outW, () => {
        f.get(ox).get(sw).i32Mul().get(pl).i32Sub().set(xs);
        maxInto(
          xlo,
          () => f.get(xs),
          () => f.i32(0),
        );
        minInto(
          xhi,
          () => f.get(xs).get(kw).i32Add(),
          () => f.get(width),
        );
        f.get(mode)
          .i32Eqz()
          .ifThen(
            () => f.f32(-Infinity).set(acc),
            () => f.f32(0).set(acc),
          );
        f.get(ylo).set(iy);
        f.block(() => {
          f.loop(() => {
            f.get(iy).get(yhi).i32GeS().brIf(1);
            f.get(plane).get(iy).get(width).i32Mul().i32(2).i32Shl().i32Add().set(row);
            f.get(xlo).set(ix);
            f.get(mode)
              .i32Eqz()
              .ifThen(
                () => {
                  f.block(() => {
                    f.loop(() => {
                      f.get(ix).get(xhi).i32GeS().brIf(1);
                      f.get(acc).get(row).get(ix).i32(2).i32Shl().i32Add().f32Load().f32Max().set(acc);
                      f.addTo(ix, 1);
                      f.br(0);
                    });
                  });
                },
                () => {
                  f.block(() => {
                    f.loop(() => {
                      f.get(ix).get(xhi).i32GeS().brIf(1);
                      f.get(acc).get(row).get(ix).i32(2).i32Shl().i32Add().f32Load().f32Add().set(acc);
                      f.addTo(ix, 1);
                      f.br(0);
                    });
                  });
                },
              );
            f.addTo(iy, 1);
            f.br(0);
          });
        });
        f.get(mode).ifThen(() => {
          // count = clipped window size, or the window clipped to the padded input.
          f.get(mode)
            .i32(2)
            .i32Ne()
            .ifThen(
              () => {
                f.get(yhi).get(ylo).i32Sub().get(xhi).get(xlo).i32Sub().i32Mul().set(count);
              },
              () => {
                // (min(H + pb, ys + kh) - max(-pt, ys)) * (min(W + pr, xs + kw) - max(-pl, xs))
                minInto(
                  count,
                  () => f.get(height).get(pb).i32Add(),
                  () => f.get(ys).get(kh).i32Add(),
                );
                maxInto(
                  iy,
                  () => f.i32(0).get(pt).i32Sub(),
                  () => f.get(ys),
                );
                f.get(count).get(iy).i32Sub().set(count);
                minInto(
                  ix,
                  () => f.get(width).get(pr).i32Add(),
                  () => f.get(xs).get(kw).i32Add(),
                );
                maxInto(
                  row,
                  () => f.i32(0).get(pl).i32Sub(),
                  () => f.get(xs),
                );
                f.get(count).get(ix).get(row).i32Sub().i32Mul().set(count);
              },
            );
          f.get(acc).get(count).f32ConvertI32S().f32Div().set(acc);
        });
        f.get(dst).get(acc).f32Store();
        f.addTo(dst, 4);
      });
    });
    f.get(plane).get(height).get(width).i32Mul().i32(2).i32Shl().i32Add().set(plane);
  });
  return f;
}
