// One sidecar file for a written model: the tensors --external-data moved out, plus the
// external data a model brought from another folder (copied, so the written model is complete
// where it lands). File access is injected; the caller names and writes the file.
import { clone, create } from "@bufbuild/protobuf";
import { ModelProtoSchema, StringStringEntryProtoSchema, type ModelProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { externalRef, isExternal, resolveExternalPath, type RangeReader } from "../io/external-data.js";
import { walkModel } from "../walk.js";
import { externalize } from "./externalize.js";

/** Stands for the sidecar's name until its content (and so its name) is known. */
const PLACEHOLDER = "\u0000sidecar";

export interface Sidecar {
  /** The model, whose external tensors point at the sidecar under the placeholder name. */
  readonly model: ModelProto;
  /** The sidecar's content, in pieces (empty: no sidecar is needed). */
  readonly chunks: readonly Uint8Array[];
  readonly size: number;
}

interface SidecarOptions {
  /** Move inline tensors with more bytes than this out (text output's --external-data). */
  readonly threshold?: number;
  /** Copy the model's existing external data, read from `fromDir`, into the sidecar. */
  readonly relocate?: { readonly fromDir: string; readonly read: RangeReader };
}

/** Builds the sidecar for `model`; returns the model unchanged (and no chunks) when none is needed. */
export function buildSidecar(model: ModelProto, opts: SidecarOptions): Sidecar {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let out = model;
  if (opts.threshold !== undefined) {
    const moved = externalize(model, opts.threshold, PLACEHOLDER);
    out = moved.model;
    if (moved.data.length > 0) chunks.push(moved.data);
    size = moved.data.length;
  }
  const relocate = opts.relocate;
  if (!relocate) return { model: out, chunks, size };
  if (out === model) out = clone(ModelProtoSchema, model);
  walkModel(out, {
    tensor(t) {
      if (!isExternal(t)) return;
      const ref = externalRef(t);
      if (ref.location === PLACEHOLDER) return;
      const bytes = relocate.read(resolveExternalPath(relocate.fromDir, ref.location), ref.offset, ref.length);
      if (ref.length !== undefined && bytes.length !== ref.length) {
        throw new OnnxtxtError(`tensor '${t.name}': external file '${ref.location}' holds ${bytes.length} of ${ref.length} bytes`);
      }
      // Keep offsets aligned so the file can be memory-mapped.
      const pad = (64 - (size % 64)) % 64;
      if (pad) chunks.push(new Uint8Array(pad));
      size += pad;
      const offset = size;
      chunks.push(bytes);
      size += bytes.length;
      // The checksum, if any, was of the old file.
      const kept = t.externalData.filter((e) => !["location", "offset", "length", "checksum"].includes(e.key));
      t.externalData = [
        create(StringStringEntryProtoSchema, { key: "location", value: PLACEHOLDER }),
        create(StringStringEntryProtoSchema, { key: "offset", value: String(offset) }),
        create(StringStringEntryProtoSchema, { key: "length", value: String(bytes.length) }),
        ...kept,
      ];
    },
  });
  return { model: out, chunks, size };
}

/** Gives the sidecar its final name in the model's external-data entries. */
export function nameSidecar(model: ModelProto, location: string): void {
  walkModel(model, {
    tensor(t) {
      for (const e of t.externalData) if (e.key === "location" && e.value === PLACEHOLDER) e.value = location;
    },
  });
}

/** True when some tensor of `model` keeps its data in an external file. */
export function hasExternalData(model: ModelProto): boolean {
  let found = false;
  walkModel(model, {
    tensor(t) {
      if (isExternal(t)) found = true;
    },
  });
  return found;
}
