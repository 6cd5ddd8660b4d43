// `onnxtxt print IN` writes a model as text to stdout, in the canonical layout, losing
// nothing (see docs/syntax.md for the extension comments).
import * as path from "node:path";
import { flag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { writeAtomic } from "../files.js";
import { loadModel, textOf } from "../model-files.js";
import { parseSize } from "../size.js";
import { byteProgress } from "../progress.js";

const USAGE = `usage: onnxtxt print [--external-data SIZE] [-o OUT] IN

Writes the model IN (.onnx or .onnxtxt; - reads stdin) as text to stdout (also -o -),
or with -o/--output to the file OUT (written to a temporary file and renamed, so a
failure leaves no partial file). With --external-data SIZE, each tensor with more than SIZE bytes (e.g. 1024, 64k, 1M) goes to a
sidecar file referenced with the external-data syntax: OUT.data beside OUT, or
<stem>.onnxtxt.data in the current folder when printing to stdout.`;

export const printCommand: Command = {
  name: "print",
  summary: "write a model as text to stdout",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { "external-data": { value: true }, output: { value: true, short: "o" } });
    if (args.positional.length !== 1) throw new UsageError("expected one input file");
    const input = args.positional[0]!;
    const size = flag(args, "external-data");
    const model = loadModel(input, (m) => io.err(m));
    const opts = size === undefined ? {} : { externalData: parseSize(size) };
    const output = flag(args, "output");
    if (output !== undefined && output !== "-") {
      writeAtomic(output, textOf(output, model, opts));
      return 0;
    }
    const stem = input === "-" ? "stdin" : path.basename(input, path.extname(input));
    if (io.outSync && !io.outIsTerminal) {
      // streamed: the text of a big model is never whole in memory
      const bar = byteProgress(io, "printing");
      const outSync = io.outSync;
      textOf(`${stem}.onnxtxt`, model, opts, (bytes) => {
        outSync(bytes);
        bar.add(bytes.length);
      });
      bar.done();
      return 0;
    }
    io.out(textOf(`${stem}.onnxtxt`, model, opts));
    return 0;
  },
};
