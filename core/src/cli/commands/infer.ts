// `onnxtxt infer IN OUT` and `onnxtxt infer --out-dir DIR IN...`: writes each model with a
// value_info for every intermediate value and the types of its graph outputs filled in.
import * as fs from "node:fs";
import * as path from "node:path";
import { inferModel, withInferredTypes } from "../../infer/index.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import { batchOutputs } from "../batch.js";
import { refuseDroppingComments } from "../comment-guard.js";
import type { Command, Output } from "../command.js";
import { diagnosticLines } from "../diagnostic-lines.js";
import { FileError } from "../files.js";
import { loadModel, requireFormat, saveModel } from "../model-files.js";
import { progress } from "../progress.js";
import { reportFileError } from "../report.js";

const USAGE = `usage: onnxtxt infer [--drop-comments] IN OUT
       onnxtxt infer [--drop-comments] --out-dir DIR IN...

Infers the type and shape of every value and writes the model with a value_info
for each intermediate value and typed graph outputs. The output format follows
OUT's extension; the batch form writes DIR/<stem> with the input's extension.
Contradictions found on the way are printed; the exit code is then 1. Text written
from a text input would lose its ordinary comments: that is refused unless
--drop-comments is given.`;

/** Returns true when inference found errors in the input. */
function inferOne(input: string, output: string, io: Output, dropComments: boolean): boolean {
  requireFormat(output);
  refuseDroppingComments(input, output, dropComments);
  const model = loadModel(input, (report) => io.err(report));
  const result = inferModel(model);
  saveModel(output, withInferredTypes(model, result));
  io.err(diagnosticLines(input, undefined, result.diagnostics));
  return result.diagnostics.some((d) => d.severity === "error");
}

function runBatch(inputs: readonly string[], outDir: string, io: Output, dropComments: boolean): number {
  const outputs = batchOutputs(inputs, outDir, "").map((o, i) => o + path.extname(inputs[i]!));
  const bar = progress(io, inputs.length, "inferring");
  let code = 0;
  for (let i = 0; i < inputs.length; i++) {
    bar.tick(inputs[i]!);
    try {
      requireFormat(inputs[i]!);
      fs.mkdirSync(path.dirname(outputs[i]!), { recursive: true });
      if (inferOne(inputs[i]!, outputs[i]!, io, dropComments)) code = Math.max(code, 1);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      bar.done();
      reportFileError(io, e);
      code = 2;
    }
  }
  bar.done();
  return code;
}

export const inferCommand: Command = {
  name: "infer",
  summary: "write models with the inferred type of every value",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { "out-dir": { value: true }, "drop-comments": {} });
    const dropComments = hasFlag(args, "drop-comments");
    const outDir = flag(args, "out-dir");
    if (outDir !== undefined) {
      if (args.positional.length === 0) throw new UsageError("no input files");
      return runBatch(args.positional, outDir, io, dropComments);
    }
    if (args.positional.length !== 2) throw new UsageError("expected IN and OUT");
    return inferOne(args.positional[0]!, args.positional[1]!, io, dropComments) ? 1 : 0;
  },
};
