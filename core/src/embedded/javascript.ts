// Finds the ONNX texts of a JavaScript or TypeScript file: templates tagged with the library's
// `onnx` tag (or `onnx.model`, `onnx.graph`, `onnx.function`, `onnx.node`, `onnx.nodes`). A template
// with `${...}` holes is made at run time and is skipped.
import { MapBuilder } from "./offset-map.js";
import { finishRegions, type RegionDraft } from "./regions.js";
import type { EmbeddedKind, HostScan, SkippedRegion } from "./types.js";

const TAG = /\bonnx(?:\.(model|graph|function|nodes|node))?\s*`/g;

/**
 * Where the code's comments and quoted strings end, so that a tag written in them (a comment
 * that shows `onnx\`...\``, a string that holds one) is not read as a template: the end of the
 * comment or string starting at each offset, for the ones before `limit`. Templates are left to
 * the caller (their holes nest); a `/` that starts a regular expression is read as division.
 */
function nonCode(src: string): Map<number, number> {
  const out = new Map<number, number>();
  const n = src.length;
  for (let i = 0; i < n; i++) {
    const c = src[i];
    let end: number | undefined;
    if (c === "/" && src[i + 1] === "/") {
      const nl = src.indexOf("\n", i);
      end = nl < 0 ? n : nl;
    } else if (c === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      end = close < 0 ? n : close + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      end = Math.min(j + 1, n);
    } else if (c === "`") {
      // an untagged template's text is skipped too; its holes are code but rarely hold a tag
      let j = i + 1;
      while (j < n && src[j] !== "`") j += src[j] === "\\" ? 2 : 1;
      if (!/\bonnx(?:\.\w+)?\s*$/.test(src.slice(Math.max(0, i - 20), i))) end = Math.min(j + 1, n);
      else i = j;
    }
    if (end !== undefined) {
      out.set(i, end);
      i = end - 1;
    }
  }
  return out;
}

/** Whether `at` lies in a comment or a quoted string. */
function inNonCode(ranges: ReadonlyMap<number, number>, sorted: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  const start = sorted[lo - 1];
  return start !== undefined && at < ranges.get(start)!;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "`": "`", $: "$", "'": "'", '"': '"', "0": "\0", b: "\b", f: "\f", v: "\v" };

export function findJavaScriptRegions(src: string): HostScan {
  const drafts: RegionDraft[] = [];
  const skipped: SkippedRegion[] = [];
  if (!src.includes("onnx")) return { language: "javascript", regions: [], skipped };
  const ranges = nonCode(src);
  const starts = [...ranges.keys()];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(src); m; m = TAG.exec(src)) {
    if (inNonCode(ranges, starts, m.index)) continue;
    const tick = m.index + m[0].length - 1;
    const out = new MapBuilder();
    let run = tick + 1;
    let i = run;
    let holes = false;
    for (; i < src.length && src[i] !== "`"; i++) {
      if (src[i] === "$" && src[i + 1] === "{") holes = true;
      if (src[i] !== "\\") continue;
      out.copy(src, run, i);
      const e = src[i + 1] ?? "";
      out.escape(e === "\n" ? "" : (ESCAPES[e] ?? e), i, i + 2);
      i++;
      run = i + 1;
    }
    const end = Math.min(i + 1, src.length);
    const span = { start: m.index, end };
    TAG.lastIndex = end;
    if (i >= src.length) {
      skipped.push({ language: "javascript", span, reason: "the template is not terminated" });
      break;
    }
    if (holes) {
      skipped.push({ language: "javascript", span, reason: "a template with ${...} holes: its text is made at run time" });
      continue;
    }
    out.copy(src, run, i);
    const { text, map } = out.finish(tick + 1);
    // the bare tag reads a model (onnxtxt's `onnx` tag); sniffing is only for other tags' look-alikes
    const named = (m[1] ?? "model") as EmbeddedKind;
    drafts.push({
      language: "javascript",
      kind: named,
      kindSource: "call",
      text,
      map,
      literal: { span, content: { start: tick + 1, end: i }, verbatim: src.slice(tick + 1, i) === text, multiline: true, forbidden: ["`", "\\", "${"] },
      context: {},
      origin: m[0].slice(0, -1).trim() + "`",
    });
  }
  return { language: "javascript", regions: finishRegions(drafts), skipped };
}
