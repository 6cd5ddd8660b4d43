// The stages a fuzz input goes through. A target gets the input and returns the invariant
// violations it saw; throwing is itself a violation (the harness catches and records it).
// Later stages run only on what the earlier ones accepted, as the tools do.
import { tokenize } from "../../../grammar/src/scanner.js";
import { parseGraph, parseModel, parseModelSteps, parseNode, parseTypeExpr } from "../../../grammar/src/index.js";
import { finish } from "../../../grammar/src/steps.js";
import { isDeepStrictEqual } from "node:util";
import { checkModel } from "../../../core/src/check/index.js";
import { inferModel } from "../../../core/src/infer/index.js";
import { decodeModel, encodeModel, OnnxtxtError } from "../../../core/src/io/index.js";
import { patchWire } from "../../../core/src/io/nan-bits.js";
import { formatText } from "../../../core/src/print/format.js";
import { printModel } from "../../../core/src/print-model.js";
import { modelFromText } from "../../../core/src/text.js";
import { toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema, type ModelProto } from "../../../proto/src/index.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { binaryDiagnosticProblems, textDiagnosticProblems } from "./invariants.js";

export interface TextTarget {
  readonly name: string;
  run(text: string): string[];
}

export interface BinaryTarget {
  readonly name: string;
  run(bytes: Uint8Array): string[];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The model's bytes without unknown fields, which the text format does not carry, and with its
 * NaN payloads as read from the wire (encodeModel's patch: a signalling NaN read through a double
 * comes back quieted).
 */
function knownBytes(model: ModelProto): Uint8Array {
  return patchWire(ModelProtoSchema, model, toBinary(ModelProtoSchema, model, { writeUnknownFields: false }));
}

/**
 * Printing must be lossless: the printed text reads back to the very same model. A model that
 * `check` finds invalid may instead be refused by the reader, but only for those same errors
 * (a tensor with fewer values than its shape needs prints as it is, and reading it back says so).
 */
function printProblems(model: ModelProto, checked?: readonly Diagnostic[]): string[] {
  const text = printModel(model);
  const back = modelFromText(text);
  const binaryErrors = new Set((checked ?? []).filter((d) => d.severity === "error").map((d) => d.code));
  const refused = back.diagnostics.filter((d) => d.severity === "error");
  if (!back.model && refused.length > 0 && refused.every((d) => binaryErrors.has(d.code))) return [];
  if (!back.model)
    return [
      `printed text does not read back: ${back.diagnostics
        .slice(0, 2)
        .map((d) => d.message)
        .join("; ")}\n${text.slice(0, 400)}`,
    ];
  return sameBytes(knownBytes(back.model), knownBytes(model)) ? [] : ["printed text reads back to a different model"];
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
      problems.push(...printProblems(r.model));
      return problems;
    },
  },
  {
    name: "format",
    run(t) {
      const f = formatText(t);
      if (!f.ok) return textDiagnosticProblems([...f.diagnostics], t.length);
      const problems: string[] = [];
      const again = formatText(f.text);
      if (!again.ok || again.text !== f.text) problems.push("formatting is not idempotent");
      // Formatting must not change the model the text stands for.
      const before = modelFromText(t);
      const after = modelFromText(f.text);
      if (before.model && (!after.model || !sameBytes(encodeModel(before.model), encodeModel(after.model)))) problems.push("formatting changed the model");
      if (!before.model && after.model) problems.push("formatting turned an invalid model into a valid one");
      return problems;
    },
  },
];

/** The editor's parse in slices (a few tokens each here) gives what the parse at once gives. */
TEXT_TARGETS.push({
  name: "parse in steps",
  run: (t) => (isDeepStrictEqual(finish(parseModelSteps(t, 3)), parseModel(t)) ? [] : ["the parse in steps differs from parseModel"]),
});

/** One message list per diagnostic, with spans as offsets relative to `shift`. */
function diagnosticKeys(text: string, shift: number): string[] {
  return modelFromText(text).diagnostics.map((d) => `${d.code}@${d.span ? Math.max(0, d.span.start - shift) : "-"}: ${d.message}`);
}

/** #22 item 12: a byte order mark means to the editor what it means to `check` (nothing). */
TEXT_TARGETS.push({
  name: "byte order mark",
  run(t) {
    if (t.startsWith("\ufeff")) return [];
    const plain = diagnosticKeys(t, 0);
    const marked = diagnosticKeys(`\ufeff${t}`, 1);
    return plain.join("\n") === marked.join("\n")
      ? []
      : [`a leading byte order mark changes the diagnostics:\n${marked.slice(0, 3).join("\n")}\nvs\n${plain.slice(0, 3).join("\n")}`];
  },
});

export const BINARY_TARGETS: BinaryTarget[] = [
  {
    name: "decode+check+print",
    run(bytes) {
      let model;
      try {
        model = decodeModel(bytes);
      } catch (e) {
        if (e instanceof OnnxtxtError) return e.message.includes("\n") ? [`multi-line error: ${e.message}`] : [];
        throw e;
      }
      const checked = checkModel(model);
      return [...binaryDiagnosticProblems(checked), ...printProblems(model, checked)];
    },
  },
];
