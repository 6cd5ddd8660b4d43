// File IO for the CLI: reading whole files, creating output folders, errors tied to a path.
// Writing is in write-output.ts; external data and input files in data-files.ts.
import * as fs from "node:fs";
import * as path from "node:path";

/** An error tied to a path: printed as `onnxtxt: PATH: message`. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

export function ioMessage(e: unknown): string {
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
    case "EFBIG":
      return "file too large (the file size limit was reached)";
    case "EROFS":
      return "read-only file system";
    case "EEXIST":
      return "already exists";
    case "ENXIO":
      return "no process is reading this pipe, or the device is absent";
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

/** Older callers' name for writeOutput (see write-output.ts). */

/**
 * Creates `dir` and its missing parents, one level at a time. (Node's recursive mkdir loops
 * for ever where mkdir fails with ENOENT although the parent exists, as under /proc.)
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = path.resolve(dir); ; ) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new FileError(p, ioMessage(e));
    }
    if (st) {
      if (!st.isDirectory()) throw new FileError(p === path.resolve(dir) ? dir : p, "exists and is not a directory; give a folder to write into");
      break;
    }
    missing.push(p);
    const parent = path.dirname(p);
    if (parent === p) break;
    p = parent;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST" && fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) continue;
      const why = code === "ENOENT" ? "the file system refuses to create it here" : ioMessage(e);
      throw new FileError(d, `cannot create this folder: ${why}`);
    }
  }
}
