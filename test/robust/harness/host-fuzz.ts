// Fuzzing host files (Python, C++, Markdown, JavaScript holding ONNX texts, issue #30): the
// test/embedded fixtures, mutated as text and with host syntax spliced in (quotes, raw-string
// delimiters, fences, escapes, markers), through findRegions, checkEmbedded and formatEmbedded.
// Nothing may throw; regions, maps and diagnostics stay inside the file; formatting is idempotent.
import * as fs from "node:fs";
import * as path from "node:path";
import { checkEmbedded, findRegions, formatEmbedded, type HostLanguage } from "../../../core/src/embedded/index.js";
import { REPO } from "../../helpers/paths.js";
import { mutateText } from "./mutate-text.js";
import { Rng } from "./rng.js";
import { textDiagnosticProblems } from "./invariants.js";

export interface HostFile {
  readonly language: HostLanguage;
  readonly text: string;
}

const LANGUAGES: Readonly<Record<string, HostLanguage>> = { py: "python", cc: "cpp", md: "markdown", mjs: "javascript" };

/** The fixtures of test/embedded/fixtures. */
export function hostCorpus(): HostFile[] {
  const dir = path.join(REPO, "test/embedded/fixtures");
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => ({ language: LANGUAGES[name.slice(name.lastIndexOf(".") + 1)]!, text: fs.readFileSync(path.join(dir, name), "utf8") }))
    .filter((f) => f.language !== undefined);
}

/** Host syntax that makes the finders take unusual paths. */
const HOST_FRAGMENTS = [
  '"""',
  "'''",
  '"',
  "'",
  "`",
  "${",
  "\\",
  "\\\n",
  "\\x4",
  "\\N{",
  'f"""{',
  'r"""',
  'R"ONNX(',
  ')ONNX"',
  'R"(',
  ')"',
  "```onnx\n",
  "```\n",
  "~~~onnx nodes\n",
  "   ```",
  "# onnxtxt: nodes\n",
  "// onnxtxt: graph\n",
  "parser.parse_model(",
  "parse_node(",
  ".FunctionBody(",
  '.Add("y = Relu (x)"',
  "OnnxParser p(",
  "textwrap.dedent(",
  " % ",
  " + ",
  ".format(",
  "onnx`",
  "onnx.nodes`",
  "/*",
  "\r\n",
  "\uFFFD",
  "\ud800",
];

export function mutateHost(file: HostFile, rng: Rng, texts: readonly string[]): HostFile {
  let text = rng.chance(0.5) ? mutateText(file.text, rng, texts) : file.text;
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const at = rng.int(text.length + 1);
    text = text.slice(0, at) + rng.pick(HOST_FRAGMENTS) + text.slice(at + (rng.chance(0.3) ? rng.int(8) : 0));
  }
  return { language: file.language, text };
}

/** The invariant violations of one host file. */
export function hostProblems(file: HostFile): string[] {
  const { text, language } = file;
  const problems: string[] = [];
  const inside = (s: { start: number; end: number }) => s.start >= 0 && s.start <= s.end && s.end <= text.length;
  const scan = findRegions(text, language);
  for (const r of scan.regions) {
    const { span, content } = r.literal;
    if (!inside(span) || !inside(content) || content.start < span.start || content.end > span.end)
      problems.push(`region ${r.index}: literal [${span.start}, ${span.end}) content [${content.start}, ${content.end}) outside the file (${text.length})`);
    for (let t = 0; t <= r.text.length; t += Math.max(1, r.text.length >> 6)) {
      const h = r.map.toHost(t);
      if (!(h >= content.start && h <= content.end)) problems.push(`region ${r.index}: text ${t} maps to ${h}, outside [${content.start}, ${content.end}]`);
    }
  }
  for (const s of scan.skipped) if (!inside(s.span)) problems.push(`skipped span [${s.span.start}, ${s.span.end}) outside the file`);
  problems.push(...textDiagnosticProblems(checkEmbedded(text, language).diagnostics, text.length));
  const once = formatEmbedded(text, language);
  const twice = formatEmbedded(once.text, language);
  if (twice.text !== once.text) problems.push(`formatting is not idempotent (${twice.changed} regions changed again)`);
  return problems;
}

export interface HostFuzzReport {
  readonly inputs: number;
  readonly failures: { readonly iteration: number; readonly problem: string; readonly input: HostFile }[];
}

export function runHostFuzz(options: { seed: number; count: number; timeMs?: number; hosts: readonly HostFile[]; slowMs?: number }): HostFuzzReport {
  const rng = new Rng(options.seed);
  const texts = options.hosts.map((h) => h.text);
  const failures: HostFuzzReport["failures"][number][] = [];
  const started = Date.now();
  let i = 0;
  for (; i < options.count; i++) {
    if (options.timeMs !== undefined && Date.now() - started > options.timeMs) break;
    const input = mutateHost(rng.pick(options.hosts), rng, texts);
    const t0 = performance.now();
    let problems: string[];
    try {
      problems = hostProblems(input);
    } catch (e) {
      problems = [e instanceof Error ? `threw ${e.name}: ${e.message}\n${e.stack?.split("\n").slice(1, 6).join("\n") ?? ""}` : `threw ${String(e)}`];
    }
    const ms = performance.now() - t0;
    if (options.slowMs !== undefined && ms > options.slowMs) problems.push(`took ${ms.toFixed(0)} ms`);
    for (const problem of problems) failures.push({ iteration: i, problem, input });
  }
  return { inputs: i, failures };
}
