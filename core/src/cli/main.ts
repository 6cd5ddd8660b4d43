// The `onnxtxt` command: dispatches to a subcommand and turns every failure into one line
// on stderr with a meaningful exit code (0 ok, 1 the input has errors, 2 usage or IO).
import { createRequire } from "node:module";
import { UsageError } from "./args.js";
import type { Command, Output } from "./command.js";
import { checkCommand } from "./commands/check.js";
import { convertCommand } from "./commands/convert.js";
import { printCommand } from "./commands/print.js";
import { formatCommand } from "./commands/format.js";
import { inferCommand } from "./commands/infer.js";
import { runCommand } from "./commands/run.js";
import { InputError } from "./diagnostic-lines.js";
import { FileError } from "./files.js";
import { reportFileError } from "./report.js";
import { describeError } from "../io/index.js";

const COMMANDS: readonly Command[] = [convertCommand, printCommand, formatCommand, checkCommand, inferCommand, runCommand];

function version(): string {
  const pkg = createRequire(import.meta.url)("../../../../package.json") as { version: string };
  return pkg.version;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `onnxtxt ${version()}: a toolchain for the ONNX text format

usage: onnxtxt COMMAND [OPTIONS] [FILES]

commands:
${lines.join("\n")}

Run 'onnxtxt COMMAND --help' for a command's options.
Exit codes: 0 ok, 1 the input has errors, 2 usage or file errors.
`;
}

export async function main(argv: readonly string[], io: Output): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.out(version() + "\n");
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`onnxtxt: unknown command '${name}'; run 'onnxtxt --help' for the list\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(command.usage + "\n");
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`onnxtxt ${command.name}: ${e.message}\n${command.usage}\n`);
      return 2;
    }
    if (e instanceof InputError) {
      io.err(e.report);
      return 1;
    }
    if (e instanceof FileError) {
      reportFileError(io, e);
      return 2;
    }
    io.err(`onnxtxt ${command.name}: internal error: ${describeError(e)}\n`);
    return 2;
  }
}

export function processOutput(): Output {
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    interactive: Boolean(process.stderr.isTTY),
  };
}
