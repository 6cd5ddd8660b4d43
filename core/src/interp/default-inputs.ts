// Values for graph inputs the caller did not give, so any model runs with no setup:
// symbolic and negative dims become 1 (or what `dims` says), floats are uniform in [-1, 1), integers
// uniform in [0, 4), bools random, strings "a"; sequences hold one such tensor and
// optionals are empty. All from a seeded generator, so runs repeat exactly.
import type { TypeProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/index.js";
import { Rng } from "./rng.js";
import { DT, encodeElement, isFloatType, sizeOf, tensor, type Value } from "./value.js";

export function defaultValue(type: TypeProto | undefined, dims: ReadonlyMap<string, number>, rng: Rng, name: string): Value {
  switch (type?.value.case) {
    case "tensorType": {
      const tt = type.value.value;
      const shape = (tt.shape?.dim ?? []).map((d) => {
        // a negative size (`float[-1]`) is unknown, as onnxruntime reads it: like `?`
        if (d.value.case === "dimValue") return d.value.value >= 0n ? Number(d.value.value) : 1;
        if (d.value.case === "dimParam") return dims.get(d.value.value) ?? 1;
        return 1;
      });
      return randomTensor(tt.elemType, shape, rng);
    }
    case "sequenceType": {
      const elem = type.value.value.elemType;
      return { kind: "sequence", items: [defaultValue(elem, dims, rng, name)] };
    }
    case "optionalType":
      return { kind: "optional", value: undefined };
    default:
      throw new OnnxtxtError(`input '${name}' has no tensor type; give it with --input`);
  }
}

function randomTensor(dtype: number, dims: readonly number[], rng: Rng): Value {
  const t = tensor(dtype, dims);
  const n = sizeOf(dims);
  const d = t.data as unknown as (number | bigint | string)[];
  for (let i = 0; i < n; i++) {
    if (dtype === DT.STRING) d[i] = "a";
    else if (dtype === DT.BOOL) d[i] = rng.next() < 0.5 ? 1 : 0;
    else if (isFloatType(dtype) || dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128) d[i] = encodeElement(dtype, rng.next() * 2 - 1);
    else d[i] = encodeElement(dtype, Math.floor(rng.next() * 4));
  }
  if (dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128) {
    for (let i = n; i < 2 * n; i++) d[i] = rng.next() * 2 - 1;
  }
  return t;
}
