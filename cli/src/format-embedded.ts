// `onnxtxt format` on a host file: every ONNX text it holds, formatted in place.
import { formatEmbedded, type HostLanguage } from "../../core/src/embedded/index.js";
import { printDiagnostics } from "./pretty.js";
import { formatDiff } from "./format-diff.js";
import { readText } from "../../core/src/io/files.js";
import { writeOutput } from "../../core/src/io/write-output.js";
import type { Output } from "./command.js";

/**
 * Formats the file's texts: to stdout, in place (`write`) or only reporting (`check`). As for
 * .onnxtxt files, a text with errors leaves the whole file untouched; one its literal cannot
 * hold gets a note. Returns 1 when the file has errors or (with `check`) is not formatted.
 */
/** `width`: the configured line width (line-width), when there is one. */
export function formatHostFile(
  file: string,
  language: HostLanguage,
  mode: { write: boolean; check: boolean; diff?: boolean },
  io: Output,
  width?: number,
): number {
  const text = readText(file);
  const r = formatEmbedded(text, language, width !== undefined ? { width } : {});
  let status = 0;
  for (const refused of r.refused) {
    if (refused.diagnostics.length > 0) {
      printDiagnostics(io, file, text, refused.diagnostics);
      status = 1;
    } else {
      const at = refused.region.literal.span.start;
      printDiagnostics(io, file, text, [
        { severity: "info", code: "format", message: `ONNX text ${refused.region.index + 1} left as it is: ${refused.reason}`, span: { start: at, end: at } },
      ]);
    }
  }
  if (status > 0) return status;
  if (mode.check) {
    if (r.text !== text) {
      io.err(`${file}: not formatted (${r.changed} ONNX text${r.changed === 1 ? "" : "s"})\n`);
      if (mode.diff) io.out(formatDiff(file, text, r.text));
      status = 1;
    }
  } else if (mode.write) {
    if (r.text !== text) writeOutput(file, r.text);
  } else io.out(r.text);
  return status;
}
