// Output paths for batch commands (`--out-dir DIR IN...`). Each output mirrors its input's
// place relative to the folder all inputs share, so inputs from one folder land directly
// in DIR as <stem>.<ext>, and same-named files from different folders stay apart.
import * as path from "node:path";
import { UsageError } from "./args.js";

function commonDir(dirs: readonly string[]): string {
  let common = dirs[0]!.split(path.sep);
  for (const d of dirs.slice(1)) {
    const parts = d.split(path.sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(path.sep) || path.sep;
}

function stemOf(file: string): string {
  const base = path.basename(file);
  const ext = path.extname(base);
  return ext ? base.slice(0, -ext.length) : base;
}

/** Maps each input to DIR/<relative folder>/<stem><ext>; two inputs with one output is a usage error. */
export function batchOutputs(inputs: readonly string[], outDir: string, ext: string): string[] {
  if (inputs.length === 0) return [];
  const abs = inputs.map((f) => path.resolve(f));
  const root = commonDir(abs.map((f) => path.dirname(f)));
  const seen = new Map<string, string>();
  return abs.map((f, i) => {
    const out = path.join(outDir, path.relative(root, path.dirname(f)), stemOf(f) + ext);
    const other = seen.get(out);
    if (other !== undefined) {
      throw new UsageError(`'${other}' and '${inputs[i]}' share the stem '${stemOf(f)}': both would be written to '${out}'`);
    }
    seen.set(out, inputs[i]!);
    return out;
  });
}
