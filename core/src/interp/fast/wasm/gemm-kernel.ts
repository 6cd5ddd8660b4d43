// The WebAssembly SIMD GEMM micro-kernel loop, generated with our assembler.
//
// C[MR x NR tiles] (+)= A * B, where
//  - A row r of a tile starts `r * aRowStride` bytes after the tile's origin, successive k are
//    `aStepK` bytes apart and tiles are `aPanelStride` apart (row-major A: 4, lda*4, MR*lda*4;
//    panel-packed A: 4, MR*4, K*MR*4);
//  - B is read NR (= 4*NV) consecutive floats per k, `bStepK` bytes apart (either a packed
//    panel, bStepK = NR*4, or straight from a row-major matrix, bStepK = ldb*4);
//  - C rows are `ldc` bytes apart.
// The `table` variant reads B row k at `b + table[k]` (int32 byte offsets): a convolution
// with stride 1 then reads its shifted input rows in place, without an im2col copy.
// Flags: 1 = accumulate into C (otherwise start from bias or zero), 2 = apply ReLU on store,
// 4 = multiply row r by scale[r] and add shift[r] on store (a folded per-channel affine step;
// scale or shift 0 = none). Flags 2 and 4 belong on the last k block only.

import { FunctionBuilder, type Local } from "./assembler.js";

import { GEMM_MR, GEMM_NV } from "./gemm-layout.js";

export { GEMM_FLAG_ACCUMULATE, GEMM_FLAG_AFFINE, GEMM_FLAG_RELU, GEMM_MR, GEMM_NR, GEMM_NV } from "./gemm-layout.js";

type BRows = "strided" | "table";

export function buildGemmKernel(bRows: BRows = "strided", mr = GEMM_MR, nv = GEMM_NV): FunctionBuilder {
  const f = new FunctionBuilder(bRows === "strided" ? "gemm" : "gemm_table", [
    "i32", // a: packed A, already offset to the first k of this block
    "i32", // b: first B element of panel 0 for this k block
    "i32", // c: C tile origin
    "i32", // bias: per-row bias (0 = none)
    "i32", // kc: k steps
    "i32", // mPanels
    "i32", // nPanels
    "i32", // aPanelStride (bytes)
    "i32", // aRowStride (bytes)
    "i32", // aStepK (bytes)
    "i32", // bStepK (bytes) or, for the table variant, the table's byte offset
    "i32", // bPanelStride (bytes)
    "i32", // ldc (bytes)
    "i32", // flags
    "i32", // scale: per-row factors (0 = none)
    "i32", // shift: per-row terms added after scaling (0 = none)
  ]);
  const [a, b, c, bias, kc, mPanels, nPanels, aPanelStride, aRowStride, aStepK, bStepK, bPanelStride, ldc, flags, scale, shift] = f.params as [
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
  const jp = f.local("i32");
  const ip = f.local("i32");
  const k = f.local("i32");
  const ap = f.local("i32");
  const bp = f.local("i32");
  const bPanel = f.local("i32");
  const tp = f.local("i32");
  const cp = f.local("i32");
  const crow = f.local("i32");
  const acc: Local[][] = [];
  for (let r = 0; r < mr; r++) {
    acc.push([]);
    for (let j = 0; j < nv; j++) acc[r]!.push(f.local("v128"));
  }
  const bv: Local[] = [];
  for (let j = 0; j < nv; j++) bv.push(f.local("v128"));
  const av = f.local("v128");
  // rowOffset[r] = r * aRowStride, computed once per call.
  const rowOffset: Local[] = [];
  for (let r = 1; r < mr; r++) rowOffset.push(f.local("i32"));
  for (let r = 1; r < mr; r++)
    f.get(aRowStride)
      .i32(r)
      .i32Mul()
      .set(rowOffset[r - 1]!);
  const loadA = (r: number): void => {
    f.get(ap);
    if (r > 0) f.get(rowOffset[r - 1]!).i32Add();
    f.v128Load32Splat(0);
  };

  f.forRange(jp, nPanels, () => {
    f.forRange(ip, mPanels, () => {
      // ap = a + ip * aPanelStride; bp = b + jp * bPanelStride; cp = c + jp*NR*4 + ip*MR*ldc
      f.get(a).get(ip).get(aPanelStride).i32Mul().i32Add().set(ap);
      f.get(b).get(jp).get(bPanelStride).i32Mul().i32Add().set(bPanel);
      if (bRows === "strided") f.get(bPanel).set(bp);
      else f.get(bStepK).set(tp);
      f.get(c)
        .get(jp)
        .i32(nv * 16)
        .i32Mul()
        .i32Add()
        .get(ip)
        .i32(mr)
        .i32Mul()
        .get(ldc)
        .i32Mul()
        .i32Add()
        .set(cp);

      // Initial accumulators.
      f.get(flags)
        .i32(1)
        .i32And()
        .ifThen(
          () => {
            f.get(cp).set(crow);
            for (let r = 0; r < mr; r++) {
              for (let j = 0; j < nv; j++)
                f.get(crow)
                  .v128Load(16 * j)
                  .set(acc[r]![j]!);
              if (r + 1 < mr) f.addTo(crow, ldc);
            }
          },
          () => {
            f.get(bias).ifThen(
              () => {
                // crow reused as the bias row pointer.
                f.get(bias)
                  .get(ip)
                  .i32(mr * 4)
                  .i32Mul()
                  .i32Add()
                  .set(crow);
                for (let r = 0; r < mr; r++) {
                  f.get(crow)
                    .v128Load32Splat(4 * r)
                    .set(acc[r]![0]!);
                  for (let j = 1; j < nv; j++) f.get(acc[r]![0]!).set(acc[r]![j]!);
                }
              },
              () => {
                for (let r = 0; r < mr; r++) for (let j = 0; j < nv; j++) f.v128Zero().set(acc[r]![j]!);
              },
            );
          },
        );

      f.forRange(k, kc, () => {
        if (bRows === "table") {
          f.get(bPanel).get(tp).i32Load().i32Add().set(bp);
          f.addTo(tp, 4);
        }
        for (let j = 0; j < nv; j++)
          f.get(bp)
            .v128Load(16 * j)
            .set(bv[j]!);
        for (let r = 0; r < mr; r++) {
          loadA(r);
          f.set(av);
          for (let j = 0; j < nv; j++) {
            f.get(acc[r]![j]!).get(av).get(bv[j]!).f32x4Mul().f32x4Add().set(acc[r]![j]!);
          }
        }
        f.addTo(ap, aStepK);
        if (bRows === "strided") f.addTo(bp, bStepK);
      });

      f.get(flags)
        .i32(4)
        .i32And()
        .ifThen(() => {
          // crow reused as the row pointer into scale, then shift.
          f.get(scale).ifThen(() => {
            f.get(scale)
              .get(ip)
              .i32(mr * 4)
              .i32Mul()
              .i32Add()
              .set(crow);
            for (let r = 0; r < mr; r++) {
              f.get(crow)
                .v128Load32Splat(4 * r)
                .set(av);
              for (let j = 0; j < nv; j++) f.get(acc[r]![j]!).get(av).f32x4Mul().set(acc[r]![j]!);
            }
          });
          f.get(shift).ifThen(() => {
            f.get(shift)
              .get(ip)
              .i32(mr * 4)
              .i32Mul()
              .i32Add()
              .set(crow);
            for (let r = 0; r < mr; r++) {
              f.get(crow)
                .v128Load32Splat(4 * r)
                .set(av);
              for (let j = 0; j < nv; j++) f.get(acc[r]![j]!).get(av).f32x4Add().set(acc[r]![j]!);
            }
          });
        });

      f.get(flags)
        .i32(2)
        .i32And()
        .ifThen(() => {
          f.v128Zero().set(av);
          for (let r = 0; r < mr; r++) {
            for (let j = 0; j < nv; j++) f.get(acc[r]![j]!).get(av).f32x4Max().set(acc[r]![j]!);
          }
        });

      f.get(cp).set(crow);
      for (let r = 0; r < mr; r++) {
        for (let j = 0; j < nv; j++)
          f.get(crow)
            .get(acc[r]![j]!)
            .v128Store(16 * j);
        if (r + 1 < mr) f.addTo(crow, ldc);
      }
    });
  });
  return f;
}
