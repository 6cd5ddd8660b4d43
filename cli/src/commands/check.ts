// `onnxtxt check FILE...`: reports every problem, one line each, as
// `FILE:LINE:COL: error: MESSAGE [code]`. Exit 1 if any file has an error, 0 otherwise.
// The stages are a list: syntax and lowering first, then each entry of MODEL_CHECKS on a model
// that lowered cleanly (the semantic checks plug in there).
import * as path from "node:path";
import type { Diagnostic, Severity } from "../../../grammar/src/diagnostics.js";
import type { ModelProto } from "../../../proto/src/index.js";
import type { SourceMap } from "../../../core/src/source-map.js";
import { modelFromText } from "../../../core/src/text.js";
import { decodeModel } from "../../../core/src/io/index.js";
import { flag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { printDiagnostics } from "../pretty.js";
import { FileError, readBytes, readText } from "../../../core/src/io/files.js";
import { checkEmbedded } from "../../../core/src/embedded/index.js";
import { hostLanguageOf } from "../embedded-input.js";
import { about, formatOf, textprotoModel } from "../model-files.js";
import { TextprotoError } from "../../../core/src/textproto/index.js";
import { jsonDiagnostics, sarifLog, type FileDiagnostics } from "../diagnostic-formats.js";
import { FORMAT_NAMES, sniffedName, sniffModel } from "../../../core/src/node/sniff.js";
import { toolVersion } from "../version.js";
import { reportFileError } from "../report.js";
import { checkModel } from "../../../core/src/check/index.js";
import { externalDataDiagnostics } from "../external-check.js";
import { pushAll } from "../../../core/src/arrays.js";
import { fixFile } from "../check-fix.js";
import { CONFIG_FLAGS, CONFIG_USAGE, configFinder } from "../config-files.js";
import { configuredDiagnostics } from "../../../core/src/config/index.js";
import { githubAnnotations } from "../github-annotations.js";

/** A check over a model; `sourceMap` is present for text input. */
interface ModelCheck {
  readonly name: string;
  run(model: ModelProto, sourceMap: SourceMap | undefined): Diagnostic[];
}

/** Checks run after parsing and lowering succeeded, in order. */
const MODEL_CHECKS: ModelCheck[] = [
  { name: "semantics", run: (model, sourceMap) => checkModel(model, { ...(sourceMap && { sourceMap }), suggestNames: true }) },
];

const USAGE = `usage: onnxtxt check [options] FILE...

Reports the problems of each .onnxtxt or .onnx file (- reads stdin), one per line on stderr:
FILE:LINE:COL: error: MESSAGE [code]. Exit code 1 if any file has an error.
Python, C/C++, Markdown and JavaScript files (.py, .cc, .h, .md, .ts, ...) have each ONNX text
they hold checked (parse_model("..."), R"ONNX(...)ONNX", \`\`\`onnx fences; see
docs/embedded.md), with positions in the file itself.

options:
  --format text|json|sarif|github
                            json: an array of {file, severity, code, message, line, column,
                            endLine, endColumn, where}; sarif: SARIF 2.1.0. Both on stdout,
                            with a summary line on stderr; an unreadable file is an error
                            with the code 'file'; github: GitHub Actions annotations on stdout
  --severity LEVEL          report only error, warning, info or hint and above (default hint)
  --ignore CODE             drop the diagnostics with this code (repeatable, or CODE,CODE)
  --fix                     first apply the safe quick fixes to each .onnxtxt file (in place,
                            keeping comments) and report each as FILE:LINE:COL: fixed CODE: WHAT;
                            safe fixes cannot change what the model computes: quoting a name,
                            a did-you-mean that differs in letter case only, removing a stale
                            residual or an unused value_info, declaring an output's inferred type
  --unsafe-fixes            with --fix, also the fixes that guess (other did-you-means),
                            change versions (adding or raising an opset_import, replacing a
                            removed op) or the declared interface (a declared type inference
                            proves wrong)
${CONFIG_USAGE}

The nearest onnxtxt.toml (or pyproject.toml with [tool.onnxtxt]) above each file selects the
rules, their severities and the excluded files (docs/lint.md); \`# onnxtxt: ignore[CODE]\` on a
line, or on the line before it, silences one place. --ignore and --severity apply after it.
--fix fixes only the problems that are reported after all of these.
Each code is explained by \`onnxtxt rules CODE\` (docs/rules/).`;

const SEVERITIES: readonly Severity[] = ["error", "warning", "info", "hint"];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

interface Checked {
  readonly text?: string;
  readonly diagnostics: Diagnostic[];
}

function checkFile(file: string, note: (m: string) => void): Checked {
  const host = hostLanguageOf(file);
  if (host) {
    const text = readText(file);
    return { text, diagnostics: checkEmbedded(text, host).diagnostics };
  }
  const bytes = readBytes(file);
  const claimed = formatOf(file);
  const sniffed = sniffModel(bytes, claimed);
  if (!sniffed.format) throw new FileError(file, `this file looks like ${sniffed.looksLike}`);
  if (claimed && (claimed !== sniffed.format || sniffed.textproto))
    note(`onnxtxt: ${file}: note: the name says ${FORMAT_NAMES[claimed]}, but the file looks like ${sniffedName(sniffed)}; checking it as such\n`);
  let model: ModelProto | undefined;
  let sourceMap: SourceMap | undefined;
  let text: string | undefined;
  const diagnostics: Diagnostic[] = [];
  if (sniffed.textproto) {
    // its errors are diagnostics of the text, FILE:LINE:COL like the syntax's own
    text = new TextDecoder("utf-8").decode(bytes);
    try {
      model = textprotoModel(file, text, note);
    } catch (e) {
      if (!(e instanceof TextprotoError)) throw e;
      return { text, diagnostics: [{ severity: "error", code: "syntax", message: e.reason, span: { start: e.offset, end: e.offset + 1 } }] };
    }
  } else if (sniffed.format === "onnxtxt") {
    text = new TextDecoder("utf-8").decode(bytes);
    const r = modelFromText(text);
    pushAll(diagnostics, r.diagnostics);
    model = r.model;
    sourceMap = r.sourceMap;
  } else {
    model = about(file, () => decodeModel(bytes));
  }
  if (model) for (const check of MODEL_CHECKS) pushAll(diagnostics, check.run(model, sourceMap));
  if (model) pushAll(diagnostics, externalDataDiagnostics(model, path.dirname(path.resolve(file)), sourceMap));
  return { ...(text !== undefined && { text }), diagnostics };
}

export const checkCommand: Command = {
  name: "check",
  summary: "report syntax errors (and other problems) in models",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, {
      format: { value: true },
      severity: { value: true },
      ignore: { value: true, repeat: true },
      fix: {},
      "unsafe-fixes": {},
      ...CONFIG_FLAGS,
    });
    if (args.positional.length === 0) throw new UsageError("no input files");
    const fix = args.flags.has("fix");
    if (args.flags.has("unsafe-fixes") && !fix) throw new UsageError("--unsafe-fixes needs --fix");
    if (fix && args.positional.includes("-")) throw new UsageError("--fix cannot rewrite stdin (-)");
    const format = flag(args, "format") ?? "text";
    if (format !== "text" && format !== "json" && format !== "sarif" && format !== "github")
      throw new UsageError(`--format must be text, json, sarif or github, not '${format}'`);
    const configs = configFinder(args);
    const severity = (flag(args, "severity") ?? "hint") as Severity;
    if (!SEVERITIES.includes(severity)) throw new UsageError(`--severity must be one of ${SEVERITIES.join(", ")}, not '${severity}'`);
    const ignored = new Set(
      (args.flags.get("ignore") ?? [])
        .flatMap((c) => c.split(","))
        .map((c) => c.trim())
        .filter((c) => c !== ""),
    );
    const shown = (d: Diagnostic) => SEVERITIES.indexOf(d.severity) <= SEVERITIES.indexOf(severity) && !ignored.has(d.code);
    let code = 0;
    const checked: FileDiagnostics[] = [];
    for (const file of args.positional) {
      try {
        const excludedBy = configs.excludedBy(file);
        if (excludedBy) {
          io.err(`onnxtxt: ${file}: skipped (excluded by ${excludedBy})\n`);
          continue;
        }
        const found = configs.forFile(file);
        const reported = (text: string | undefined, all: readonly Diagnostic[]) =>
          configuredDiagnostics(text, all, found?.config, found?.relPath).filter(shown);
        if (fix) fixFile(file, args.flags.has("unsafe-fixes"), reported, io);
        const r = checkFile(file, (m) => io.err(m));
        const diagnostics = reported(r.text, r.diagnostics);
        if (format === "text") printDiagnostics(io, file, r.text, diagnostics);
        else checked.push({ file, ...(r.text !== undefined && { text: r.text }), diagnostics });
        if (diagnostics.some((d) => d.severity === "error")) code = Math.max(code, 1);
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        reportFileError(io, e);
        // a file that cannot be read is a result too, for tools that read only the document
        if (format !== "text") checked.push({ file, diagnostics: [{ severity: "error", code: "file", message: e.message }] });
        code = 2;
      }
    }
    if (format === "text") return code;
    if (format === "github") io.out(githubAnnotations(checked));
    else io.out(JSON.stringify(format === "json" ? jsonDiagnostics(checked) : sarifLog(checked, toolVersion()), null, 2) + "\n");
    const all = checked.flatMap((c) => c.diagnostics);
    const count = (s: Severity) => all.filter((d) => d.severity === s).length;
    io.err(
      `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${plural(count("info") + count("hint"), "note")} in ${plural(checked.length, "file")}\n`,
    );
    return code;
  },
};
