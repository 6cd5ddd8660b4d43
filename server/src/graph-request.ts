// `onnxtxt/graph`: the graph view's data for an open document (see core/src/graph/view-data.ts).
// A custom request, so only clients with a graph view (the VS Code extension) ask for it. With
// `compareTo` (an open document `{ uri }` or a text `{ text }`), the view is in diff mode: the
// boxes `onnxtxt diff` finds changed from that model to this document are coloured, and the
// nodes it finds removed are drawn as boxes of their own.
import { ErrorCodes, ResponseError, type Connection } from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { graphView, type GraphViewData } from "../../core/src/graph/view-data.js";
import { diffMarks } from "../../core/src/graph/diff-marks.js";
import { compareModels } from "../../core/src/diff/index.js";
import { OnnxtxtError } from "../../core/src/io/errors.js";
import { modelFromText } from "../../core/src/text.js";
import { guarded } from "./guard.js";

const GRAPH_REQUEST = "onnxtxt/graph";

type CompareTo = { readonly uri: string } | { readonly text: string };

interface GraphParams {
  readonly uri: string;
  readonly compareTo?: CompareTo;
}

function validCompareTo(c: unknown): c is CompareTo | undefined {
  if (c === undefined || c === null) return true;
  if (typeof c !== "object") return false;
  const r = c as Record<string, unknown>;
  return typeof r.uri === "string" || typeof r.text === "string";
}

export function registerGraphRequest(connection: Connection, fullAnalysisOf: (uri: string) => Promise<Analysis>): void {
  connection.onRequest(
    GRAPH_REQUEST,
    guarded(connection, "graph", async (p: GraphParams): Promise<GraphViewData | null> => {
      if (typeof p?.uri !== "string" || !validCompareTo(p.compareTo))
        throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt/graph takes { uri: string, compareTo?: { uri } | { text } }");
      const a = await fullAnalysisOf(p.uri);
      if (!p.compareTo || !a.model) return graphView(a) ?? null;
      const other = "uri" in p.compareTo ? (await fullAnalysisOf(p.compareTo.uri)).model : modelFromText(p.compareTo.text).model;
      if (!other) throw new ResponseError(ErrorCodes.InvalidParams, "the model to compare to does not read as a model");
      try {
        const { diff, removed } = compareModels(other, a.model, { canonicalPlacesUpTo: 0 });
        return graphView(a, diffMarks(diff, a.model, removed)) ?? null;
      } catch (e) {
        if (e instanceof OnnxtxtError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
        throw e;
      }
    }),
  );
}
