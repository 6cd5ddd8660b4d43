// What the finders report: ONNX texts embedded in other files (Python and C/C++ string literals,
// Markdown fences, JavaScript templates), each with its kind and a map back to the host file.
import type { Span } from "../../../grammar/src/span.js";
import type { OffsetMap } from "./offset-map.js";

/** The languages whose files can hold ONNX texts. */
export type HostLanguage = "python" | "cpp" | "markdown" | "javascript";

/**
 * What the text is, as the parser entry that reads it: a whole model (`parse_model`), one graph
 * (`parse_graph`), one function (`parse_function`), one node (`parse_node`) or a list of nodes
 * (a function body, with or without its braces).
 */
export type EmbeddedKind = "model" | "graph" | "function" | "node" | "nodes";

export const EMBEDDED_KINDS: readonly EmbeddedKind[] = ["model", "graph", "function", "node", "nodes"];

/** How the kind was decided: by the call or marker that names it, or from the text itself. */
export type KindSource = "call" | "marker" | "fence" | "content";

/** What the host says about the text's surroundings, as onnx's parser gets them. */
export interface EmbeddedContext {
  /** The default-domain opset the text is read at (a `FunctionBody(..., 18)` or its schema's version). */
  readonly opset?: number;
  /** More arguments follow the text (`builder.Add("y = Cast (x)", "to", T)`): attributes may come from outside. */
  readonly attributesFromOutside?: boolean;
}

/** The literal that holds the text, for writing a changed text back. */
export interface HostLiteral {
  /** The whole literal, quotes and prefix included. */
  readonly span: Span;
  /** The content between the delimiters (what `EmbeddedRegion.map` maps into). */
  readonly content: Span;
  /** True when the content is the text as written: no escapes, no joined pieces, no stripped indentation. */
  readonly verbatim: boolean;
  /** True when the literal may hold line breaks (triple quotes, raw strings, fences, templates). */
  readonly multiline: boolean;
  /** Strings the content must not hold (the closing delimiter, a backslash in an escaping string). */
  readonly forbidden: readonly string[];
}

export interface EmbeddedRegion {
  /** Position among the file's regions, from 0, in file order. */
  readonly index: number;
  readonly language: HostLanguage;
  readonly kind: EmbeddedKind;
  readonly kindSource: KindSource;
  /** The text as the parser sees it (escapes decoded, pieces joined, fence indentation removed). */
  readonly text: string;
  /** Offsets of `text` <-> offsets of the host file. */
  readonly map: OffsetMap;
  readonly literal: HostLiteral;
  readonly context: EmbeddedContext;
  /** What recognised it, for messages: `parse_model`, `R"ONNX(`, "```onnx", `# onnxtxt: graph`... */
  readonly origin: string;
}

/** A text that would be a region but cannot be read as written (an f-string with fields...). */
export interface SkippedRegion {
  readonly language: HostLanguage;
  /** The literal in the host file. */
  readonly span: Span;
  readonly reason: string;
}

export interface HostScan {
  readonly language: HostLanguage;
  readonly regions: readonly EmbeddedRegion[];
  readonly skipped: readonly SkippedRegion[];
}
