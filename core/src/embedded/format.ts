// Formatting an embedded text in place. The text is formatted as its kind, then laid back into
// the literal with the host's indentation (the least indentation of its lines that start a host
// line), keeping the white space before the first and after the last character (the lines of
// the quotes). A literal whose content is not the text as written (escapes, joined pieces) or
// cannot hold the result unchanged (a line break in a one-line string, its closing quote) is
// left alone, with the reason.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { formatText, type FormatResult } from "../print/format.js";
import { formatFunctionText, formatGraphText, formatNodeText } from "../print-parts.js";
import type { Span } from "../../../grammar/src/span.js";
import { findRegions } from "./host.js";
import type { EmbeddedRegion, HostLanguage } from "./types.js";

export type RegionFormat =
  | { readonly ok: true /** The host edit; absent when the text is formatted already. */; readonly edit?: { readonly span: Span; readonly text: string } }
  | { readonly ok: false; readonly reason: string; readonly diagnostics: readonly Diagnostic[] };

/** `width`: the line width of the text itself (the host's indentation comes on top). */
interface FormatOptions {
  readonly width?: number;
}

const WRAP_OPEN = '<domain: "onnxtxt.embedded">\nembedded_body () => () {\n';

/** A node list formatted as a function body, without the function around it. */
function formatNodes(text: string, opts: FormatOptions): FormatResult {
  const braced = /^\s*(#[^\n]*\n\s*)*\{/.test(text);
  const source = braced ? `<domain: "onnxtxt.embedded">\nembedded_body () => () ${text}` : `${WRAP_OPEN}${text}\n}`;
  const shift = braced ? source.length - text.length : WRAP_OPEN.length;
  const r = formatFunctionText(source, opts);
  if (!r.ok)
    return {
      ok: false,
      diagnostics: r.diagnostics.map((d) => ({
        ...d,
        ...(d.span && { span: { start: Math.max(0, d.span.start - shift), end: Math.max(0, d.span.end - shift) } }),
      })),
    };
  const open = r.text.indexOf("{");
  const close = r.text.lastIndexOf("}");
  if (braced) return { ok: true, text: r.text.slice(open, close + 1) };
  // the body's lines, one indentation level out
  const body = r.text
    .slice(open + 1, close)
    .replace(/^\n/, "")
    .replace(/\n\s*$/, "");
  const indent = /^( *)/.exec(body)![1]!.length;
  return {
    ok: true,
    text: body
      .split("\n")
      .map((l) => l.slice(Math.min(indent, /^ */.exec(l)![0].length)))
      .join("\n"),
  };
}

function formatKind(region: EmbeddedRegion, opts: FormatOptions): FormatResult {
  switch (region.kind) {
    case "model":
      return formatText(region.text, opts);
    case "graph":
      return formatGraphText(region.text, opts);
    case "function":
      return formatFunctionText(region.text, opts);
    case "node":
      return formatNodeText(region.text, opts);
    case "nodes":
      return formatNodes(region.text, opts);
  }
}

/** The least indentation of the content's lines that start a host line (blank ones aside). */
function hostIndent(content: string): string {
  let best: string | undefined;
  const lines = content.split("\n");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (best === undefined || indent.length < best.length) best = indent;
  }
  return best ?? "";
}

export function formatRegion(host: string, region: EmbeddedRegion, opts: FormatOptions = {}): RegionFormat {
  const refuse = (reason: string, diagnostics: readonly Diagnostic[] = []): RegionFormat => ({ ok: false, reason, diagnostics });
  const lit = region.literal;
  const markdown = region.language === "markdown";
  if (!lit.verbatim && !markdown) return refuse("the string has escapes or is made of several pieces; formatting it would rewrite them");
  const r = formatKind(region, opts);
  if (!r.ok)
    return refuse(
      "the text has errors",
      r.diagnostics.map((d) => ({ ...d, ...(d.span && { span: region.map.spanToHost(d.span) }) })),
    );
  const content = host.slice(lit.content.start, lit.content.end);
  // CRLF only where every line break of the literal is one (a "\r" can also stand inside an ONNX string)
  const eol = content.includes("\r\n") && !/[^\r]\n/.test(content) && !r.text.includes("\r") ? "\r\n" : "\n";
  const lead = /^\s*/.exec(content)![0];
  const trail = content.trim() === "" ? "" : /\s*$/.exec(content)![0];
  const formatted = r.text.replace(/\n+$/, "").split("\n");
  let text: string;
  if (!lit.multiline || !content.includes("\n")) {
    if (formatted.length > 1)
      return refuse(
        lit.multiline
          ? "the text is on one line of its literal; formatting it would need line breaks"
          : "the formatted text needs line breaks, which this string cannot hold",
      );
    text = lead + formatted[0] + trail;
  } else {
    // markdown keeps the fence's indentation; other hosts the indentation of their lines
    const indent = markdown ? /^ */.exec(content)![0] : hostIndent(content);
    // the first line follows the opening quotes on their line, but in a fence it is a line of its own
    const lines = formatted.map((l, i) => (l === "" ? "" : (i === 0 && !lead.includes("\n") && !markdown ? "" : indent) + l));
    const leadLine = markdown ? "" : lead.includes("\n") ? lead.slice(0, lead.lastIndexOf("\n") + 1) : lead;
    text = leadLine + lines.join(eol) + (markdown ? eol : trail);
  }
  for (const f of lit.forbidden) if (text.includes(f)) return refuse(`the formatted text would hold ${JSON.stringify(f)}, which ends or changes this literal`);
  if (text === content) return { ok: true };
  return { ok: true, edit: { span: lit.content, text } };
}

export interface EmbeddedFormat {
  /** The host text with every region that could be formatted formatted. */
  readonly text: string;
  /** How many regions changed. */
  readonly changed: number;
  /** The regions left alone, and why. */
  readonly refused: readonly { readonly region: EmbeddedRegion; readonly reason: string; readonly diagnostics: readonly Diagnostic[] }[];
}

/** Formats every region of a host file. */
export function formatEmbedded(host: string, language: HostLanguage, opts: FormatOptions = {}): EmbeddedFormat {
  const scan = findRegions(host, language);
  const edits: { span: Span; text: string }[] = [];
  const refused: { region: EmbeddedRegion; reason: string; diagnostics: readonly Diagnostic[] }[] = [];
  for (const region of scan.regions) {
    const f = formatRegion(host, region, opts);
    if (!f.ok) refused.push({ region, reason: f.reason, diagnostics: f.diagnostics });
    else if (f.edit) edits.push(f.edit);
  }
  let text = host;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) text = text.slice(0, e.span.start) + e.text + text.slice(e.span.end);
  return { text, changed: edits.length, refused };
}
