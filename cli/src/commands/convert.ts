// `onnxtxt convert IN OUT` and `onnxtxt convert --to FORMAT --out-dir DIR IN...`.
import * as path from "node:path";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import { batchOutputs } from "../batch.js";
import { refuseDroppingComments } from "../comment-guard.js";
import type { Command, Output } from "../command.js";
import { InputError } from "../../../core/src/node/input-error.js";
import { printReport } from "../pretty.js";
import { refuseOverInput } from "../same-file.js";
import { checkModel } from "../../../core/src/check/index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { FileError, makeDirs } from "../../../core/src/io/files.js";
import { FORMAT_EXTENSIONS, modelDir, readModel, requireFormat, saveModel, writeModelToStdout, type ModelFormat, type SaveOptions } from "../model-files.js";
import { parseSize } from "../size.js";
import { progress } from "../progress.js";
import { reportFileError } from "../report.js";
import { yieldToSignals } from "../../../core/src/io/write-output.js";
import { convertOpsetFile, parseOpset, type OpsetRequest } from "../opset-convert.js";

const USAGE = `usage: onnxtxt convert [--to onnx|onnxtxt] IN OUT
       onnxtxt convert --to onnx|onnxtxt --out-dir DIR IN...
       onnxtxt convert --opset N [--allow-partial] IN OUT
       onnxtxt convert --opset N --write FILE.onnxtxt
       (any form) --external-data SIZE: text output keeps tensors with more
       than SIZE bytes (e.g. 64k) in the sidecar file OUT.<hash>.data

Converts between binary .onnx and text .onnxtxt; the direction follows the file
extensions. IN - reads stdin; OUT - writes stdout (the other format than IN's, or --to). The batch form writes each input to DIR/<stem>.<ext>, keeping the
inputs' folders relative to the folder they share. IN may also be protobuf text format
(what protobuf's text_format writes for a ModelProto: .pbtxt, .textproto, or any name),
read as the model it describes.

--opset N moves the model to opset N of ai.onnx, up or down (--ml-opset N for
ai.onnx.ml), rewriting every node whose operator changed in between. A node that
cannot be expressed at opset N is reported (FILE:LINE:COL on text, the node's
name and place on binaries) and nothing is written (exit 1), unless
--allow-partial keeps such nodes in their old form. Text output keeps the layout
and comments of the statements that did not change. --write converts a text
file in place.

A model that 'onnxtxt check' would reject is converted with a warning naming the
first error; --check refuses to write it instead (exit 1), --no-check does not look.`;

/** What convert does with a model `check` would reject: say so (the default), refuse to write it (--check), or not look (--no-check). */
type CheckMode = "warn" | "fail" | "off";

/** Reports (or, with --check, refuses with InputError) a model with errors `onnxtxt check` would show. */
function checkBeforeWriting(input: string, model: ModelProto, mode: CheckMode, io: Output): void {
  if (mode === "off") return;
  const errors = checkModel(model, { errorsOnly: true });
  if (errors.length === 0) return;
  const first = errors[0]!;
  const what = `${errors.length === 1 ? "1 error" : `${errors.length} errors`} (the first: ${first.where ? `${first.where}: ` : ""}${first.message} [${first.code}])`;
  if (mode === "fail")
    throw new InputError(input, `onnxtxt: ${input}: error: 'onnxtxt check' reports ${what}; nothing written (run 'onnxtxt check ${input}')\n`);
  io.err(`onnxtxt: ${input}: warning: 'onnxtxt check' would reject this model: ${what}; converted all the same (--check refuses instead)\n`);
}

function convertOne(
  input: string,
  output: string,
  opts: SaveOptions,
  io: Output,
  dropComments: boolean,
  to?: ModelFormat,
  opset?: OpsetRequest,
  check: CheckMode = "warn",
): void {
  if (output !== "-" && to !== undefined && requireFormat(output) !== to) throw new UsageError(`--to ${to} does not match the extension of '${output}'`);
  if (opset) {
    refuseOverInput(output, [input]);
    convertOpsetFile(input, output, opset, io, opts, dropComments);
    return;
  }
  const outFormat = output === "-" ? undefined : requireFormat(output);
  const loaded = readModel(input, (m) => io.err(m));
  const format = outFormat ?? to ?? (loaded.format === "onnx" ? "onnxtxt" : "onnx");
  refuseDroppingComments(input, loaded, format, dropComments);
  refuseOverInput(output, [input]);
  checkBeforeWriting(input, loaded.model, check, io);
  if (output === "-") writeModelToStdout(io, "stdout.onnxtxt", format, loaded.model, opts);
  else saveModel(output, loaded.model, { ...opts, sourceDir: modelDir(input) });
}

function parseFormat(value: string | undefined): ModelFormat {
  if (value === "onnx" || value === "onnxtxt") return value;
  throw new UsageError(`--to must be 'onnx' or 'onnxtxt'${value === undefined ? "" : `, not '${value}'`}`);
}

async function runBatch(
  inputs: readonly string[],
  outDir: string,
  to: ModelFormat,
  io: Output,
  opts: SaveOptions,
  dropComments: boolean,
  opset?: OpsetRequest,
  check: CheckMode = "warn",
): Promise<number> {
  const outputs = batchOutputs(inputs, outDir, FORMAT_EXTENSIONS[to]);
  makeDirs(outDir);
  const bar = progress(io, inputs.length, "converting");
  let failed = 0;
  let inputErrors = 0;
  for (let i = 0; i < inputs.length; i++) {
    await yieldToSignals();
    bar.tick(inputs[i]!);
    try {
      makeDirs(path.dirname(outputs[i]!));
      // over its own input convertOne refuses (after the reasons that come first); over another here
      refuseOverInput(
        outputs[i]!,
        inputs.filter((_, j) => j !== i),
      );
      convertOne(inputs[i]!, outputs[i]!, opts, io, dropComments, undefined, opset, check);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      bar.done();
      if (e instanceof InputError) {
        if (e.report) printReport(io, e.report);
        inputErrors++;
        continue;
      }
      reportFileError(io, e);
      failed++;
    }
  }
  bar.done();
  return failed > 0 ? 2 : inputErrors > 0 ? 1 : 0;
}

export const convertCommand: Command = {
  name: "convert",
  summary: "convert between .onnx and .onnxtxt",
  usage: USAGE,
  run(argv, io) {
    return runConvert(argv, io);
  },
};

/** The opset request of --opset/--ml-opset/--allow-partial, if any. */
function opsetRequest(args: ReturnType<typeof parseArgs>, required?: number): OpsetRequest | undefined {
  const given = flag(args, "opset");
  const ml = flag(args, "ml-opset");
  if (given === undefined && ml === undefined && required === undefined) {
    if (hasFlag(args, "allow-partial") || hasFlag(args, "write")) throw new UsageError("--allow-partial and --write go with --opset");
    return undefined;
  }
  const target = given === undefined ? (required ?? parseOpset(undefined)) : parseOpset(given);
  return { target, allowPartial: hasFlag(args, "allow-partial"), ...(ml !== undefined && { ml: parseOpset(ml, "--ml-opset") }) };
}

/** `convert`, and `upgrade`/`downgrade` (the same with --opset defaulting to the newest, or required). */
export function runConvert(argv: readonly string[], io: Output, defaultOpset?: number): number | Promise<number> {
  {
    const args = parseArgs(argv, {
      to: { value: true },
      "out-dir": { value: true },
      "external-data": { value: true },
      "drop-comments": {},
      opset: { value: true },
      "ml-opset": { value: true },
      "allow-partial": {},
      write: {},
      check: {},
      "no-check": {},
    });
    if (hasFlag(args, "check") && hasFlag(args, "no-check")) throw new UsageError("--check and --no-check do not go together");
    const check: CheckMode = hasFlag(args, "check") ? "fail" : hasFlag(args, "no-check") ? "off" : "warn";
    const opset = opsetRequest(args, defaultOpset);
    const dropComments = hasFlag(args, "drop-comments");
    const size = flag(args, "external-data");
    const opts: SaveOptions = size === undefined ? {} : { externalData: parseSize(size) };
    const outDir = flag(args, "out-dir");
    if (outDir !== undefined) {
      const to = parseFormat(flag(args, "to"));
      if (args.positional.length === 0) throw new UsageError("no input files");
      return runBatch(args.positional, outDir, to, io, opts, dropComments, opset, check);
    }
    if (hasFlag(args, "write")) {
      if (args.positional.length !== 1) throw new UsageError("--write takes one text file");
      const file = args.positional[0]!;
      if (file === "-" || requireFormat(file) !== "onnxtxt") throw new UsageError("--write converts a .onnxtxt file in place");
      return convertOpsetFile(file, file, opset!, io, opts, dropComments) ? 0 : 1;
    }
    if (args.positional.length !== 2) throw new UsageError("expected IN and OUT");
    const to = flag(args, "to");
    convertOne(args.positional[0]!, args.positional[1]!, opts, io, dropComments, to === undefined ? undefined : parseFormat(to), opset, check);
    return 0;
  }
}
