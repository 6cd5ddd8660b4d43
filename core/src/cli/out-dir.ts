// Output folders (`--out-dir`, `--output-dir`): created when missing; a path that exists and is
// not a folder is a clear error before anything is written.
import * as fs from "node:fs";
import { FileError } from "./files.js";

export function ensureDir(dir: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isDirectory()) throw new FileError(dir, "exists and is not a directory; give a folder to write into");
  if (stat) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "EEXIST" || code === "ENOTDIR" ? "a part of this path is a file, not a folder" : code === "EACCES" || code === "EPERM" ? "permission denied" : "cannot create the folder";
    throw new FileError(dir, why);
  }
}
