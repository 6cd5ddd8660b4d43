// The extension host's side of the language server's timeline (server/src/trace.ts): with
// ONNXTXT_LS_TRACE=FILE in the desktop, when each editor request left for the server and when
// its answer came back, and each time the extension host's event loop was held up, written to
// FILE.client with the same wall-clock stamps. Together they show where a slow hover waited.
import * as fs from "node:fs";
import type { Middleware } from "vscode-languageclient";
import { traceBlocking, traceTo, type Trace } from "../../server/src/trace.js";

/** The requests traced: the position requests and the whole-document ones they may wait behind. */
const TRACED = [
  "provideHover",
  "provideCompletionItem",
  "provideDefinition",
  "provideDocumentSymbols",
  "provideDocumentSemanticTokens",
  "provideDocumentSemanticTokensEdits",
  "provideCodeActions",
  "provideCodeLenses",
  "provideFoldingRanges",
  "provideDocumentHighlights",
] as const;

/** A trace to `FILE.client` when ONNXTXT_LS_TRACE names a file, else undefined. */
export function clientTrace(): Trace | undefined {
  const target = process.env.ONNXTXT_LS_TRACE;
  if (!target || target === "1") return undefined;
  const out = fs.createWriteStream(`${target}.client`, { flags: "a" });
  const trace = traceTo((line) => out.write(line));
  traceBlocking(trace);
  return trace;
}

/** `middleware` with every TRACED request stamped as it leaves and as its answer arrives. */
export function tracedMiddleware(middleware: Middleware, trace: Trace): Middleware {
  const traced: Record<string, unknown> = { ...middleware };
  let n = 0;
  for (const name of TRACED) {
    const inner = middleware[name] as ((...args: unknown[]) => unknown) | undefined;
    traced[name] = async (...args: unknown[]): Promise<unknown> => {
      const id = `${name.replace(/^provide/, "")}@${++n}`;
      trace(`send ${id}`);
      const next = args[args.length - 1] as (...a: unknown[]) => unknown;
      const result = await (inner ? inner(...args) : next(...args.slice(0, -1)));
      trace(`answer ${id}${Array.isArray(result) ? ` (${result.length} items)` : ""}`);
      return result;
    };
  }
  return traced as Middleware;
}
