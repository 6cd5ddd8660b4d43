// The `onnxtxt` command: dispatches to a subcommand and turns every failure into one line
// on stderr with a meaningful exit code (0 ok, 1 the input has errors, 2 usage or IO).
import { createRequire } from "node:module";
import { UsageError } from "./args.js";
import type { Command, Output } from "./command.js";
import { InputError } from "./diagnostic-lines.js";
import { FileError } from "./files.js";
import { reportFileError } from "./report.js";
import { describeError } from "../io/index.js";

/**
 * Each command's module is imported only when it runs (or for --help): the interpreter, the
 * checker and the printer are not loaded to convert a file, which keeps start-up short.
 */
interface CommandEntry {
  readonly name: string;
  load(): Promise<Command>;
}

const COMMANDS: readonly CommandEntry[] = [
  { name: "convert", load: async () => (await import("./commands/convert.js")).convertCommand },
  { name: "print", load: async () => (await import("./commands/print.js")).printCommand },
  { name: "format", load: async () => (await import("./commands/format.js")).formatCommand },
  { name: "check", load: async () => (await import("./commands/check.js")).checkCommand },
  { name: "infer", load: async () => (await import("./commands/infer.js")).inferCommand },
  { name: "run", load: async () => (await import("./commands/run.js")).runCommand },
  { name: "graph", load: async () => (await import("./commands/graph.js")).graphCommand },
];

function version(): string {
  const pkg = createRequire(import.meta.url)("../../../../package.json") as { version: string };
  return pkg.version;
}

async function help(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
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
    io.out(await help());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.out(version() + "\n");
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(`onnxtxt: unknown command '${name}'; run 'onnxtxt --help' for the list\n`);
    return 2;
  }
  const command = await entry.load();
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
