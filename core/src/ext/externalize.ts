// `--external-data SIZE`: moves each tensor with more than SIZE bytes of data into one sidecar
// file, referenced with the official external-data syntax. A `#@tensor {"@external": ...}`
// extension remembers the tensor's storage, so reading the text back restores it inline.
import { clearField, clone, create } from "@bufbuild/protobuf";
import {
  ModelProtoSchema,
  StringStringEntryProtoSchema,
  TensorProto_DataLocation,
  TensorProtoSchema,
  type ModelProto,
  type StringStringEntryProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { externalRef, isExternal, resolveExternalPath, type RangeReader } from "../io/external-data.js";
import { walkModel } from "../walk.js";
import { copyNanBits, recordNans } from "../io/nan-bits.js";
import { rawField, rawToTyped, typedToRaw } from "./raw-data.js";

type Storage = "raw" | "typed";

/** Tensors that --external-data moved out, with the storage they had (read by raise). */
export const movedOut = new WeakMap<TensorProto, Storage>();
/** Tensors read from text that should be brought back inline (filled by apply-extensions). */
export const toBringBack = new WeakMap<TensorProto, Storage>();

function entry(key: string, value: string): StringStringEntryProto {
  return create(StringStringEntryProtoSchema, { key, value });
}

interface Externalized {
  readonly model: ModelProto;
  readonly data: Uint8Array;
}

/** A copy of `model` whose big tensors refer to `location`; `data` is that file's content. */
export function externalize(model: ModelProto, threshold: number, location: string): Externalized {
  const copy = clone(ModelProtoSchema, model);
  copyNanBits(ModelProtoSchema, model, copy);
  const chunks: Uint8Array[] = [];
  let offset = 0;
  walkModel(copy, {
    tensor(t) {
      if (isExternal(t) || !rawField(t.dataType)) return;
      const raw = t.rawData.length > 0;
      const bytes = raw ? t.rawData : typedToRaw(t);
      if (!bytes || bytes.length <= threshold) return;
      // Keep offsets aligned so the file can be memory-mapped.
      const pad = (64 - (offset % 64)) % 64;
      if (pad) chunks.push(new Uint8Array(pad));
      offset += pad;
      chunks.push(bytes);
      const field = rawField(t.dataType)!;
      t[field] = [];
      clearField(t, TensorProtoSchema.field.rawData);
      t.dataLocation = TensorProto_DataLocation.EXTERNAL;
      t.externalData = [entry("location", location), entry("offset", String(offset)), entry("length", String(bytes.length))];
      offset += bytes.length;
      movedOut.set(t, raw ? "raw" : "typed");
    },
  });
  const data = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return { model: copy, data };
}

/** Reads back the tensors marked by `@external`, in the storage they had before. */
export function bringBack(model: ModelProto, baseDir: string, read: RangeReader): void {
  walkModel(model, {
    tensor(t) {
      const storage = toBringBack.get(t);
      if (!storage) return;
      const ref = externalRef(t);
      const bytes = read(resolveExternalPath(baseDir, ref.location), ref.offset, ref.length);
      if (ref.length !== undefined && bytes.length !== ref.length) throw new OnnxtxtError(`tensor '${t.name}': '${ref.location}' is shorter than expected`);
      t.externalData = [];
      clearField(t, TensorProtoSchema.field.dataLocation);
      if (storage === "raw") t.rawData = bytes;
      else {
        const typed = rawToTyped(t.dataType, bytes);
        if (!typed) throw new OnnxtxtError(`tensor '${t.name}': external data does not fit its type`);
        (t as unknown as Record<string, unknown>)[typed.field] = typed.values;
        if (typed.field === "floatData" || typed.field === "doubleData")
          recordNans(t, TensorProtoSchema.field[typed.field].number, bytes, typed.field === "floatData" ? 4 : 8);
      }
    },
  });
}
