// Finds the ONNX texts of a JavaScript or TypeScript file: templates tagged with the library's
// `onnx` tag (or `onnx.model`, `onnx.graph`, `onnx.function`, `onnx.node`, `onnx.nodes`). A template
// with `${...}` holes is made at run time and is skipped.
import { MapBuilder } from "./offset-map.js";
import { finishRegions, type RegionDraft } from "./regions.js";
import { sniffKind } from "./sniff.js";
import type { EmbeddedKind, HostScan, SkippedRegion } from "./types.js";

const TAG = /\bonnx(?:\.(model|graph|function|nodes|node))?\s*`/g;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "`": "`", $: "$", "'": "'", '"': '"', "0": "\0", b: "\b", f: "\f", v: "\v" };

export function findJavaScriptRegions(src: string): HostScan {
  const drafts: RegionDraft[] = [];
  const skipped: SkippedRegion[] = [];
  if (!src.includes("onnx")) return { language: "javascript", regions: [], skipped };
  TAG.lastIndex = 0;
  for (let m = TAG.exec(src); m; m = TAG.exec(src)) {
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
    const named = m[1] as EmbeddedKind | undefined;
    drafts.push({
      language: "javascript",
      kind: named ?? sniffKind(text),
      kindSource: named ? "call" : "content",
      text,
      map,
      literal: { span, content: { start: tick + 1, end: i }, verbatim: src.slice(tick + 1, i) === text, multiline: true, forbidden: ["`", "\\", "${"] },
      context: {},
      origin: m[0].slice(0, -1).trim() + "`",
    });
  }
  return { language: "javascript", regions: finishRegions(drafts), skipped };
}
