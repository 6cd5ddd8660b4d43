// `check --fix`: rewrites an ONNX text file with its applicable quick fixes before it is checked,
// and says what it changed, one `FILE:LINE:COL: fixed CODE: WHAT` line each on stderr. Only the
// diagnostics `check` itself reports (after the configuration, suppressions, --ignore and
// --severity) get their fixes applied: `reported` is that same filter.
import { fixAll, type FixOptions } from "../../core/src/ide/fix-all.js";
import { readBytes } from "../../core/src/io/files.js";
import { writeOutput } from "../../core/src/io/write-output.js";
import { sniffModel } from "../../core/src/node/sniff.js";
import type { Output } from "./command.js";
import { hostLanguageOf } from "./embedded-input.js";
import { formatOf } from "./model-files.js";

/** Fixes `file` in place (atomically) when it is ONNX text; returns how many fixes were applied. */
export function fixFile(file: string, unsafe: boolean, reported: FixOptions["reported"], io: Output): number {
  if (hostLanguageOf(file)) {
    io.err(`onnxtxt: ${file}: note: --fix changes .onnxtxt files only; the ONNX texts in this file are checked as they are\n`);
    return 0;
  }
  const bytes = readBytes(file);
  const sniffed = sniffModel(bytes, formatOf(file));
  if (sniffed.format !== "onnxtxt" || sniffed.textproto) {
    io.err(`onnxtxt: ${file}: note: --fix changes .onnxtxt files only; this one is checked as it is\n`);
    return 0;
  }
  const text = new TextDecoder("utf-8").decode(bytes);
  const r = fixAll(text, { unsafe, ...(reported && { reported }) });
  for (const f of r.applied) io.err(`${file}:${f.line}:${f.column}: fixed${f.code ? ` ${f.code}` : ""}: ${f.title}\n`);
  if (r.text !== text) writeOutput(file, r.text);
  return r.applied.length;
}
