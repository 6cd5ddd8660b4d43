// The embedded-text extractor over source trees given by path (an onnx and an onnxscript
// checkout; nothing of theirs is copied here): regions per host and kind, skipped texts per
// reason, how many parse with no syntax error, what `check` flags (by code), and for Python
// regions onnx's own parser (Debian's onnx 1.12, /usr/bin/python3) on the same texts.
// Usage: npm run bench:embedded-corpus -- TREE...
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { checkRegion, findRegions, hostLanguageOfPath, type EmbeddedRegion, type HostLanguage } from "../../core/src/embedded/index.js";

const SKIP_DIRS = new Set([".git", "node_modules", "build", ".tox", ".venv", "__pycache__"]);
const PYTHON = "/usr/bin/python3";

function* files(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

class Counter extends Map<string, number> {
  add(key: string, n = 1): void {
    this.set(key, (this.get(key) ?? 0) + n);
  }
  print(title: string, limit = 40): void {
    console.log(title);
    const rows = [...this.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    for (const [k, v] of rows.slice(0, limit)) console.log(`  ${String(v).padStart(6)}  ${k}`);
    if (rows.length > limit) console.log(`  ... ${rows.length - limit} more`);
    if (rows.length === 0) console.log("  (none)");
  }
}

interface Seen {
  readonly file: string;
  readonly region: EmbeddedRegion;
  readonly syntax: string | undefined;
}

/** onnx 1.12's verdict on each Python region, or undefined when python3/onnx is missing. */
function onnxVerdicts(regions: readonly Seen[]): (string | null)[] | undefined {
  if (spawnSync(PYTHON, ["-c", "import onnx.parser"]).status !== 0) return undefined;
  const input = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "embedded-corpus-")), "regions.json");
  fs.writeFileSync(input, JSON.stringify(regions.map((s) => ({ kind: s.region.kind, text: s.region.text }))));
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../bench/embedded-corpus/verdicts.py");
  const r = spawnSync(PYTHON, [script, input], { encoding: "utf8", maxBuffer: 256 << 20 });
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`verdicts.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as (string | null)[];
}

/** A message with its names and numbers blanked, to group disagreements by cause. */
const cause = (m: string): string => m.replace(/'[^']*'|"[^"]*"|\d+/g, "_").slice(0, 110);

function main(trees: readonly string[]): void {
  if (trees.length === 0) {
    console.error("usage: npm run bench:embedded-corpus -- TREE...  (e.g. an onnx and an onnxscript checkout)");
    process.exit(2);
  }
  const perKind = new Counter();
  const skipped = new Counter();
  const flags = new Counter();
  const flaggedRegions = new Counter();
  const seen: Seen[] = [];
  let hostFiles = 0;
  let withRegions = 0;
  const t0 = performance.now();
  for (const tree of trees) {
    for (const file of files(tree)) {
      const language: HostLanguage | undefined = hostLanguageOfPath(file);
      if (!language) continue;
      hostFiles++;
      const text = fs.readFileSync(file, "utf8");
      const scan = findRegions(text, language);
      if (scan.regions.length > 0) withRegions++;
      for (const s of scan.skipped) skipped.add(`${language}: ${s.reason}`);
      for (const region of scan.regions) {
        perKind.add(`${language} ${region.kind} (${region.origin.replace(/^[#/]+ onnxtxt: .*/, "marker")})`);
        const diagnostics = checkRegion(region);
        const syntax = diagnostics.find((d) => d.code === "syntax");
        seen.push({ file: path.relative(tree, file), region, syntax: syntax?.message });
        const codes = new Set<string>();
        for (const d of diagnostics) if (d.code !== "syntax" && d.severity !== "hint") codes.add(`${d.severity} ${d.code}`);
        for (const c of codes) flaggedRegions.add(c);
        for (const d of diagnostics) if (d.code !== "syntax" && d.severity !== "hint") flags.add(`${d.severity} ${d.code}`);
      }
    }
  }
  const ms = performance.now() - t0;
  console.log(`${hostFiles} host files in ${trees.join(", ")}; ${withRegions} with regions; ${seen.length} regions; find + check ${(ms / 1000).toFixed(1)} s`);
  perKind.print("regions per host, kind (origin):");
  skipped.print("skipped per reason:");
  const clean = seen.filter((s) => s.syntax === undefined).length;
  console.log(`no syntax error: ${clean} of ${seen.length}`);
  const syntaxCauses = new Counter();
  for (const s of seen) if (s.syntax) syntaxCauses.add(`${s.region.language} ${s.region.kind}: ${cause(s.syntax)}`);
  syntaxCauses.print("our syntax errors by cause:", 25);
  flags.print("check flags (diagnostics other than syntax) by severity and code:");
  flaggedRegions.print("regions with at least one such flag, by code:");

  const python = seen.filter((s) => s.region.language === "python");
  const verdicts = onnxVerdicts(python);
  if (!verdicts) {
    console.log(`onnx 1.12 oracle: skipped (${PYTHON} cannot import onnx.parser)`);
    return;
  }
  const agree = new Counter();
  const weReject = new Counter();
  const weAccept = new Counter();
  const examples: string[] = [];
  python.forEach((s, i) => {
    const theirs = verdicts[i] ?? null;
    const ours = s.syntax === undefined;
    if (ours === (theirs === null)) agree.add(ours ? "both accept" : "both reject");
    else if (ours) {
      weAccept.add(`${s.region.kind}: ${theirs!.split(" | ")[0]}`);
      if (examples.length < 12) examples.push(`  onnx 1.12 rejects, we accept: ${s.file} region ${s.region.index}: ${theirs}`);
    } else {
      weReject.add(`${s.region.kind}: ${cause(s.syntax!)}`);
      if (examples.length < 12) examples.push(`  onnx 1.12 accepts, we reject: ${s.file} region ${s.region.index}: ${s.syntax}`);
    }
  });
  console.log(`onnx 1.12's parser on the ${python.length} Python regions:`);
  agree.print("agreements:");
  weReject.print("onnx 1.12 accepts, we report a syntax error (by our message):");
  weAccept.print("onnx 1.12 rejects, we report none (by its message; 1.12 predates much of the 1.23 syntax):");
  if (examples.length > 0) console.log(`examples:\n${examples.join("\n")}`);
}

main(process.argv.slice(2));
