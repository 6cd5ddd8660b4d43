// The text report of `onnxtxt diff`: one entry per change, marked + added, - removed,
// ~ changed, > moved or renamed, with FILE:LINE:COL in both inputs and the change's details.
// Coloured for a terminal; the model's own text is escaped first, so only our escapes remain.
import type { Change, ModelDiff, Place } from "../../core/src/diff/index.js";
import { escapeControls } from "./terminal-text.js";

type Label = "added" | "removed" | "moved" | "renamed" | "changed";

const MARKS: Readonly<Record<Label, [string, string]>> = {
  added: ["+", "32"],
  removed: ["-", "31"],
  moved: [">", "36"],
  renamed: [">", "36"],
  changed: ["~", "33"],
};

function labelOf(c: Change): Label {
  if (c.kind.endsWith("-added")) return "added";
  if (c.kind.endsWith("-removed")) return "removed";
  if (c.kind === "node-moved") return "moved";
  if (c.kind === "value-renamed") return "renamed";
  return "changed";
}

function where(file: string, p: Place | undefined): string | undefined {
  if (!p) return undefined;
  return p.line !== undefined ? `${file}:${p.line}:${p.column}` : `${file}: ${p.path}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function diffReport(diff: ModelDiff, files: { a: string; b: string }, colour: boolean): string {
  if (diff.equal) return "";
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const safe = (text: string) => (colour ? escapeControls(text) : text);
  const out: string[] = [];
  const canonical = [diff.placesA === "canonical" ? files.a : undefined, diff.placesB === "canonical" ? files.b : undefined].filter((f) => f !== undefined);
  if (canonical.length > 0) out.push(paint("2", safe(`(lines of ${canonical.join(" and ")} are those of \`onnxtxt print\`)`)));
  for (const c of diff.changes) {
    const [mark, code] = MARKS[labelOf(c)];
    const places = [where(files.a, c.a), where(files.b, c.b)].filter((p) => p !== undefined);
    if (c.kind === "value-renamed") {
      // renames are many and simple: one line each
      out.push(`${paint(code, mark)} ${safe(c.message)}  ${paint("2", safe(places.join("  ")))}`);
      continue;
    }
    out.push(`${paint(code, `${mark} ${safe(c.message)}`)}`);
    for (const p of places) out.push(`    ${paint("2", safe(p))}`);
    const paths = [c.a?.line !== undefined ? c.a.path : undefined, c.b?.line !== undefined && c.b.path !== c.a?.path ? c.b.path : undefined];
    for (const p of paths) if (p !== undefined && p.includes(" / ") && p.split(" / ").length > 2) out.push(`    ${paint("2", safe(`in ${p}`))}`);
    if (c.details && c.details.length > 1) for (const d of c.details) out.push(`    ${safe(d)}`);
  }
  const counts = new Map<Label, number>();
  for (const c of diff.changes) counts.set(labelOf(c), (counts.get(labelOf(c)) ?? 0) + 1);
  const parts = (Object.keys(MARKS) as Label[]).filter((l) => counts.has(l)).map((l) => `${counts.get(l)} ${l}`);
  out.push(`${plural(diff.changes.length, "change")}: ${parts.join(", ")}`);
  return `${out.join("\n")}\n`;
}
