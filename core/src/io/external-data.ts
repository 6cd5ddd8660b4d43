// External tensor data: where a tensor's bytes live outside the model file. The paths are
// relative to the model's folder and may not leave it. File access is injected so that
// the core itself does no IO.
import { clearField } from "@bufbuild/protobuf";
import { TensorProtoSchema, TensorProto_DataLocation, type ModelProto, type TensorProto } from "../../../proto/src/index.js";
import { walkModel } from "../walk.js";
import { OnnxtxtError } from "./errors.js";

interface ExternalRef {
  location: string;
  offset: number;
  /** Undefined means "to the end of the file". */
  length: number | undefined;
}

export function isExternal(t: TensorProto): boolean {
  return t.dataLocation === TensorProto_DataLocation.EXTERNAL;
}

function parseCount(key: string, value: string, tensor: string): number {
  if (!/^\d+$/.test(value)) throw new OnnxtxtError(`tensor '${tensor}': external data ${key} '${value}' is not a number`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new OnnxtxtError(`tensor '${tensor}': external data ${key} ${value} is too large`);
  return n;
}

export function externalRef(t: TensorProto): ExternalRef {
  let location: string | undefined;
  let offset = 0;
  let length: number | undefined;
  for (const { key, value } of t.externalData) {
    if (key === "location") location = value;
    else if (key === "offset") offset = parseCount(key, value, t.name);
    else if (key === "length") length = parseCount(key, value, t.name);
  }
  if (location === undefined) throw new OnnxtxtError(`tensor '${t.name}': external data has no location`);
  return { location, offset, length };
}

/**
 * The path of an external data file: `location` below `baseDir`, refusing a location that is
 * absolute or leaves `baseDir`. Plain string work rather than node:path, so that the core runs
 * in a browser too; both `/` and `\\` separate segments, whatever the platform.
 */
export function resolveExternalPath(baseDir: string, location: string): string {
  if (location === "" || location.includes("\0") || /^([/\\]|[A-Za-z]:)/.test(location)) {
    throw new OnnxtxtError(`external data location '${location}' must be a relative path`);
  }
  const segments: string[] = [];
  for (const segment of location.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") segments.push(segment);
    else if (segments.pop() === undefined) throw new OnnxtxtError(`external data location '${location}' leaves the model's folder`);
  }
  if (segments.length === 0) throw new OnnxtxtError(`external data location '${location}' leaves the model's folder`);
  return `${baseDir.replace(/[/\\]+$/, "")}/${segments.join("/")}`;
}

/** Reads `length` bytes (or to the end when undefined) at `offset` of the file at `absPath`. */
export type RangeReader = (absPath: string, offset: number, length: number | undefined) => Uint8Array;

/** Throws when `length` bytes at `offset` of the file at `absPath` could not be read under the reader's rules. */
export type ExternalDataCheck = (absPath: string, offset: number, length: number | undefined) => void;

/** Checks every external reference of `model` with `check`, before another program reads the files. */
export function checkExternalData(model: ModelProto, baseDir: string, check: ExternalDataCheck): void {
  walkModel(model, {
    tensor(t) {
      if (!isExternal(t)) return;
      const ref = externalRef(t);
      check(resolveExternalPath(baseDir, ref.location), ref.offset, ref.length);
    },
  });
}

/** Moves every external tensor's bytes into raw_data, so the model stands alone. */
export function inlineExternalData(model: ModelProto, baseDir: string, read: RangeReader): void {
  walkModel(model, {
    tensor(t) {
      if (!isExternal(t)) return;
      const ref = externalRef(t);
      const bytes = read(resolveExternalPath(baseDir, ref.location), ref.offset, ref.length);
      if (ref.length !== undefined && bytes.length !== ref.length) {
        throw new OnnxtxtError(`tensor '${t.name}': external file '${ref.location}' holds ${bytes.length} of ${ref.length} bytes`);
      }
      t.rawData = bytes;
      t.externalData = [];
      clearField(t, TensorProtoSchema.field.dataLocation);
    },
  });
}
