// `onnxtxt print IN` writes a model as text to stdout, in the canonical layout, losing
// nothing (see docs/syntax.md for the extension comments).
import * as path from "node:path";
import { flag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { loadModel, textOf } from "../model-files.js";
import { parseSize } from "../size.js";

const USAGE = `usage: onnxtxt print [--external-data SIZE] IN

Writes the model IN (.onnx or .onnxtxt) as text to stdout. With --external-data SIZE,
each tensor with more than SIZE bytes (e.g. 1024, 64k, 1M) goes to the sidecar file
<stem>.onnxtxt.data in the current folder, referenced with the external-data syntax.`;

export const printCommand: Command = {
  name: "print",
  summary: "write a model as text to stdout",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { "external-data": { value: true } });
    if (args.positional.length !== 1) throw new UsageError("expected one input file");
    const input = args.positional[0]!;
    const size = flag(args, "external-data");
    const model = loadModel(input);
    const stem = path.basename(input, path.extname(input));
    io.out(textOf(`${stem}.onnxtxt`, model, size === undefined ? {} : { externalData: parseSize(size) }));
    return 0;
  },
};
