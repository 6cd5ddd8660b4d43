// `onnxtxt print IN` writes a model as text to stdout, in the canonical layout, losing
// nothing (see docs/syntax.md for the extension comments).
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { about, loadModel, modelDir, printWithProgress, textToStdout, writeModel } from "../model-files.js";
import { regionModel, regionNumber } from "../embedded-input.js";
import { printModel, printModelPlain } from "../../../core/src/print-model.js";
import { writeOutput } from "../../../core/src/io/write-output.js";
import { parseSize } from "../size.js";
import { byteProgress } from "../progress.js";
import { refuseOverInput } from "../same-file.js";

const USAGE = `usage: onnxtxt print [--external-data SIZE | --plain] [-o OUT] IN

Writes the model IN (.onnx or .onnxtxt; - reads stdin) as text to stdout (also -o -), or
with -o/--output to the file OUT (written to a temporary file and renamed, so a failure leaves
no partial file). With --external-data SIZE (which needs -o), each tensor with more than SIZE
bytes (e.g. 1024, 64k, 1M) goes to a sidecar file referenced with the external-data syntax,
OUT.<hash>.data beside OUT. External data of IN is copied beside OUT when OUT is in another folder.
With --plain, the text has no residual comments (#@...), only what the official syntax says,
for reading and diffs; what was left out is listed on stderr (converting that text back does
not give the same binary), unless --quiet is given (as git's textconv is).
--region N prints the Nth ONNX text of a Python, C/C++, Markdown or JavaScript file (from 1)
as a model: a graph, function or node list inside the model onnxtxt reads it in (docs/embedded.md);
a file without region N lists the regions it has.`;

/** The stderr note for --plain: what the residuals would have kept. */
function droppedNote(input: string, dropped: ReadonlyMap<string, number>): string {
  if (dropped.size === 0) return "";
  const items = [...dropped].map(([what, n]) => `${what}${n > 1 ? ` (${n} elements)` : ""}`).join("; ");
  return `onnxtxt: ${input}: --plain left out what only residual comments say: ${items}\n`;
}

export const printCommand: Command = {
  name: "print",
  summary: "write a model as text to stdout",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { "external-data": { value: true }, output: { value: true, short: "o" }, plain: {}, quiet: {}, region: { value: true } });
    if (args.positional.length !== 1) throw new UsageError("expected one input file");
    const input = args.positional[0]!;
    const size = flag(args, "external-data");
    const plain = hasFlag(args, "plain");
    if (plain && size !== undefined)
      throw new UsageError("--plain and --external-data do not go together (the plain text has no residual to bring the data back)");
    const output = flag(args, "output");
    const stdout = output === undefined || output === "-";
    const externalData = size === undefined ? undefined : parseSize(size);
    if (externalData !== undefined && stdout) throw new UsageError("--external-data needs -o OUT: the sidecar file is written beside it");
    if (!stdout) refuseOverInput(output, [input]);
    const region = flag(args, "region");
    const model = region === undefined ? loadModel(input, (m) => io.err(m)) : regionModel(input, regionNumber(region)).model;
    if (plain) {
      let dropped: ReadonlyMap<string, number> = new Map();
      const print = (write: (bytes: Uint8Array) => void): void => {
        dropped = about(input, () => printModelPlain(model, { write })).dropped;
      };
      if (stdout) textToStdout(io, print);
      else {
        const progress = byteProgress(io, "printing");
        writeOutput(output, (write) => printWithProgress(print, write, progress));
      }
      if (!hasFlag(args, "quiet")) io.err(droppedNote(input, dropped));
      return 0;
    }
    if (stdout) textToStdout(io, (write) => about(input, () => printModel(model, { write })));
    else
      writeModel(output, "onnxtxt", model, {
        ...(externalData !== undefined && { externalData }),
        sourceDir: modelDir(input),
        progress: byteProgress(io, "printing"),
      });
    return 0;
  },
};
