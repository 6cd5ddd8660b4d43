// Residual data applied onto values the visible text wrote: NaN bit patterns, denotations, and
// the absence of fields in visible list entries. Each yields to the text where it no longer fits.
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { TensorProtoSchema, type TensorProto, type ValueInfoProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { clearByName } from "./fields.js";
import { setNanBits } from "../io/nan-bits.js";
import { rawField } from "./raw-data.js";

/** Applies `@nan` where the visible element is a NaN; returns the indices where it is not. */
export function applyNan(t: TensorProto, bits: JsonValue, raw: boolean): number[] {
  if (typeof bits !== "object" || bits === null || Array.isArray(bits)) throw new OnnxtxtError("@nan must map element indices to hex bit patterns");
  const wide = rawField(t.dataType) === "doubleData";
  const dv = raw ? new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength) : undefined;
  const skipped: number[] = [];
  for (const [k, v] of Object.entries(bits)) {
    const i = Number(k);
    if (typeof v !== "string" || !/^[0-9a-f]+$/i.test(v)) throw new OnnxtxtError(`@nan: '${String(v)}' is not a hex bit pattern`);
    const visible = dv
      ? i * (wide ? 8 : 4) + (wide ? 8 : 4) <= dv.byteLength
        ? wide
          ? dv.getFloat64(i * 8, true)
          : dv.getFloat32(i * 4, true)
        : 0
      : wide
        ? t.doubleData[i]
        : t.floatData[i];
    if (!Number.isInteger(i) || visible === undefined || visible === visible) {
      skipped.push(i);
      continue;
    }
    if (dv) {
      if (wide) dv.setBigUint64(i * 8, BigInt("0x" + v), true);
      else dv.setUint32(i * 4, Number.parseInt(v, 16), true);
    } else if (wide) {
      t.doubleData[i] = Number.NaN;
      setNanBits(t, TensorProtoSchema.field.doubleData.number, i, BigInt("0x" + v));
    } else {
      t.floatData[i] = Number.NaN;
      setNanBits(t, TensorProtoSchema.field.floatData.number, i, Number.parseInt(v, 16));
    }
  }
  return skipped;
}

/**
 * `{"INDEX": ["field", ...]}`: entries of a visible list whose fields were absent (the text
 * writes them as `""` or `0`). Only presence changes; the visible values stay.
 */
export function clearUnset<Desc extends DescMessage>(list: MessageShape<Desc>[], schema: Desc, unset: JsonValue | undefined): string[] {
  if (unset === undefined) return [];
  if (typeof unset !== "object" || unset === null || Array.isArray(unset)) throw new OnnxtxtError("an '@..._unset' entry maps list indices to field names");
  const stale: string[] = [];
  for (const [k, fields] of Object.entries(unset)) {
    const e = list[Number(k)];
    if (!Array.isArray(fields)) throw new OnnxtxtError(`'@..._unset': entry ${k} must list field names`);
    if (!e) stale.push(`'${schema.name}' entry ${k}, which the visible list no longer has`);
    else for (const f of fields) clearByName(schema, e, String(f));
  }
  return stale;
}

/** `{"type": D, "dims": {"INDEX": D}}` onto the visible tensor type (dims it no longer has are skipped). */
export function applyDenotations(v: ValueInfoProto, data: JsonValue): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new OnnxtxtError('\'@denotation\' is {"type": ..., "dims": {...}}');
  if (!v.type) return;
  if (typeof data["type"] === "string") v.type.denotation = data["type"];
  const dims = data["dims"];
  const shape = v.type.value.case === "tensorType" ? v.type.value.value.shape : undefined;
  if (dims && typeof dims === "object" && !Array.isArray(dims) && shape)
    for (const [i, d] of Object.entries(dims)) {
      const dim = shape.dim[Number(i)];
      if (dim && typeof d === "string") dim.denotation = d;
    }
}
