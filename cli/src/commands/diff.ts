// `onnxtxt diff A B`: what changed between two models (any mix of .onnx, .onnxtxt and -),
// matched by structure in core/src/diff. Exit codes as diff(1)'s: 0 equal, 1 different, 2 errors.
import { diffModels, unifiedDiff, type DiffOptions, type DiffSide, type ExternalDataSource } from "../../../core/src/diff/index.js";
import { readDataRange } from "../../../core/src/io/data-files.js";
import { OnnxtxtError } from "../../../core/src/io/errors.js";
import { FileError } from "../../../core/src/io/files.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import type { Command, Output } from "../command.js";
import { InputError } from "../../../core/src/node/input-error.js";
import { printReport } from "../pretty.js";
import { about, modelDir, readModel } from "../model-files.js";
import { diffReport } from "../diff-report.js";

const USAGE = `usage: onnxtxt diff [--format text|unified|json] [--ignore-names] [--ignore-weights]
                    [--rtol X] [--atol X] A B

Compares the models A and B (.onnx or .onnxtxt; one of them may be - for stdin) by structure:
nodes are paired by op and inputs, walking from the graph inputs, so renamed values and
reordered nodes show as renames and moves. Lists added, removed, changed and moved nodes,
renamed values, changed types and shapes, opset, IR version and metadata changes, and changed
initializers as a summary (how many elements differ, max abs and rel difference). Places are
FILE:LINE:COL in text inputs; for a binary input, lines of its canonical text (onnxtxt print).

options:
  --format text     a readable report (coloured on a terminal; NO_COLOR turns colour off)
  --format unified  a unified diff of the two canonical texts, B's names aligned to A's
  --format json     {equal, changes: [{kind, message, a, b, details?, tensor?}], notes, ...}
  --ignore-names    do not report renamed values and nodes
  --ignore-weights  do not compare tensor values (types and shapes still are); otherwise
                    external data is read beside each model and compared by value
  --rtol X, --atol X  elements differ when |a - b| > atol + rtol * |b| (default 0 and 0)

Exit code: 0 the models are the same, 1 they differ, 2 an error (as diff(1)).`;

const FORMATS = ["text", "unified", "json"] as const;
type Format = (typeof FORMATS)[number];

function tolerance(args: ReturnType<typeof parseArgs>, name: string): number | undefined {
  const text = flag(args, name);
  if (text === undefined) return undefined;
  const x = Number(text);
  if (text.trim() === "" || !Number.isFinite(x) || x < 0) throw new UsageError(`--${name} takes a number >= 0, not '${text}'`);
  return x;
}

/** External data read beside the model; a file that cannot be read is the comparison's note, not a failure. */
function externalData(file: string): ExternalDataSource {
  const baseDir = modelDir(file);
  const read = readDataRange(baseDir);
  return {
    baseDir,
    read: (absPath, offset, length) => {
      try {
        return read(absPath, offset, length);
      } catch (e) {
        if (e instanceof FileError) throw new OnnxtxtError(`${e.file}: ${e.message}`);
        throw e;
      }
    },
  };
}

function load(file: string, io: Output): DiffSide {
  const loaded = readModel(file, (m) => io.err(m), true);
  return {
    model: loaded.model,
    ...(loaded.text !== undefined && { text: loaded.text }),
    ...(loaded.sourceMap && { sourceMap: loaded.sourceMap }),
    externalData: externalData(file),
  };
}

function colourWanted(io: Output): boolean {
  const noColor = process.env.NO_COLOR;
  return Boolean(io.outIsTerminal) && (noColor === undefined || noColor === "");
}

function compare(files: readonly string[], format: Format, options: DiffOptions, io: Output): number {
  const [fa, fb] = files as [string, string];
  const a = load(fa, io);
  const b = load(fb, io);
  if (format === "unified") {
    const text = about(fa, () => unifiedDiff(a, b, { a: fa, b: fb }, options));
    io.out(text);
    return text === "" ? 0 : 1;
  }
  const diff = about(fa, () => diffModels(a, b, options));
  for (const note of diff.notes) io.err(`onnxtxt diff: note: ${note.replace(/^A\b/, fa).replace(/^B\b/, fb)}\n`);
  if (format === "json") io.out(`${JSON.stringify({ a: fa, b: fb, ...diff }, null, 1)}\n`);
  else {
    const colour = colourWanted(io);
    const report = diffReport(diff, { a: fa, b: fb }, colour);
    // with colour the escapes are ours: the report escaped the model's own text already
    io.out(colour ? new TextEncoder().encode(report) : report);
  }
  return diff.equal ? 0 : 1;
}

export const diffCommand: Command = {
  name: "diff",
  summary: "show what changed between two models",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { format: { value: true }, "ignore-names": {}, "ignore-weights": {}, rtol: { value: true }, atol: { value: true } });
    if (args.positional.length !== 2) throw new UsageError("expected two models, A and B");
    if (args.positional[0] === "-" && args.positional[1] === "-") throw new UsageError("only one of A and B can be - (stdin)");
    const requested = flag(args, "format") ?? "text";
    const format = FORMATS.find((f) => f === requested);
    if (!format) throw new UsageError(`--format must be text, unified or json, not '${requested}'`);
    const rtol = tolerance(args, "rtol");
    const atol = tolerance(args, "atol");
    const options: DiffOptions = {
      ignoreNames: hasFlag(args, "ignore-names"),
      ignoreWeights: hasFlag(args, "ignore-weights"),
      ...(rtol !== undefined && { rtol }),
      ...(atol !== undefined && { atol }),
    };
    try {
      return compare(args.positional, format, options, io);
    } catch (e) {
      // an input with errors is trouble (2), not a difference (1): diff(1)'s codes
      if (e instanceof InputError) {
        printReport(io, e.report);
        return 2;
      }
      throw e;
    }
  },
};
