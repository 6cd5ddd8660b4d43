// `onnxtxt/convertOpset`: the edit converting an open document to another ai.onnx opset, for a
// client command that asks for any target (VS Code's "ONNX: Convert Model to Opset..." quick
// pick); code actions offer only a few targets. Without `target`, the opsets to choose from.
import { ErrorCodes, ResponseError, type Connection, type Range, type TextEdit } from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { importedOpset, modelOpsetConversion } from "../../core/src/ide/opset-convert.js";
import { latestOpsetVersion } from "../../core/src/schema/index.js";
import { toRange } from "./convert.js";
import { guarded } from "./guard.js";

export const CONVERT_OPSET_REQUEST = "onnxtxt/convertOpset";

interface ConvertOpsetParams {
  readonly uri: string;
  readonly target?: number;
}

export interface ConvertOpsetResult {
  readonly from: number;
  readonly latest: number;
  /** Present when a target was asked for. */
  readonly conversion?: {
    readonly target: number;
    /** Empty when nodes are refused: the client shows `refused` and applies nothing. */
    readonly edits: TextEdit[];
    readonly refused: { readonly range?: Range; readonly message: string }[];
    readonly canonical: boolean;
  };
}

export function registerOpsetRequest(connection: Connection, fullAnalysisOf: (uri: string) => Promise<Analysis>): void {
  connection.onRequest(
    CONVERT_OPSET_REQUEST,
    guarded(connection, "convertOpset", async (p: ConvertOpsetParams): Promise<ConvertOpsetResult> => {
      if (typeof p?.uri !== "string" || (p.target !== undefined && !Number.isInteger(p.target)))
        throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt/convertOpset takes { uri, target?: integer }");
      const a = await fullAnalysisOf(p.uri);
      const from = importedOpset(a);
      if (from === undefined) throw new ResponseError(ErrorCodes.InvalidParams, "the model imports no ai.onnx opset");
      const latest = latestOpsetVersion("") ?? from;
      if (p.target === undefined) return { from, latest };
      const c = modelOpsetConversion(a, p.target);
      if (typeof c === "string") throw new ResponseError(ErrorCodes.InvalidParams, c);
      const conversion = {
        target: c.target,
        edits: c.refused.length > 0 ? [] : c.edits.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })),
        refused: c.refused.map((r) => ({ ...(r.span && { range: toRange(a.lines, r.span) }), message: r.message })),
        canonical: c.canonical,
      };
      return { from, latest, conversion };
    }),
  );
}
