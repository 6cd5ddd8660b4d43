// Machine-readable diagnostics for `onnxtxt check --format json|sarif`: one JSON document on
// stdout for all files. Lines and columns are 1-based (UTF-16 columns, as the text lines);
// binary input has no position, only `where` (a path in the model).
import type { Diagnostic, Severity } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import type { Span } from "../../grammar/src/span.js";
import { ruleDocOf, ruleUrl } from "../../core/src/check/rule-docs.js";

export interface FileDiagnostics {
  readonly file: string;
  readonly text?: string;
  readonly diagnostics: readonly Diagnostic[];
}

interface JsonDiagnostic {
  file: string;
  severity: Severity;
  code: string;
  message: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  where?: string;
  related?: JsonRelated[];
}

interface JsonRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

interface JsonRelated extends JsonRange {
  message: string;
}

function jsonRange(index: LineIndex, span: Span): JsonRange {
  const s = index.position(span.start);
  const e = index.position(span.end);
  return { line: s.line + 1, column: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
}

export function jsonDiagnostics(files: readonly FileDiagnostics[]): JsonDiagnostic[] {
  const out: JsonDiagnostic[] = [];
  for (const f of files) {
    const index = f.text === undefined ? undefined : new LineIndex(f.text);
    for (const d of f.diagnostics) {
      const j: JsonDiagnostic = { file: f.file, severity: d.severity, code: d.code, message: d.message };
      if (d.span && index) Object.assign(j, jsonRange(index, d.span));
      if (d.where) j.where = d.where;
      if (d.related && index) j.related = d.related.map((r) => ({ message: r.message, ...jsonRange(index, r.span) }));
      out.push(j);
    }
  }
  return out;
}

const SARIF_LEVEL: Readonly<Record<Severity, string>> = { error: "error", warning: "warning", info: "note", hint: "note" };

/** A SARIF reportingDescriptor: the code, with its summary and page when it has one. */
function sarifRule(id: string): object {
  const doc = ruleDocOf(id);
  const helpUri = ruleUrl(id);
  return { id, ...(doc && { shortDescription: { text: doc.summary } }), ...(helpUri && { helpUri }) };
}

/** SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/): one run, one rule per code. */
export function sarifLog(files: readonly FileDiagnostics[], version: string): object {
  const diagnostics = jsonDiagnostics(files);
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const results = diagnostics.map((d) => {
    const artifactLocation = { uri: encodeURI(d.file.split("\\").join("/")) };
    return {
      ruleId: d.code,
      ruleIndex: codes.indexOf(d.code),
      level: SARIF_LEVEL[d.severity],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation,
            ...(d.line !== undefined && { region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn } }),
          },
          ...(d.where !== undefined && { logicalLocations: [{ fullyQualifiedName: d.where }] }),
        },
      ],
      ...(d.related && {
        relatedLocations: d.related.map((r, id) => ({
          id,
          message: { text: r.message },
          physicalLocation: {
            artifactLocation,
            region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
          },
        })),
      }),
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: { name: "onnxtxt", version, informationUri: "https://github.com/onnx/onnx/blob/main/docs/Syntax.md", rules: codes.map(sarifRule) },
        },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
}
