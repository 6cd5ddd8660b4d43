// Text in, ModelProto out: lex + parse + lower in one call. `model` is given only when there is
// no error at all. With syntax errors, lowering still runs so that its errors in the statements
// the parser could read are reported in the same pass (the reference parser reports e.g. a float
// in an int list as a parse error); its messages inside broken statements would only echo the
// syntax error, so those are dropped.
import { innermost, pathAt, walkAst } from "../../grammar/src/ast-walk.js";
import type { Comment, Model } from "../../grammar/src/ast.js";
import type { Span } from "../../grammar/src/span.js";
import { hasErrors, type Diagnostic } from "../../grammar/src/diagnostics.js";
import { parseModel, parseModelStreaming } from "../../grammar/src/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { lowerWithResidual } from "./ext/lower-with-residual.js";
import { lowerModel, lowerModelWhileParsing, type LowerOptions } from "./lower/index.js";
import { SourceMap } from "./source-map.js";

export interface TextModel {
  readonly model?: ModelProto;
  readonly sourceMap: SourceMap;
  readonly diagnostics: Diagnostic[];
  readonly ast?: Model;
  readonly comments: Comment[];
}

export function modelFromText(text: string, options?: LowerOptions): TextModel {
  const parsed = parseModel(text);
  if (!parsed.ast) return { sourceMap: new SourceMap(), diagnostics: parsed.diagnostics, comments: parsed.comments };
  if (hasErrors(parsed.diagnostics)) {
    const broken = brokenStatements(parsed.ast, text, parsed.diagnostics);
    const lowered = lowerModel(parsed.ast, text, { ...options, sourceMap: false });
    const kept = lowered.diagnostics.filter((d) => d.span && !broken.some((b) => overlaps(b, d.span!)));
    const diagnostics = [...parsed.diagnostics, ...kept].sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
    return { sourceMap: new SourceMap(), diagnostics, ast: parsed.ast, comments: parsed.comments };
  }
  const lowered = lowerWithResidual(parsed.ast, parsed.comments, text, options); // lossless extensions (ext/)
  const diagnostics = [...parsed.diagnostics, ...lowered.lowering, ...lowered.residual];
  return {
    ...(!hasErrors(diagnostics) && { model: lowered.model }),
    sourceMap: lowered.sourceMap,
    diagnostics,
    ast: parsed.ast,
    comments: parsed.comments,
  };
}

/**
 * The model of a text when no syntax tree or source map is wanted (reading a model file: convert,
 * run, print...): the main graph's statements are lowered as the parser reads them, so on a big
 * graph the collector does not copy a tree that is of no use once lowered. Whenever that is not
 * the whole answer (any diagnostic, or a comment that may be a residual `#@`), the answer is
 * modelFromText's, from a second parse. The result has no `ast`.
 */
export function modelOnlyFromText(text: string): TextModel {
  const r = lowerModelWhileParsing(text, (sink) => parseModelStreaming(text, sink));
  const clean = r.parsed.diagnostics.length === 0 && r.diagnostics.length === 0 && !r.parsed.comments.some((c) => c.text.startsWith("@"));
  if (!r.model || !clean) {
    const { ast: _tree, ...full } = modelFromText(text, { sourceMap: false });
    return full;
  }
  return { model: r.model, sourceMap: new SourceMap(), diagnostics: [], comments: r.parsed.comments };
}

/**
 * For each syntax error, the statement it broke: the innermost node, value declaration or header
 * entry that contains it or ends before it on its line (recovery may close a statement just
 * before the offending token); else the enclosing graph or function.
 */
function brokenStatements(ast: Model, text: string, diagnostics: readonly Diagnostic[]): Span[] {
  const statements: Span[] = [];
  walkAst(ast, (n) => {
    if (n.kind === "Node" || n.kind === "ValueDecl" || n.kind === "HeaderEntry") statements.push(n.span);
  });
  return diagnostics
    .filter((d) => d.severity === "error" && d.span)
    .map((d) => {
      const at = d.span!.start;
      let best: Span | undefined;
      for (const s of statements) {
        const holds = s.start <= at && (at <= s.end || !text.slice(s.end, at).includes("\n"));
        if (holds && (!best || s.start >= best.start)) best = s;
      }
      return best ?? (innermost(pathAt(ast, at), "Graph", "Function") ?? ast).span;
    });
}

function overlaps(a: Span, b: Span): boolean {
  return a.start <= b.end && b.start <= a.end;
}
