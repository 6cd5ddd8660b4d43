// An output that is one of the inputs under another name (a symbolic link, a hard link, `./m`
// for `m`) would be written over the model being read: refused, as cp refuses
// "'a' and 'b' are the same file". Files are compared by device and inode, after links.
import * as fs from "node:fs";
import { FileError } from "../../core/src/io/files.js";

function identity(file: string): string | undefined {
  if (file === "-") return undefined;
  const st = fs.statSync(file, { throwIfNoEntry: false });
  // a device or pipe (/dev/null, /dev/stdout) is no file to protect
  return st?.isFile() ? `${st.dev}:${st.ino}` : undefined;
}

/** Throws a FileError when `output` is the same file as one of `inputs`. */
export function refuseOverInput(output: string, inputs: readonly string[]): void {
  const out = identity(output);
  if (out === undefined) return;
  for (const input of inputs) {
    if (identity(input) === out)
      throw new FileError(output, `is the same file as the input '${input}'${output === input ? "" : " (a link to it)"}; not writing over it`);
  }
}
