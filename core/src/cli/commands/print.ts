// `onnxtxt print IN` writes a model as text to stdout, in the canonical layout, losing
// nothing (see docs/syntax.md for the extension comments).
import * as path from "node:path";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import { printModelPlain } from "../../print/print-model.js";
import type { Command } from "../command.js";
import { writeAtomic } from "../files.js";
import { about, loadModel, textOf } from "../model-files.js";
import { parseSize } from "../size.js";

const USAGE = `usage: onnxtxt print [--external-data SIZE | --plain] [-o OUT] IN

Writes the model IN (.onnx or .onnxtxt) as text to stdout, or with -o/--output to the file
OUT (written to a temporary file and renamed, so a failure leaves no partial file). With
--external-data SIZE, each tensor with more than SIZE bytes (e.g. 1024, 64k, 1M) goes to a
sidecar file referenced with the external-data syntax: OUT.data beside OUT, or
<stem>.onnxtxt.data in the current folder when printing to stdout. With --plain, the text has
no residual comments (#@...), only what the official syntax says, for reading and diffs; what
was left out is listed on stderr (converting that text back does not give the same binary).`;

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
    const args = parseArgs(argv, { "external-data": { value: true }, output: { value: true, short: "o" }, plain: {} });
    if (args.positional.length !== 1) throw new UsageError("expected one input file");
    const input = args.positional[0]!;
    const size = flag(args, "external-data");
    const plain = hasFlag(args, "plain");
    if (plain && size !== undefined) throw new UsageError("--plain and --external-data do not go together (the plain text has no residual to bring the data back)");
    const model = loadModel(input, (report) => io.err(report));
    if (plain) {
      const r = about(input, () => printModelPlain(model));
      const output = flag(args, "output");
      if (output !== undefined) writeAtomic(output, r.text);
      else io.out(r.text);
      io.err(droppedNote(input, r.dropped));
      return 0;
    }
    const opts = size === undefined ? {} : { externalData: parseSize(size) };
    const output = flag(args, "output");
    if (output !== undefined) {
      writeAtomic(output, textOf(output, model, opts));
      return 0;
    }
    const stem = path.basename(input, path.extname(input));
    io.out(textOf(`${stem}.onnxtxt`, model, opts));
    return 0;
  },
};
