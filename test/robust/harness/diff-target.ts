// `onnxtxt diff` under fuzzing: whatever model an input reads to, the diff of it against
// itself (as text and as its binary) says equal, its unified diff is empty, and the diff
// against a copy with one node dropped and one attribute changed runs to the end with every
// place inside the text it points into. An OnnxtxtError (too deep a nesting) is an answer too.
import { clone } from "@bufbuild/protobuf";
import { diffModels, unifiedDiff } from "../../../core/src/diff/index.js";
import { decodeModel, OnnxtxtError } from "../../../core/src/io/index.js";
import { modelFromText } from "../../../core/src/text.js";
import { ModelProtoSchema, type ModelProto } from "../../../proto/src/index.js";
import type { Change, DiffSide } from "../../../core/src/diff/index.js";
import type { BinaryTarget, TextTarget } from "./targets.js";

/** A copy with one node dropped and one attribute changed; undefined when protobuf-es cannot copy it (a name with a lone surrogate). */
function changed(model: ModelProto): ModelProto | undefined {
  let out: ModelProto;
  try {
    out = clone(ModelProtoSchema, model);
  } catch (e) {
    if (e instanceof Error && e.name === "FieldValueInvalidError") return undefined;
    throw e;
  }
  const nodes = out.graph?.node ?? [];
  if (nodes.length > 0) nodes.splice(nodes.length >> 1, 1);
  const attr = nodes.find((n) => n.attribute.length > 0)?.attribute[0];
  if (attr) attr.i += 1n;
  return out;
}

/** Places in A must lie in A's text (B's point into B's canonical text, which is not at hand). */
function placeProblems(c: Change, textLength: number | undefined): string[] {
  const problems: string[] = [];
  if ((c.a && c.a.path === "") || (c.b && c.b.path === "")) problems.push(`${c.kind}: a place without a path`);
  for (const p of [c.a]) {
    if (!p) continue;
    if (p.span && textLength !== undefined && (p.span.start < 0 || p.span.end > textLength || p.span.start > p.span.end))
      problems.push(`${c.kind}: span ${p.span.start}-${p.span.end} outside the text (${textLength})`);
  }
  return problems;
}

function diffProblems(side: DiffSide, textLength: number | undefined): string[] {
  try {
    const problems: string[] = [];
    const self = diffModels(side, side.model);
    if (!self.equal) problems.push(`a model differs from itself: ${self.changes[0]?.message}`);
    const u = unifiedDiff(side.model, side.model, { a: "a", b: "b" });
    if (u !== "") problems.push("the unified diff of a model with itself is not empty");
    const copy = changed(side.model);
    if (copy) for (const c of diffModels(side, copy).changes) problems.push(...placeProblems(c, textLength));
    return problems;
  } catch (e) {
    if (e instanceof OnnxtxtError) return e.message.includes("\n") ? [`multi-line error: ${e.message}`] : [];
    throw e;
  }
}

export const DIFF_TEXT_TARGET: TextTarget = {
  name: "diff",
  run(t) {
    const r = modelFromText(t);
    if (!r.model) return [];
    return diffProblems({ model: r.model, text: t, sourceMap: r.sourceMap }, t.length);
  },
};

export const DIFF_BINARY_TARGET: BinaryTarget = {
  name: "diff",
  run(bytes) {
    let model: ModelProto;
    try {
      model = decodeModel(bytes);
    } catch (e) {
      if (e instanceof OnnxtxtError) return [];
      throw e;
    }
    return diffProblems({ model }, undefined);
  },
};
