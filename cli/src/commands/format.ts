// `onnxtxt format FILE...`: prints the formatted text to stdout; `--write` rewrites the
// files in place (atomically); `--check` lists the files that are not formatted (exit 1).
// Text with syntax errors is refused: exit 1, the file untouched, the errors shown.
import { hasFlag, parseArgs, UsageError } from "../args.js";
import { CONFIG_FLAGS, CONFIG_USAGE, configFinder } from "../config-files.js";
import type { Command } from "../command.js";
import { printDiagnostics } from "../pretty.js";
import { FileError, readText } from "../../../core/src/io/files.js";
import { writeOutput, yieldToSignals } from "../../../core/src/io/write-output.js";
import { reportFileError } from "../report.js";
import { formatText } from "../../../core/src/print/format.js";
import { formatHostFile } from "../format-embedded.js";
import { formatDiff } from "../format-diff.js";
import { hostLanguageOf } from "../embedded-input.js";
import { sniff } from "../../../core/src/node/sniff.js";

const USAGE = `usage: onnxtxt format [--write | --check [--diff]] FILE...

Formats .onnxtxt files (- reads stdin) in the canonical layout, keeping every comment,
blank lines between nodes, and numbers as written. Without options the result goes to stdout.
  --write  rewrite each file in place
  --check  write nothing; exit 1 and name each file that is not formatted
  --diff   with --check (which it implies), also print on stdout the unified diff
           the formatter would apply
In Python, C/C++, Markdown and JavaScript files each ONNX text is formatted in its string or
fence, keeping the file's indentation and quotes; a text the literal cannot hold unchanged
(escapes, a one-line string) is left as it is, with a note saying why.
${CONFIG_USAGE}
The nearest onnxtxt.toml (or pyproject.toml with [tool.onnxtxt]) gives the line width
(line-width) and the files not to format (exclude); see docs/lint.md.`;

export const formatCommand: Command = {
  name: "format",
  summary: "format .onnxtxt files (keeps comments)",
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { write: {}, check: {}, diff: {}, ...CONFIG_FLAGS });
    const write = hasFlag(args, "write");
    const diff = hasFlag(args, "diff");
    const check = hasFlag(args, "check") || diff;
    if (write && check) throw new UsageError(`--write and ${diff ? "--diff" : "--check"} exclude each other`);
    if (args.positional.length === 0) throw new UsageError("no input files");
    if (write && args.positional.includes("-")) throw new UsageError("--write cannot rewrite stdin (-); without --write the result goes to stdout");
    const configs = configFinder(args);
    let inputErrors = 0;
    let fileErrors = 0;
    for (const file of args.positional) {
      await yieldToSignals();
      try {
        const excludedBy = configs.excludedBy(file);
        if (excludedBy) {
          io.err(`onnxtxt: ${file}: skipped (excluded by ${excludedBy})\n`);
          if (!write && !check) io.out(readText(file));
          continue;
        }
        const width = configs.forFile(file)?.config.lineWidth;
        const host = hostLanguageOf(file);
        if (host) {
          const status = formatHostFile(file, host, { write, check, diff }, io, width);
          if (status > 0) inputErrors++;
          continue;
        }
        const text = readText(file);
        // protobuf text format is a model, not text in our syntax: say so once instead of a page of syntax errors
        if ("textproto" in sniff(new TextEncoder().encode(text.slice(0, 4096))))
          throw new FileError(
            file,
            `this file is protobuf text format, not the ONNX text syntax; \`onnxtxt print ${file} -o NEW.onnxtxt\` writes it in the ONNX text syntax`,
          );
        const r = formatText(text, width !== undefined ? { width } : {});
        if (!r.ok) {
          printDiagnostics(io, file, text, r.diagnostics);
          inputErrors++;
          continue;
        }
        if (check) {
          if (r.text !== text) {
            io.err(`${file}: not formatted\n`);
            if (diff) io.out(formatDiff(file, text, r.text));
            inputErrors++;
          }
        } else if (write) {
          if (r.text !== text) writeOutput(file, r.text);
        } else io.out(r.text);
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        reportFileError(io, e);
        fileErrors++;
      }
    }
    return fileErrors ? 2 : inputErrors ? 1 : 0;
  },
};
