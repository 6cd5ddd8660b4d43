// Issue 36's table: onnxtxt against onnx's C++ parser, printer and checker, whole processes run
// alternately (medians of --runs, default 7), each ratio beside its goal.
//  - parse and check references: Debian's onnx (python3-onnx, /usr/bin/python3), so their times
//    include Python's start-up, as onnx users pay it;
//  - onnxtxt runs as users run it: bin/onnxtxt.js as a program, which starts a command from its
//    start-up snapshot (cli/src/snapshot-request.ts); the snapshots are made before the timing;
//  - print reference: onnx's C++ printer called from Python as onnx.printer.to_text calls it
//    (bench/onnx-printer/to_text.py; Debian's onnx 1.12 has no printer module), and for
//    information the printer's own program with no Python around it; both built by
//    `npm run bench:onnx-printer ONNX_SRC OUT` from an onnx checkout, found through
//    ONNX_PRINTER=OUT/onnx-printer. Without it the print rows say "skipped".
// Every row's outputs are compared: the same ModelProto for convert; for print, our text reads
// back to the model and onnx's printer wrote a text; both checkers accepting ResNet-50.
// Usage: npm run build && [ONNX_PRINTER=OUT/onnx-printer] node dist/bench/onnx-table.js [--runs N]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { SNAPSHOT_COMMANDS } from "../cli/src/snapshot-request.js";
import { encodeModel } from "../core/src/io/index.js";
import { modelFromText } from "../core/src/text.js";
import type { ModelProto } from "../proto/src/index.js";
import { bigGraphText, bigTensorText, canonicalModel, sameModel } from "./parse-bench.js";
import { sideBySide, timeRun, type Timing } from "./process-timing.js";
import { numberArg } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "bin/onnxtxt.js");
const SNAPSHOT_WAIT_MS = 60_000;
const PYTHON = "/usr/bin/python3";
const RESNET = path.join(REPO, "test/data/light/light_resnet50.onnx");
const TO_TEXT = path.join(REPO, "bench/onnx-printer/to_text.py");

const PY_PARSE = `import sys, onnx.parser
m = onnx.parser.parse_model(open(sys.argv[1], encoding="utf-8").read())
open(sys.argv[2], "wb").write(m.SerializeToString())`;
const PY_CHECK = "import sys, onnx\nonnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)";

interface Row {
  readonly work: string;
  readonly goal?: number;
  readonly ours: readonly string[];
  readonly reference?: readonly string[];
  /** Why the reference is missing. */
  readonly skipped?: string;
  /** Runs after the timed runs: why the two outputs disagree, or undefined. */
  readonly compare?: () => string | undefined;
}

function parsed(text: string): ModelProto {
  const { model, diagnostics } = modelFromText(text);
  if (!model) throw new Error(`onnx-table: a text does not parse: ${diagnostics[0]?.message}`);
  return model;
}

/** Our printed text reads back to the model itself, and onnx's printer wrote something. */
function printedBack(model: string, ours: string, theirs: string): string | undefined {
  const back = canonicalModel(encodeModel(parsed(fs.readFileSync(ours, "utf8"))));
  if (!back.equals(canonicalModel(fs.readFileSync(model)))) return "onnxtxt's text reads back to another model";
  return fs.statSync(theirs).size > 0 ? undefined : "onnx's printer wrote nothing";
}

function rows(dir: string): Row[] {
  const file = (name: string) => path.join(dir, name);
  const texts: [string, string][] = [
    ["g50k", bigGraphText(50_000)],
    ["t2m", bigTensorText(2_000_000)],
    ["one", '<ir_version: 8, opset_import: ["" : 18]>\none (float[N] x) => (float[N] y) {\n  y = Relu (x)\n}\n'],
  ];
  for (const [name, text] of texts) {
    fs.writeFileSync(file(`${name}.onnxtxt`), text);
    fs.writeFileSync(file(`${name}.onnx`), encodeModel(parsed(text)));
  }
  const convert = (name: string, work: string, goal?: number, flags: readonly string[] = []): Row => ({
    work,
    ...(goal !== undefined && { goal }),
    ours: [CLI, "convert", ...flags, file(`${name}.onnxtxt`), file(`${name}.ours.onnx`)],
    reference: [PYTHON, "-c", PY_PARSE, file(`${name}.onnxtxt`), file(`${name}.ref.onnx`)],
    compare: () => (sameModel(file(`${name}.ours.onnx`), file(`${name}.ref.onnx`)) ? undefined : "different ModelProtos"),
  });
  const printer = process.env.ONNX_PRINTER;
  const printerLib = printer && path.join(path.dirname(printer), "lib/libonnx-bench-printer.so");
  const noPrinter = { skipped: "set ONNX_PRINTER (npm run bench:onnx-printer ONNX_SRC OUT)" };
  /** Printing the model `name` against onnx's C++ printer called from Python (`alone`: the printer's own program). */
  const print = (name: string, work: string, goal?: number, alone = false): Row => ({
    work,
    ...(goal !== undefined && { goal }),
    ours: [CLI, "print", file(`${name}.onnx`), "-o", file(`${name}.ours.onnxtxt`)],
    ...(!printer || !printerLib
      ? noPrinter
      : alone
        ? { reference: ["/bin/sh", "-c", 'exec "$0" "$1" > "$2"', printer, file(`${name}.onnx`), file(`${name}.ref.txt`)] }
        : { reference: [PYTHON, TO_TEXT, printerLib, file(`${name}.onnx`), file(`${name}.ref.txt`)] }),
    compare: () => printedBack(file(`${name}.onnx`), file(`${name}.ours.onnxtxt`), file(`${name}.ref.txt`)),
  });
  return [
    convert("g50k", "convert a 50k-node text to binary", 1.0),
    convert("g50k", "convert a 50k-node text, --no-check (onnx's parser does not check either)", undefined, ["--no-check"]),
    convert("t2m", "convert a text with 2M floats", 0.8),
    print("g50k", "print a 50k-node model", 0.8),
    print("t2m", "print 2M floats", 0.8),
    print("g50k", "print a 50k-node model, onnx's printer program alone (no Python)", undefined, true),
    print("t2m", "print 2M floats, onnx's printer program alone (no Python)", undefined, true),
    convert("one", "convert a one-node text", 0.8),
    { work: "`--version` vs `import onnx`", ours: [CLI, "--version"], reference: [PYTHON, "-c", "import onnx"] },
    {
      work: "check ResNet-50 vs check_model(full_check=True)",
      goal: 0.8,
      ours: [CLI, "check", RESNET],
      reference: [PYTHON, "-c", PY_CHECK, RESNET],
    },
  ];
}

/** Runs each of our commands until it starts from its snapshot (made in the background after a first run). */
function prepareSnapshots(table: readonly Row[]): void {
  const env = { ...process.env, ONNXTXT_TRACE_START: "1" };
  const fromSnapshot = (argv: readonly string[]): boolean =>
    spawnSync(argv[0]!, argv.slice(1), { env, encoding: "utf8" }).stderr.includes("started from the snapshot");
  const commands = table.map((row) => row.ours).filter((argv) => (SNAPSHOT_COMMANDS as readonly string[]).includes(argv[1]!));
  const deadline = Date.now() + SNAPSHOT_WAIT_MS;
  let waiting = commands.filter((argv) => !fromSnapshot(argv));
  while (waiting.length > 0 && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    waiting = waiting.filter((argv) => !fromSnapshot(argv));
  }
  for (const argv of waiting) console.log(`(no start-up snapshot for \`${argv.slice(1, 2).join(" ")}\` after ${SNAPSHOT_WAIT_MS / 1000} s: timed without)`);
}

const seconds = (t: Timing): string => `${(t.wall / 1000).toFixed(3)} s`;

function main(): number {
  const runs = numberArg("runs", 7);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-table-"));
  let misses = 0;
  try {
    const table = rows(dir);
    prepareSnapshots(table);
    console.log(
      `onnxtxt (Node ${process.version}, the one on PATH) against onnx (parse/check: Debian's python3-onnx; print: ONNX_PRINTER), medians of ${runs} alternating runs\n`,
    );
    console.log("| work | onnxtxt | onnx | ratio | goal | cpu ratio | outputs |");
    console.log("|---|---|---|---|---|---|---|");
    for (const row of table) {
      const [ours, ref] = row.reference
        ? sideBySide(runs, [() => timeRun(row.ours), () => timeRun(row.reference!)])
        : [sideBySide(runs, [() => timeRun(row.ours)])[0]!, undefined];
      const ratio = ref ? ours!.wall / ref.wall : NaN;
      const outputs = ref ? (row.compare?.() ?? "agree") : "";
      const met = row.goal === undefined || (ratio <= row.goal && outputs === "agree");
      if (!met) misses++;
      console.log(
        `| ${row.work} | ${seconds(ours!)} | ${ref ? seconds(ref) : (row.skipped ?? "")} | ${ref ? `**${ratio.toFixed(2)}**` : ""} | ${row.goal === undefined ? "" : `<= ${row.goal}${met ? "" : " (missed)"}`} | ${ref ? (ours!.cpu / ref.cpu).toFixed(2) : ""} | ${outputs} |`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return misses === 0 ? 0 : 1;
}

process.exitCode = main();
