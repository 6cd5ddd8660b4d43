// Host files (Python, C/C++, Markdown, JavaScript) as CLI input: their ONNX texts, and one of
// them as a model for `print --region N` and `graph --region N`.
import type { ModelProto } from "../../proto/src/index.js";
import { checkRegion, findRegions, fragmentModel, hostLanguageOfPath, type EmbeddedRegion, type HostLanguage } from "../../core/src/embedded/index.js";
import { diagnosticsText } from "./pretty.js";
import { FileError, readText } from "../../core/src/io/files.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import { modelFromText } from "../../core/src/text.js";
import { UsageError } from "./args.js";
import { InputError } from "../../core/src/node/input-error.js";

/** The host language of a file name, for files that are not models themselves. */
export function hostLanguageOf(file: string): HostLanguage | undefined {
  return file === "-" ? undefined : hostLanguageOfPath(file);
}

/** `--region N`: a whole number from 1. */
export function regionNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--region takes the number of an ONNX text in the file, from 1, not '${text}'`);
  return n;
}

/** One line per region: its number, line, kind and what recognised it. */
function listing(text: string, regions: readonly EmbeddedRegion[]): string {
  const lines = new LineIndex(text);
  return regions.map((r) => `  ${r.index + 1}: line ${lines.position(r.literal.span.start).line + 1}, ${r.kind} (${r.origin})`).join("\n");
}

/** Region `n` (from 1) of a host file as a model: its own for a model text, else the model fragment.ts wraps it in. */
export function regionModel(file: string, n: number): { model: ModelProto; region: EmbeddedRegion; text: string } {
  const language = hostLanguageOf(file);
  if (!language) throw new UsageError(`--region reads Python, C/C++, Markdown or JavaScript files, not '${file}'`);
  const text = readText(file);
  const { regions } = findRegions(text, language);
  const region = regions[n - 1];
  if (!region) {
    const which = regions.length === 0 ? "has no ONNX text" : `has ${regions.length} ONNX text${regions.length === 1 ? "" : "s"}:\n${listing(text, regions)}`;
    throw new FileError(file, `there is no region ${n}: the file ${which}`);
  }
  const fragment = fragmentModel(region);
  const r = modelFromText(fragment.text);
  if (!r.model)
    throw new InputError(
      file,
      diagnosticsText(
        file,
        text,
        checkRegion(region).filter((d) => d.severity === "error"),
      ),
    );
  return { model: r.model, region, text };
}
