// `onnxtxt/graph`: the graph view's data for an open document (see core/src/graph/view-data.ts).
// A custom request, so only clients with a graph view (the VS Code extension) ask for it.
import { ErrorCodes, ResponseError, type Connection } from "vscode-languageserver/node";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { graphView, type GraphViewData } from "../../core/src/graph/view-data.js";
import { guarded } from "./guard.js";

const GRAPH_REQUEST = "onnxtxt/graph";

interface GraphParams {
  readonly uri: string;
}

export function registerGraphRequest(connection: Connection, fullAnalysisOf: (uri: string) => Promise<Analysis>): void {
  connection.onRequest(
    GRAPH_REQUEST,
    guarded(connection, "graph", async (p: GraphParams): Promise<GraphViewData | null> => {
      if (typeof p?.uri !== "string") throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt/graph takes { uri: string }");
      return graphView(await fullAnalysisOf(p.uri)) ?? null;
    }),
  );
}
