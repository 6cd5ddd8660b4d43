// How many values a tensor stores against how many its shape needs, in the unit its storage
// counts (values, bytes of raw_data, packed bytes). Used by the checker and by lowering once the
// residual comments have filled a tensor the text wrote as `{}`.
import { dataTypeInfo, rawByteLength, TensorProto_DataLocation, TensorProto_DataType as DT, type TensorProto } from "../../proto/src/index.js";

/** What the tensor stores and how many it must store (in `unit`); undefined when not checkable here. */
function storedAndExpected(t: TensorProto): { stored: number; expected: number; unit: string } | undefined {
  if (t.dataLocation === TensorProto_DataLocation.EXTERNAL || t.externalData.length > 0 || t.segment) return undefined;
  const info = dataTypeInfo(t.dataType);
  if (!info) return undefined;
  let count = 1;
  for (const d of t.dims) count *= Number(d);
  if (!Number.isSafeInteger(count) || count < 0) return undefined;
  if (t.rawData.length > 0) {
    const bytes = rawByteLength(t.dataType, count);
    return bytes === undefined ? undefined : { stored: t.rawData.length, expected: bytes, unit: "bytes" };
  }
  const stored = t[info.storage].length;
  // Types narrower than a byte are stored packed, one byte per stored int32.
  if (info.bits > 0 && info.bits < 8) return { stored, expected: rawByteLength(t.dataType, count)!, unit: "packed bytes" };
  const complex = t.dataType === DT.COMPLEX64 || t.dataType === DT.COMPLEX128 ? 2 : 1;
  return { stored, expected: count * complex, unit: "values" };
}

/** What is wrong with the number of values `t` stores, if anything (external data is not read). */
export function elementCountProblem(t: TensorProto): string | undefined {
  const r = storedAndExpected(t);
  if (!r || r.stored === r.expected) return undefined;
  return `tensor${t.name ? ` '${t.name}'` : ""} of shape [${t.dims.join(",")}] needs ${r.expected} ${r.unit} but holds ${r.stored}`;
}
