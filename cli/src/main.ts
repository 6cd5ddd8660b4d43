// The `onnxtxt` command: dispatches to a subcommand and turns every failure into one line
// on stderr with a meaningful exit code (0 ok, 1 the input has errors, 2 usage or IO).
import * as fs from "node:fs";
import { UsageError } from "./args.js";
import type { Command, Output } from "./command.js";
import { InputError } from "../../core/src/node/input-error.js";
import { DEFAULT_MAX_ERRORS, printReport, takeDiagnosticFlags } from "./pretty.js";
import { FileError } from "../../core/src/io/files.js";
import { reportFileError } from "./report.js";
import { ConfigFileError } from "./config-files.js";
import { describeError } from "../../core/src/io/index.js";
import { escapeControls } from "./terminal-text.js";
import { toolVersion } from "./version.js";

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
  { name: "diff", load: async () => (await import("./commands/diff.js")).diffCommand },
  { name: "rules", load: async () => (await import("./commands/rules.js")).rulesCommand },
  { name: "git-setup", load: async () => (await import("./commands/git-setup.js")).gitSetupCommand },
  { name: "playground", load: async () => (await import("./commands/playground.js")).playgroundCommand },
  { name: "upgrade", load: async () => (await import("./commands/upgrade.js")).upgradeCommand },
  { name: "downgrade", load: async () => (await import("./commands/upgrade.js")).downgradeCommand },
];

/** For a command's start-up snapshot (cli/src/snapshot-builder.ts): loads it and runs its core work once. */
export async function warmUp(command: string): Promise<void> {
  await COMMANDS.find((c) => c.name === command)?.load();
  (await import("./warm-up.js")).warmUp(command);
}

async function help(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `onnxtxt ${toolVersion()}: a toolchain for the ONNX text format

usage: onnxtxt COMMAND [OPTIONS] [FILES]

commands:
${lines.join("\n")}

Run 'onnxtxt COMMAND --help' for a command's options.
Every command takes --color auto|always|never (colour on a terminal unless NO_COLOR; FORCE_COLOR
forces it) and --max-errors N (per file; default ${DEFAULT_MAX_ERRORS} on a terminal, all when piped).
Exit codes: 0 ok, 1 the input has errors, 2 usage or file errors.
`;
}

export async function main(argv: readonly string[], io: Output): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" && rest.length > 0) return main([rest[0]!, "--help"], io);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(await help());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.out(toolVersion() + "\n");
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
    return await command.run(takeDiagnosticFlags(rest, process.env, io.interactive), io);
  } catch (e) {
    if (e instanceof UsageError) {
      // the usage lines only (the options are one --help away)
      const usage = command.usage.slice(0, command.usage.indexOf("\n\n") >>> 0);
      io.err(`onnxtxt ${command.name}: ${e.message}\n${usage}\nRun 'onnxtxt ${command.name} --help' for the options.\n`);
      return 2;
    }
    if (e instanceof InputError) {
      printReport(io, e.report);
      return 1;
    }
    if (e instanceof FileError) {
      reportFileError(io, e);
      return 2;
    }
    if (e instanceof ConfigFileError) {
      io.err(`${e.message}\n`);
      return 2;
    }
    io.err(`onnxtxt ${command.name}: internal error: ${describeError(e)}\n`);
    return 2;
  }
}

/** Writes all of `bytes` to `fd` now; a non-blocking pipe that is full is waited for. */
function writeAllSync(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(process.exitCode ?? 0);
      if (code !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * stdout and stderr of the process. A reader that stops early (`print | head`, `q` in less)
 * closes the pipe: that ends the command quietly, as for other Unix tools. Messages have their
 * control characters escaped (they quote names from the model); so does stdout on a terminal.
 */
export function processOutput(): Output {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  const outIsTerminal = Boolean(process.stdout.isTTY);
  return {
    out: (t) => void process.stdout.write(outIsTerminal && typeof t === "string" ? escapeControls(t) : t),
    outSync: (bytes) => writeAllSync(1, bytes),
    err: (t) => void process.stderr.write(escapeControls(t)),
    status: (t) => void process.stderr.write(t),
    interactive: Boolean(process.stderr.isTTY),
    outIsTerminal,
  };
}
