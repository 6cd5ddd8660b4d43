// Finds the ONNX texts of a Markdown file: fenced code blocks whose info string starts with
// `onnx`, `onnxtxt` or `onnx-text` (a second word may name the kind: "```onnx graph"). As in
// CommonMark, a fence may be indented up to three spaces and that indentation is removed from
// its lines; a fence that is never closed is reported, not read to the end of the file.
import { MapBuilder } from "./offset-map.js";
import { finishRegions, type RegionDraft } from "./regions.js";
import { sniffKind } from "./sniff.js";
import { EMBEDDED_KINDS, type EmbeddedKind, type HostScan, type SkippedRegion } from "./types.js";

const OPEN = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[ \t]*([^`\n]*)$/;
const LANGUAGES = new Set(["onnx", "onnxtxt", "onnx-text"]);

interface Line {
  readonly start: number;
  /** Without its line break. */
  readonly end: number;
  readonly text: string;
}

function* lines(src: string): Generator<Line> {
  let start = 0;
  while (start < src.length) {
    let nl = src.indexOf("\n", start);
    if (nl < 0) nl = src.length;
    const end = nl > start && src[nl - 1] === "\r" ? nl - 1 : nl;
    yield { start, end, text: src.slice(start, end) };
    start = nl + 1;
  }
}

export function findMarkdownRegions(src: string): HostScan {
  if (!src.includes("```") && !src.includes("~~~")) return { language: "markdown", regions: [], skipped: [] };
  const drafts: RegionDraft[] = [];
  const skipped: SkippedRegion[] = [];
  let open: { line: Line; indent: number; fence: string; kind?: EmbeddedKind; content: Line[]; onnx: boolean; info: string } | undefined;
  for (const line of lines(src)) {
    if (!open) {
      const m = OPEN.exec(line.text);
      if (!m || (m[2]![0] === "`" && m[4]!.includes("`"))) continue;
      const info = (m[3] ?? "").toLowerCase();
      const word = (m[4] ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
      open = {
        line,
        indent: m[1]!.length,
        fence: m[2]!,
        content: [],
        onnx: LANGUAGES.has(info),
        info,
        ...((EMBEDDED_KINDS as readonly string[]).includes(word) && { kind: word as EmbeddedKind }),
      };
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line.text);
    if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
      if (open.onnx) drafts.push(region(src, open.content, open.indent, open.kind, open.info, line.start, open.line.end));
      open = undefined;
      continue;
    }
    open.content.push(line);
  }
  if (open?.onnx) skipped.push({ language: "markdown", span: { start: open.line.start, end: src.length }, reason: "the fence is never closed" });
  return { language: "markdown", regions: finishRegions(drafts), skipped };
}

function region(
  src: string,
  content: readonly Line[],
  indent: number,
  named: EmbeddedKind | undefined,
  info: string,
  closeAt: number,
  openEnd: number,
): RegionDraft {
  const out = new MapBuilder();
  let stripped = false;
  for (const line of content) {
    let from = line.start;
    for (let k = 0; k < indent && src[from] === " "; k++) from++;
    if (from > line.start) stripped = true;
    out.copy(src, from, line.end);
    // the line break as written (a \r\n stays one break of two characters in the host)
    const next = src.indexOf("\n", line.end);
    if (next >= 0) out.copy(src, line.end, next + 1);
  }
  const contentStart = content[0]?.start ?? Math.min(openEnd + 1, closeAt);
  const { text, map } = out.finish(contentStart);
  return {
    language: "markdown",
    kind: named ?? sniffKind(text),
    kindSource: named ? "fence" : "content",
    text,
    map,
    literal: {
      span: { start: contentStart, end: closeAt },
      content: { start: contentStart, end: closeAt },
      verbatim: !stripped && !text.includes("\r"),
      multiline: true,
      forbidden: ["```", "~~~"],
    },
    context: {},
    origin: "```" + info,
  };
}
