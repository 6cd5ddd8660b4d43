// Opset conversion of model text that keeps the layout and comments of every statement that
// did not change: changed node statements are replaced by their new nodes printed, the opset
// and IR version numbers are edited in place. When the edited text would not read back as the
// converted model, the whole model is printed canonically instead (and `canonical` says so).
import { equals } from "@bufbuild/protobuf";
import type { Span } from "../../../grammar/src/span.js";
import { ModelProtoSchema, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { printNode } from "../print-parts.js";
import { printModel } from "../print-model.js";
import type { SourceMap } from "../source-map.js";
import { modelFromText } from "../text.js";
import { convertOpset } from "./convert.js";
import { OpsetError } from "./errors.js";
import type { ConvertOpsetOptions, OpsetConversion } from "./report.js";

export interface TextConversion {
  readonly conversion: OpsetConversion;
  readonly text: string;
  /** True when the text had to be printed canonically (comments and layout not kept). */
  readonly canonical: boolean;
}

interface Edit {
  readonly span: Span;
  readonly text: string;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function nodeEdits(text: string, conversion: OpsetConversion, map: SourceMap): Edit[] | undefined {
  const edits: Edit[] = [];
  for (const [node, repl] of conversion.replacements) {
    // Edit the changed statements inside a subgraph, not the whole statement holding it.
    if (conversion.viaSubgraphs.has(node)) continue;
    const span = map.get(node)?.whole;
    if (!span) return undefined;
    if (repl.length === 0) {
      // The whole line goes when the statement is alone on it.
      const start = lineStart(text, span.start);
      const end = text.indexOf("\n", span.end);
      const alone = text.slice(start, span.start).trim() === "" && text.slice(span.end, end < 0 ? text.length : end).trim() === "";
      edits.push(alone ? { span: { start, end: end < 0 ? text.length : end + 1 }, text: "" } : { span, text: "" });
      continue;
    }
    const indent = text.slice(lineStart(text, span.start), span.start).match(/^\s*/)![0];
    let printed: string[];
    try {
      printed = repl.map((n: NodeProto) => printNode(n).trimEnd().split("\n").join(`\n${indent}`));
    } catch {
      return undefined; // a node that needs an extension comment: only the whole model can say it
    }
    edits.push({ span, text: printed.join(`\n${indent}`) });
  }
  return edits;
}

function versionEdits(text: string, before: ModelProto, after: ModelProto, map: SourceMap): Edit[] | undefined {
  const edits: Edit[] = [];
  const lists = [[before.opsetImport, after.opsetImport], ...before.functions.map((f, i) => [f.opsetImport, after.functions[i]?.opsetImport ?? []] as const)];
  for (const [was, now] of lists) {
    was.forEach((o, i) => {
      const v = now[i];
      if (!v || v.version === o.version) return;
      const span = map.get(o)?.whole;
      const m = span && /\d+\s*$/.exec(text.slice(span.start, span.end));
      if (!span || !m) return;
      edits.push({ span: { start: span.start + m.index, end: span.start + m.index + m[0].trimEnd().length }, text: String(v.version) });
    });
  }
  if (after.irVersion !== before.irVersion) {
    const graphAt = before.graph ? (map.get(before.graph)?.whole.start ?? text.length) : text.length;
    const m = /ir_version\s*:\s*(\d+)/.exec(text.slice(0, graphAt));
    if (!m) return undefined;
    const at = m.index + m[0].length - m[1]!.length;
    edits.push({ span: { start: at, end: at + m[1]!.length }, text: String(after.irVersion) });
  }
  return edits;
}

function apply(text: string, edits: Edit[]): string {
  // Edits inside another edit (a subgraph's node inside its rewritten parent) are covered by it.
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const kept: Edit[] = [];
  for (const e of sorted) if (!kept.some((k) => k.span.start <= e.span.start && e.span.end <= k.span.end)) kept.push(e);
  let out = text;
  for (const e of kept.reverse()) out = out.slice(0, e.span.start) + e.text + out.slice(e.span.end);
  return out;
}

/** Converts model text to opset `target`; throws {@link OpsetError} when the text does not read as a model. */
export function convertOpsetText(text: string, target: number, options: Omit<ConvertOpsetOptions, "sourceMap"> = {}): TextConversion {
  const parsed = modelFromText(text);
  if (!parsed.model) throw new OpsetError(parsed.diagnostics.find((d) => d.severity === "error")?.message ?? "the text is not a model");
  const conversion = convertOpset(parsed.model, target, { ...options, sourceMap: parsed.sourceMap });
  const nodes = nodeEdits(text, conversion, parsed.sourceMap);
  const versions = versionEdits(text, parsed.model, conversion.model, parsed.sourceMap);
  if (nodes && versions) {
    const edited = apply(text, [...nodes, ...versions]);
    const again = modelFromText(edited).model;
    if (again && equals(ModelProtoSchema, again, conversion.model)) return { conversion, text: edited, canonical: false };
  }
  return { conversion, text: printModel(conversion.model), canonical: true };
}
