// `onnxtxt check FILE...`: reports every problem, one line each, as
// `FILE:LINE:COL: error: MESSAGE [code]`. Exit 1 if any file has an error, 0 otherwise.
// The stages are a list: syntax and lowering first, then each entry of MODEL_CHECKS on a model
// that lowered cleanly (the semantic checks plug in there).
import type { Diagnostic } from "../../../../grammar/src/diagnostics.js";
import type { ModelProto } from "../../../../proto/src/index.js";
import type { SourceMap } from "../../source-map.js";
import { modelFromText } from "../../text.js";
import { decodeModel } from "../../io/index.js";
import { parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { diagnosticLines } from "../diagnostic-lines.js";
import { FileError, readBytes, readText } from "../files.js";
import { about, requireFormat } from "../model-files.js";
import { reportFileError } from "../report.js";
import { checkModel } from "../../check/index.js";
import { pushAll } from "../../arrays.js";

/** A check over a model; `sourceMap` is present for text input. */
export interface ModelCheck {
  readonly name: string;
  run(model: ModelProto, sourceMap: SourceMap | undefined): Diagnostic[];
}

/** Checks run after parsing and lowering succeeded, in order. */
export const MODEL_CHECKS: ModelCheck[] = [
  { name: "semantics", run: (model, sourceMap) => checkModel(model, sourceMap ? { sourceMap } : {}) },
];

const USAGE = `usage: onnxtxt check FILE...

Reports the problems of each .onnxtxt or .onnx file, one per line:
FILE:LINE:COL: error: MESSAGE [code]. Exit code 1 if any file has an error.`;

interface Checked {
  readonly text?: string;
  readonly diagnostics: Diagnostic[];
}

function checkFile(file: string): Checked {
  const format = requireFormat(file);
  let model: ModelProto | undefined;
  let sourceMap: SourceMap | undefined;
  let text: string | undefined;
  const diagnostics: Diagnostic[] = [];
  if (format === "onnxtxt") {
    text = readText(file);
    const r = modelFromText(text);
    pushAll(diagnostics, r.diagnostics);
    model = r.model;
    sourceMap = r.sourceMap;
  } else {
    const bytes = readBytes(file);
    model = about(file, () => decodeModel(bytes));
  }
  if (model) for (const check of MODEL_CHECKS) pushAll(diagnostics, check.run(model, sourceMap));
  return { ...(text !== undefined && { text }), diagnostics };
}

export const checkCommand: Command = {
  name: "check",
  summary: "report syntax errors (and other problems) in models",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, {});
    if (args.positional.length === 0) throw new UsageError("no input files");
    let code = 0;
    for (const file of args.positional) {
      try {
        const r = checkFile(file);
        io.err(diagnosticLines(file, r.text, r.diagnostics));
        if (r.diagnostics.some((d) => d.severity === "error")) code = Math.max(code, 1);
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        reportFileError(io, e);
        code = 2;
      }
    }
    return code;
  },
};
