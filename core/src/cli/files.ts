// File IO for the CLI. Outputs go to a temporary file beside the target and are renamed
// into place, so a failed run never leaves a half-written file.
import * as fs from "node:fs";
import * as path from "node:path";
import type { RangeReader } from "../io/index.js";

/** An error tied to a path: printed as `onnxtxt: PATH: message`. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

function ioMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "ENOTDIR":
      return "a parent of this path is not a directory";
    case "ENOSPC":
      return "no space left on device";
    default:
      return err instanceof Error ? err.message : String(e);
  }
}

/** The bytes of `file`; `-` is stdin. */
export function readBytes(file: string): Uint8Array {
  try {
    return fs.readFileSync(file === "-" ? 0 : file);
  } catch (e) {
    throw new FileError(file, ioMessage(e));
  }
}

export function readText(file: string): string {
  return new TextDecoder("utf-8").decode(readBytes(file));
}

let tempCounter = 0;

/** Writes `data` to `file` atomically: a temp file in the same folder, then a rename. */
export function writeAtomic(file: string, data: Uint8Array | string): void {
  const dir = path.dirname(path.resolve(file));
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${tempCounter++}.tmp`);
  try {
    fs.writeFileSync(temp, data);
    fs.renameSync(temp, file);
  } catch (e) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // the temp file may not exist; nothing else to clean
    }
    throw new FileError(file, ioMessage(e));
  }
}

export const readRange: RangeReader = (absPath, offset, length) => {
  let fd: number | undefined;
  try {
    fd = fs.openSync(absPath, "r");
    const size = fs.fstatSync(fd).size;
    if (offset > size) throw new FileError(absPath, `offset ${offset} is past the end of the file (${size} bytes)`);
    const n = length ?? size - offset;
    if (offset + n > size) throw new FileError(absPath, `${n} bytes at offset ${offset} run past the end of the file (${size} bytes)`);
    const buf = Buffer.alloc(n);
    fs.readSync(fd, buf, 0, n, offset);
    return buf;
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(absPath, ioMessage(e));
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
};

/**
 * A RangeReader for external data of a model in `baseDir`: the path is already checked to be
 * inside the folder as written; this also refuses a symbolic link that leads out of it.
 */
export function readRangeWithin(baseDir: string): RangeReader {
  return (absPath, offset, length) => {
    let real: string;
    let realBase: string;
    try {
      real = fs.realpathSync(absPath);
      realBase = fs.realpathSync(baseDir);
    } catch (e) {
      throw new FileError(absPath, ioMessage(e));
    }
    const rel = path.relative(realBase, real);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
      throw new FileError(absPath, "external data is a link to a file outside the model's folder");
    }
    return readRange(real, offset, length);
  };
}
