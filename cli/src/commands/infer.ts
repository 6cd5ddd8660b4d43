// `onnxtxt infer IN OUT` and `onnxtxt infer --out-dir DIR IN...`: writes each model with a
// value_info for every intermediate value and the types of its graph outputs filled in.
import * as path from "node:path";
import { inferModel, withInferredTypes } from "../../../core/src/infer/index.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import { batchOutputs } from "../batch.js";
import { refuseDroppingComments } from "../comment-guard.js";
import type { Command, Output } from "../command.js";
import { printDiagnostics } from "../pretty.js";
import { FileError, makeDirs } from "../../../core/src/io/files.js";
import { modelDir, readModel, requireFormat, saveModel, writeModelToStdout, type ModelFormat } from "../model-files.js";
import { progress } from "../progress.js";
import { reportFileError } from "../report.js";
import { yieldToSignals } from "../../../core/src/io/write-output.js";

const USAGE = `usage: onnxtxt infer [--drop-comments] [--to onnx|onnxtxt] IN OUT
       onnxtxt infer [--drop-comments] --out-dir DIR IN...

Infers the type and shape of every value and writes the model with a value_info
for each intermediate value and typed graph outputs. The output format follows
OUT's extension (OUT - writes stdout, in IN's format or --to's; IN - reads
stdin); the batch form writes DIR/<stem> with the input's extension.
Contradictions found on the way are printed; the exit code is then 1. Text written
from a text input would lose its ordinary comments: that is refused unless
--drop-comments is given.`;

/** Returns true when inference found errors in the input. */
function inferOne(input: string, output: string, io: Output, dropComments: boolean, to?: ModelFormat): boolean {
  const outFormat = output === "-" ? undefined : requireFormat(output);
  const loaded = readModel(input, (m) => io.err(m));
  refuseDroppingComments(input, loaded, outFormat ?? to ?? loaded.format, dropComments);
  const model = loaded.model;
  const result = inferModel(model);
  const typed = withInferredTypes(model, result);
  if (output === "-") writeModelToStdout(io, "stdout.onnxtxt", to ?? loaded.format, typed);
  else saveModel(output, typed, { sourceDir: modelDir(input) });
  printDiagnostics(io, input, undefined, result.diagnostics);
  return result.diagnostics.some((d) => d.severity === "error");
}

async function runBatch(inputs: readonly string[], outDir: string, io: Output, dropComments: boolean): Promise<number> {
  const outputs = batchOutputs(inputs, outDir, "").map((o, i) => o + path.extname(inputs[i]!));
  makeDirs(outDir);
  const bar = progress(io, inputs.length, "inferring");
  let code = 0;
  for (let i = 0; i < inputs.length; i++) {
    await yieldToSignals();
    bar.tick(inputs[i]!);
    try {
      requireFormat(inputs[i]!);
      makeDirs(path.dirname(outputs[i]!));
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
    const args = parseArgs(argv, { "out-dir": { value: true }, to: { value: true }, "drop-comments": {} });
    const dropComments = hasFlag(args, "drop-comments");
    const outDir = flag(args, "out-dir");
    if (outDir !== undefined) {
      if (args.positional.length === 0) throw new UsageError("no input files");
      return runBatch(args.positional, outDir, io, dropComments);
    }
    if (args.positional.length !== 2) throw new UsageError("expected IN and OUT");
    const to = flag(args, "to");
    if (to !== undefined && to !== "onnx" && to !== "onnxtxt") throw new UsageError(`--to must be 'onnx' or 'onnxtxt', not '${to}'`);
    if (to !== undefined && args.positional[1] !== "-") throw new UsageError("--to goes with OUT -; otherwise OUT's extension sets the format");
    return inferOne(args.positional[0]!, args.positional[1]!, io, dropComments, to) ? 1 : 0;
  },
};
