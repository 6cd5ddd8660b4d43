// The shared end of the generator scripts: write the generated file, or with `--check` only
// compare it (exit code 1 when the committed file is stale).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Writes `text` to `file`, or with `--check` in argv compares; returns the exit code. */
export function writeOrCheck(argv: readonly string[], file: string, text: string, regenerate: string): number {
  const name = path.relative(REPO, file);
  if (argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current === text) return 0;
    process.stderr.write(`${name} is stale: run ${regenerate}\n`);
    return 1;
  }
  fs.writeFileSync(file, text);
  process.stdout.write(`wrote ${name}\n`);
  return 0;
}
