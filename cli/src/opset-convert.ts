// `convert --opset N` (and `upgrade`/`downgrade`): the model moved to another opset by
// core's convertOpset; refused nodes are listed one per line, and nothing is written when
// any was refused unless --allow-partial. Text in, text out keeps unchanged statements as written.
import * as path from "node:path";
import { LineIndex } from "../../grammar/src/line-index.js";
import { bringBack } from "../../core/src/ext/externalize.js";
import { hasExternalData } from "../../core/src/ext/sidecar.js";
import { readDataRange } from "../../core/src/io/data-files.js";
import { FileError } from "../../core/src/io/files.js";
import { writeOutput } from "../../core/src/io/write-output.js";
import { convertOpset, convertOpsetText, OpsetError, type OpsetConversion, type RefusedNode } from "../../core/src/opset/index.js";
import { latestOpsetVersion } from "../../core/src/schema/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { UsageError } from "./args.js";
import type { Output } from "./command.js";
import { refuseDroppingComments } from "./comment-guard.js";
import { InputError } from "../../core/src/node/input-error.js";
import { modelDir, readModel, requireFormat, saveModel, writeModelToStdout, type SaveOptions } from "./model-files.js";

export interface OpsetRequest {
  readonly target: number;
  readonly ml?: number;
  readonly allowPartial: boolean;
}

/** `--opset N`: an integer; a target onnx does not have is refused before anything is read. */
export function parseOpset(value: string | undefined, what = "--opset"): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isInteger(n))
    throw new UsageError(`${what} must be an integer${value === undefined ? "" : `, not '${value}'`}`);
  const latest = latestOpsetVersion(what === "--opset" ? "" : "ai.onnx.ml") ?? 1;
  if (n < 1 || n > latest) throw new UsageError(`${what} ${n} does not exist: the known opsets are 1 to ${latest}`);
  return n;
}

function where(file: string, r: RefusedNode, lines?: LineIndex): string {
  if (r.span && lines) return `${file}:${lines.lineCol(r.span.start)}`;
  const label = `${r.name ? `node '${r.name}' ` : ""}(${r.domain ? `${r.domain}.` : ""}${r.op})`;
  return `${file}: ${r.path} > ${label}`;
}

/** One line per refused node; exit code 1 unless partial output is allowed. */
function report(io: Output, file: string, c: OpsetConversion, req: OpsetRequest, lines?: LineIndex): boolean {
  const severity = req.allowPartial ? "warning" : "error";
  for (const r of c.refused) io.err(`${where(file, r, lines)}: ${severity}: ${r.reason} [opset-refused]\n`);
  const from = c.versions.get("")?.[0];
  const to = c.versions.get("")?.[1];
  const kept = c.refused.length === 0 ? "" : req.allowPartial ? ` (${c.refused.length} kept their old form)` : "; nothing written";
  io.err(`onnxtxt: ${file}: opset ${from} -> ${to}: ${c.rewritten} nodes rewritten, ${c.unchanged} unchanged, ${c.refused.length} refused${kept}\n`);
  return c.refused.length === 0 || req.allowPartial;
}

function about<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OpsetError) throw new FileError(file, e.message);
    throw e;
  }
}

/** Converts `input` to the requested opset and writes `output` (`-`: stdout). Returns false when refused nodes stop it. */
export function convertOpsetFile(input: string, output: string, req: OpsetRequest, io: Output, opts: SaveOptions, dropComments: boolean): boolean {
  const loaded = readModel(input, (m) => io.err(m));
  const outFormat = output === "-" ? loaded.format : requireFormat(output);
  const options = req.ml === undefined ? {} : { domains: { "ai.onnx.ml": req.ml } };
  let model: ModelProto;
  if (loaded.format === "onnxtxt" && loaded.text !== undefined) {
    const converted = about(input, () => convertOpsetText(loaded.text!, req.target, options));
    if (!report(io, input, converted.conversion, req, new LineIndex(loaded.text))) throw new InputError(input, "");
    const sameDir = output === "-" || path.resolve(path.dirname(output)) === modelDir(input);
    if (outFormat === "onnxtxt" && !converted.canonical && opts.externalData === undefined && (sameDir || !hasExternalData(loaded.model))) {
      if (output === "-") io.out(converted.text);
      else writeOutput(output, converted.text);
      return true;
    }
    if (outFormat === "onnxtxt") {
      if (converted.canonical) io.err(`onnxtxt: ${input}: note: the converted text is printed in the canonical layout\n`);
      refuseDroppingComments(input, loaded, outFormat, dropComments);
    }
    model = converted.conversion.model;
    bringBack(model, modelDir(input), readDataRange(modelDir(input)));
  } else {
    const conversion = about(input, () => convertOpset(loaded.model, req.target, options));
    if (!report(io, input, conversion, req)) throw new InputError(input, "");
    model = conversion.model;
  }
  if (output === "-") writeModelToStdout(io, "stdout.onnxtxt", outFormat, model, opts);
  else saveModel(output, model, { ...opts, sourceDir: modelDir(input) });
  return true;
}
