// `onnxtxt git-setup`: makes git show .onnx files as text. A diff driver `onnx` whose textconv
// is `onnxtxt print --plain` goes into the repository's .git/config, and `*.onnx diff=onnx`
// into its .gitattributes; then `git diff`, `git log -p` and `git show` print the models' texts
// and diff those. Running it again changes nothing. It says what it did.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { FileError } from "../../../core/src/io/files.js";
import { writeOutput } from "../../../core/src/io/write-output.js";
import { flag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";

const USAGE = `usage: onnxtxt git-setup [--command CMD] [DIR]

Sets up the git repository at DIR (default: the current folder) so that git diff, git log -p
and git show print .onnx files as text (onnxtxt print --plain --quiet) and diff the texts:
  .git/config      [diff "onnx"] textconv = CMD print --plain --quiet
  .gitattributes   *.onnx diff=onnx
CMD defaults to this onnxtxt, by its absolute path (so git finds it without PATH); give
--command onnxtxt to use the one on PATH. Safe to run again: what is there already is kept.
A model's external data is shown as its reference (location, offset, length).`;

export const ATTRIBUTE_LINE = "*.onnx diff=onnx";

/** A shell word for `s` (git runs textconv through the shell). */
function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** This process's own command line: node and the entry script. */
function thisCommand(): string {
  const script = process.argv[1];
  return script ? `${shellQuote(process.execPath)} ${shellQuote(path.resolve(script))}` : "onnxtxt";
}

function git(dir: string, args: readonly string[]): string {
  try {
    return execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (e) {
    const err = e as { code?: string; stderr?: string };
    if (err.code === "ENOENT") throw new FileError(dir, "git is not installed (or not on PATH)");
    throw new FileError(dir, (err.stderr ?? String(e)).trim().split("\n")[0] ?? "git failed");
  }
}

/** `text` of a .gitattributes with `line` in it: unchanged when it is there already. */
export function withAttributeLine(text: string, line: string): string {
  if (text.split(/\r?\n/).some((l) => l.trim() === line)) return text;
  return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${line}\n`;
}

export const gitSetupCommand: Command = {
  name: "git-setup",
  summary: "make git diff and git log -p show .onnx files as text",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, { command: { value: true } });
    if (args.positional.length > 1) throw new UsageError("expected at most one folder");
    const dir = path.resolve(args.positional[0] ?? ".");
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new FileError(dir, "is not a folder");
    const top = git(dir, ["rev-parse", "--show-toplevel"]);
    const textconv = `${flag(args, "command") ?? thisCommand()} print --plain --quiet`;
    const before = (() => {
      try {
        return execFileSync("git", ["config", "--local", "--get", "diff.onnx.textconv"], {
          cwd: top,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }).trim();
      } catch {
        return undefined;
      }
    })();
    if (before !== textconv) git(top, ["config", "--local", "diff.onnx.textconv", textconv]);
    const config = git(top, ["rev-parse", "--git-path", "config"]);
    io.err(
      before === textconv
        ? `onnxtxt git-setup: ${config}: diff.onnx.textconv is already '${textconv}'\n`
        : `onnxtxt git-setup: ${config}: set diff.onnx.textconv = ${textconv}${before ? ` (was '${before}')` : ""}\n`,
    );
    const attributes = path.join(top, ".gitattributes");
    const old = fs.existsSync(attributes) ? fs.readFileSync(attributes, "utf8") : "";
    const next = withAttributeLine(old, ATTRIBUTE_LINE);
    if (next !== old) {
      writeOutput(attributes, next);
      io.err(`onnxtxt git-setup: ${attributes}: added '${ATTRIBUTE_LINE}' (commit it to share the setting)\n`);
    } else io.err(`onnxtxt git-setup: ${attributes}: '${ATTRIBUTE_LINE}' is there already\n`);
    io.err("onnxtxt git-setup: git diff, git log -p and git show now print .onnx files as text (onnxtxt diff A B compares two models by structure)\n");
    return 0;
  },
};
