// `onnxtxt/diff`: what changed between two models (core/src/diff), for any client. Each side is
// an open document (`{ uri }`, its current text) or a text (`{ text }`); places come back with
// lines and columns in those texts. A side that does not lower to a model is refused with
// what is wrong, as `onnxtxt diff` refuses it.
import { ErrorCodes, ResponseError, type Connection } from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { diffModels, type DiffOptions, type DiffSide, type ModelDiff } from "../../core/src/diff/index.js";
import { OnnxtxtError } from "../../core/src/io/errors.js";
import { modelFromText } from "../../core/src/text.js";
import { guarded } from "./guard.js";

const DIFF_REQUEST = "onnxtxt/diff";

type SideParam = { readonly uri: string } | { readonly text: string };

interface DiffParams {
  readonly a: SideParam;
  readonly b: SideParam;
  readonly options?: DiffOptions;
}

function validSide(p: unknown): p is SideParam {
  if (typeof p !== "object" || p === null) return false;
  const s = p as Record<string, unknown>;
  return typeof s.uri === "string" || typeof s.text === "string";
}

function validOptions(o: unknown): DiffOptions {
  if (o === undefined || o === null) return {};
  const r = o as Record<string, unknown>;
  const options: { -readonly [K in keyof DiffOptions]: DiffOptions[K] } = {};
  if (typeof r.ignoreNames === "boolean") options.ignoreNames = r.ignoreNames;
  if (typeof r.ignoreWeights === "boolean") options.ignoreWeights = r.ignoreWeights;
  if (typeof r.rtol === "number" && r.rtol >= 0) options.rtol = r.rtol;
  if (typeof r.atol === "number" && r.atol >= 0) options.atol = r.atol;
  return options;
}

async function sideOf(p: SideParam, label: string, fullAnalysisOf: (uri: string) => Promise<Analysis>): Promise<DiffSide> {
  const read = "uri" in p ? await fullAnalysisOf(p.uri) : modelFromText(p.text);
  const text = "uri" in p ? (read as Analysis).text : p.text;
  const errors = read.diagnostics.filter((d) => d.severity === "error");
  if (!read.model || errors.length > 0)
    throw new ResponseError(ErrorCodes.InvalidParams, `${label} does not read as a model: ${errors[0]?.message ?? "it has errors"}`);
  return { model: read.model, text, ...(read.sourceMap && { sourceMap: read.sourceMap }) };
}

export function registerDiffRequest(connection: Connection, fullAnalysisOf: (uri: string) => Promise<Analysis>): void {
  connection.onRequest(
    DIFF_REQUEST,
    guarded(connection, "diff", async (p: DiffParams): Promise<ModelDiff> => {
      if (!validSide(p?.a) || !validSide(p?.b))
        throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt/diff takes { a: { uri } | { text }, b: { uri } | { text }, options? }");
      const a = await sideOf(p.a, "A", fullAnalysisOf);
      const b = await sideOf(p.b, "B", fullAnalysisOf);
      try {
        return diffModels(a, b, validOptions(p.options));
      } catch (e) {
        // input the comparison refuses (subgraphs nested too deep): an answer, not a crash
        if (e instanceof OnnxtxtError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
        throw e;
      }
    }),
  );
}
