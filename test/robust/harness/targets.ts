// The stages a fuzz input goes through. A target gets the input and returns the invariant
// violations it saw; throwing is itself a violation (the harness catches and records it).
// Later stages run only on what the earlier ones accepted, as the tools do.
import { tokenize } from "../../../grammar/src/lexer.js";
import { parseGraph, parseModel, parseNode, parseTypeExpr } from "../../../grammar/src/index.js";
import { checkModel } from "../../../core/src/check/index.js";
import { inferModel } from "../../../core/src/infer/index.js";
import { decodeModel, encodeModel, OnnxtxtError } from "../../../core/src/io/index.js";
import { modelFromText } from "../../../core/src/text.js";
import { binaryDiagnosticProblems, textDiagnosticProblems } from "./invariants.js";

export interface TextTarget {
  readonly name: string;
  run(text: string): string[];
}

export interface BinaryTarget {
  readonly name: string;
  run(bytes: Uint8Array): string[];
}

export const TEXT_TARGETS: TextTarget[] = [
  { name: "lexer", run: (t) => textDiagnosticProblems(tokenize(t).diagnostics, t.length) },
  {
    name: "parser",
    run(t) {
      const problems: string[] = [];
      for (const parse of [parseModel, parseGraph, parseNode, parseTypeExpr]) {
        problems.push(...textDiagnosticProblems(parse(t).diagnostics, t.length));
      }
      return problems;
    },
  },
  {
    name: "lower+check+infer",
    run(t) {
      const r = modelFromText(t);
      const problems = textDiagnosticProblems(r.diagnostics, t.length);
      if (!r.model) return problems;
      problems.push(...textDiagnosticProblems(checkModel(r.model, { sourceMap: r.sourceMap }), t.length));
      problems.push(...textDiagnosticProblems(inferModel(r.model, { sourceMap: r.sourceMap }).diagnostics, t.length));
      // What lowering built must survive the binary round trip.
      const again = decodeModel(encodeModel(r.model));
      problems.push(...binaryDiagnosticProblems(checkModel(again)));
      return problems;
    },
  },
];

export const BINARY_TARGETS: BinaryTarget[] = [
  {
    name: "decode+check",
    run(bytes) {
      let model;
      try {
        model = decodeModel(bytes);
      } catch (e) {
        if (e instanceof OnnxtxtError) return e.message.includes("\n") ? [`multi-line error: ${e.message}`] : [];
        throw e;
      }
      return binaryDiagnosticProblems(checkModel(model));
    },
  },
];
