// File-system and protocol attacks for `npm run fuzz` (issue #22): hostile external data and
// input files, hostile output targets, signals in the middle of a write, and malformed LSP
// params. Each attack builds a scene in a fresh folder, runs the real CLI (or language server)
// as a child process, and checks the invariants: no hang, exit 0/1/2 with one-line errors and
// no stack trace, hostile data refused, special files and files outside never replaced, no
// temp file left behind, the server never failing internally.
import { externalAddModel } from "./external-model.js";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema, TensorProtoSchema } from "../../../proto/src/index.js";
import { encodeModel } from "../../../core/src/io/index.js";
import { LspClient, RpcError } from "../../server/lsp-client.js";
import { CLI } from "../../helpers/paths.js";
import { Rng } from "./rng.js";

export interface AttackFailure {
  readonly attack: string;
  readonly iteration: number;
  readonly scene: string;
  readonly problem: string;
}

export interface AttackReport {
  readonly attacks: number;
  readonly failures: AttackFailure[];
}

const HANG_MS = 20_000;
const N = 64;

function weights(seed: number): Uint8Array {
  return new Uint8Array(new Float32Array(Array.from({ length: N }, (_, i) => i * 0.5 + seed)).buffer);
}

/** y = x + w with w external at `location`; x an input fed from input_0.pb. */
function externalModel(location: string, offset: number, length: number): Uint8Array {
  return encodeModel(externalAddModel(N, location, offset, length));
}

interface Ran {
  status: number | null;
  signal: string | null;
  stderr: string;
  timedOut: boolean;
}

function cli(args: readonly string[], cwd: string): Ran {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: HANG_MS, maxBuffer: 1 << 26 });
  return { status: r.status, signal: r.signal, stderr: r.stderr ?? "", timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT" };
}

/** Problems every CLI run must not have. */
function runProblems(r: Ran): string[] {
  const out: string[] = [];
  if (r.timedOut) out.push(`hung for ${HANG_MS} ms`);
  else if (r.status === null || r.status > 2) out.push(`ended with status ${r.status} signal ${r.signal}`);
  if (/^\s+at |internal error|Error:/m.test(r.stderr)) out.push(`stack trace or internal error:\n${r.stderr.slice(0, 600)}`);
  return out;
}

function hiddenFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith("."));
}

type Plant = (file: string, dir: string, outside: string) => { hostile: boolean; what: string };

/** What a data or input file can be: fine, or one of the attacks of #22 item 6. */
const PLANTS: readonly Plant[] = [
  (f) => {
    fs.writeFileSync(f, weights(1));
    return { hostile: false, what: "a regular file" };
  },
  (f) => {
    fs.writeFileSync(f, weights(1).subarray(0, 100));
    return { hostile: true, what: "a short file" };
  },
  (f, _d, o) => {
    fs.writeFileSync(o, weights(2));
    fs.linkSync(o, f);
    return { hostile: true, what: "a hard link to a file outside" };
  },
  (f, _d, o) => {
    fs.writeFileSync(o, weights(2));
    fs.symlinkSync(o, f);
    return { hostile: true, what: "a symlink out of the folder" };
  },
  (f) => {
    fs.symlinkSync("/dev/zero", f);
    return { hostile: true, what: "a symlink to /dev/zero" };
  },
  (f) => {
    spawnSync("mkfifo", [f]);
    return { hostile: true, what: "a FIFO" };
  },
  (f) => {
    fs.mkdirSync(f);
    return { hostile: true, what: "a folder" };
  },
  () => {
    return { hostile: true, what: "nothing" };
  },
  (f, d) => {
    fs.writeFileSync(path.join(d, "inner.bin"), weights(3));
    fs.symlinkSync("inner.bin", f);
    return { hostile: false, what: "a symlink inside the folder" };
  },
];

function attackExternalData(rng: Rng, dir: string): { scene: string; problems: string[] } {
  const m = path.join(dir, "m");
  fs.mkdirSync(m);
  const outside = path.join(dir, "outside.bin");
  const plant = rng.pick(PLANTS);
  const planted = plant(path.join(m, "w.bin"), m, outside);
  const badRange = rng.chance(0.15);
  fs.writeFileSync(path.join(m, "model.onnx"), externalModel("w.bin", badRange ? 4 + rng.int(400) : 0, N * 4));
  const inputs = path.join(m, "test_data_set_0");
  fs.mkdirSync(inputs);
  const inputPlant = rng.chance(0.5) ? rng.pick(PLANTS) : undefined;
  const inputFile = path.join(inputs, "input_0.pb");
  let inputHostile = false;
  let inputUnclear = false;
  if (inputPlant) {
    const p = inputPlant(inputFile, inputs, path.join(dir, "outside.pb"));
    // A short input file is just a bad tensor: it may decode, or not.
    inputUnclear = p.what === "a short file";
    inputHostile = p.hostile && p.what !== "nothing" && !inputUnclear;
    // A regular input file must hold a tensor, not weights.
    if (!p.hostile && fs.lstatSync(inputFile).isFile())
      fs.writeFileSync(inputFile, toBinary(TensorProtoSchema, create(TensorProtoSchema, { dataType: 1, dims: [BigInt(N)], rawData: weights(4) })));
  }
  const other = path.join(dir, "other");
  fs.mkdirSync(other);
  const model = path.join(m, "model.onnx");
  const command = rng.pick([
    ["run", model, "--quiet", ...(inputPlant ? ["--input-dir", inputs] : [])],
    ["convert", model, path.join(other, "out.onnxtxt")],
    ["convert", model, path.join(other, "out.onnx")],
    ["print", "-o", path.join(other, "out.onnxtxt"), model],
    ["check", model],
  ]);
  const scene = `external data: ${planted.what}${badRange ? " (range past the end)" : ""}; input_0.pb: ${inputPlant ? "planted" : "none"}; onnxtxt ${command.join(" ")}`;
  const r = cli(command, dir);
  const problems = runProblems(r);
  const hostile = planted.hostile || badRange || (command[0] === "run" && inputHostile);
  if (hostile && r.status === 0)
    problems.push(`accepted ${planted.what}${badRange ? " with a bad range" : ""}${inputHostile ? " or a hostile input file" : ""}`);
  if (!hostile && !(command[0] === "run" && inputUnclear) && r.status !== 0) problems.push(`refused a well-formed model: ${r.stderr.slice(0, 300)}`);
  if (hiddenFiles(dir).length > 0) problems.push(`left temp files: ${hiddenFiles(dir).join(", ")}`);
  return { scene, problems };
}

function attackOutput(rng: Rng, dir: string): { scene: string; problems: string[] } {
  const model = path.join(dir, "model.onnx");
  fs.writeFileSync(model, externalModel("w.bin", 0, N * 4));
  fs.writeFileSync(path.join(dir, "w.bin"), weights(5));
  const victim = path.join(dir, "victim.txt");
  fs.writeFileSync(victim, "precious");
  const out = path.join(dir, "out.onnxtxt");
  let cat: ReturnType<typeof spawn> | undefined;
  const kind = rng.pick(["missing", "regular", "link to /dev/null", "FIFO", "dangling link", "folder", "planted temp links"] as const);
  if (kind === "regular") fs.writeFileSync(out, "old");
  if (kind === "link to /dev/null") fs.symlinkSync("/dev/null", out);
  if (kind === "FIFO") {
    spawnSync("mkfifo", [out]);
    cat = spawn("cat", [out], { stdio: "ignore" });
  }
  if (kind === "dangling link") fs.symlinkSync(path.join(dir, "nowhere"), out);
  if (kind === "folder") fs.mkdirSync(out);
  if (kind === "planted temp links") for (let i = 0; i < 50; i++) fs.symlinkSync(victim, path.join(dir, `.out.onnxtxt.${process.pid + i}.${i % 3}.tmp`));
  const command = rng.pick([
    ["print", "-o", out, model],
    ["print", "--external-data", "16", "-o", out, model],
    ["convert", "--external-data", "16", model, out],
    ["convert", model, out],
  ]);
  const scene = `output: ${kind}; onnxtxt ${command.join(" ")}`;
  const r = cli(command, dir);
  cat?.kill();
  const problems = runProblems(r);
  const mustFail = kind === "dangling link" || kind === "folder";
  if (mustFail && r.status === 0) problems.push("wrote through or over what it must not");
  if (!mustFail && r.status !== 0) problems.push(`failed: ${r.stderr.slice(0, 300)}`);
  if (fs.readFileSync(victim, "utf8") !== "precious") problems.push("wrote through a planted link");
  if (kind === "FIFO" && !fs.lstatSync(out).isFIFO()) problems.push("replaced the FIFO");
  if (kind === "link to /dev/null" && !fs.lstatSync(out).isSymbolicLink()) problems.push("replaced the link to /dev/null");
  if (!fs.statSync("/dev/null").isCharacterDevice()) problems.push("/dev/null is no longer a device");
  const temps = hiddenFiles(dir).filter((f) => !f.endsWith(".tmp") || !fs.lstatSync(path.join(dir, f)).isSymbolicLink());
  if (temps.length > 0) problems.push(`left temp files: ${temps.join(", ")}`);
  return { scene, problems };
}

async function attackSignal(rng: Rng, dir: string): Promise<{ scene: string; problems: string[] }> {
  const big = new Uint8Array(new Float32Array(Array.from({ length: 1_500_000 }, (_, i) => Math.sin(i))).buffer);
  const model = path.join(dir, "big.onnx");
  fs.writeFileSync(
    model,
    encodeModel(
      create(ModelProtoSchema, {
        irVersion: 10n,
        opsetImport: [{ domain: "", version: 21n }],
        graph: { name: "g", initializer: [{ name: "w", dataType: 1, dims: [1_500_000n], rawData: big }] },
      }),
    ),
  );
  const out = path.join(dir, "out");
  fs.mkdirSync(out);
  const signal = rng.pick(["SIGINT", "SIGTERM", "SIGHUP"] as const);
  const delay = rng.int(1500);
  const external = rng.chance(0.5);
  const args = external ? ["convert", "--external-data", "1k", model, path.join(out, "big.onnxtxt")] : ["convert", model, path.join(out, "big.onnx")];
  const child = spawn(process.execPath, [CLI, ...args], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, delay));
  child.kill(signal);
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.on("exit", r)));
  const problems: string[] = [];
  const temps = hiddenFiles(out);
  if (temps.length > 0) problems.push(`left temp files after ${signal}: ${temps.join(", ")}`);
  const written = path.join(out, external ? "big.onnxtxt" : "big.onnx");
  if (!external && fs.existsSync(written) && fs.statSync(written).size !== fs.statSync(model).size) problems.push("left a partial output");
  return { scene: `${signal} after ${delay} ms: onnxtxt ${args.join(" ")}`, problems };
}

/** A random value where a well-formed one belongs: the malformed params of #22 item 14. */
function junk(rng: Rng): unknown {
  return rng.pick<unknown>([
    null,
    "x",
    "zz",
    0,
    -1,
    1.5,
    2 ** 53,
    true,
    [],
    [1, 2],
    {},
    { line: null },
    { text: null },
    { start: null, end: null },
    { uri: 5 },
    "\u0000",
    { line: -1, character: "0" },
  ]);
}

/** Replaces one random field (at any depth) of `params` by junk; sometimes the whole params. */
function corrupt(params: unknown, rng: Rng): unknown {
  if (rng.chance(0.15) || typeof params !== "object" || params === null) return junk(rng);
  const copy = structuredClone(params) as Record<string, unknown>;
  const keys = Object.keys(copy);
  const key = rng.pick(keys);
  copy[key] = rng.chance(0.5) ? junk(rng) : corrupt(copy[key], rng);
  return copy;
}

const LSP_TEXT = `<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] a, float[2] b) => (float[2] s) {\n  s = Add (a, b)\n}\n`;

async function attackLsp(rng: Rng, client: LspClient, iteration: number): Promise<{ scene: string; problems: string[] }> {
  const uri = `file:///fuzz/lsp-${iteration}.onnxtxt`;
  const doc = { uri };
  const pos = { line: rng.int(4), character: rng.int(20) };
  const range = { start: { line: 0, character: 0 }, end: pos };
  const requests: [string, unknown][] = [
    ["textDocument/hover", { textDocument: doc, position: pos }],
    ["textDocument/definition", { textDocument: doc, position: pos }],
    ["textDocument/references", { textDocument: doc, position: pos, context: { includeDeclaration: true } }],
    ["textDocument/completion", { textDocument: doc, position: pos }],
    ["textDocument/signatureHelp", { textDocument: doc, position: pos }],
    ["textDocument/rename", { textDocument: doc, position: pos, newName: "z" }],
    ["textDocument/prepareRename", { textDocument: doc, position: pos }],
    ["textDocument/documentHighlight", { textDocument: doc, position: pos }],
    ["textDocument/formatting", { textDocument: doc, options: { tabSize: 2, insertSpaces: true } }],
    ["textDocument/rangeFormatting", { textDocument: doc, range, options: { tabSize: 2, insertSpaces: true } }],
    ["textDocument/codeAction", { textDocument: doc, range, context: { diagnostics: [{ range, message: "m" }] } }],
    ["textDocument/inlayHint", { textDocument: doc, range }],
    ["textDocument/semanticTokens/full", { textDocument: doc }],
    ["textDocument/foldingRange", { textDocument: doc }],
    ["textDocument/codeLens", { textDocument: doc }],
    ["workspace/symbol", { query: "g" }],
    ["workspace/executeCommand", { command: "onnxtxt.run", arguments: [{ uri }] }],
  ];
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: LSP_TEXT } });
  const problems: string[] = [];
  const scenes: string[] = [];
  const logsBefore = client.notifications.length;
  for (let k = 0; k < 6; k++) {
    if (rng.chance(0.2)) {
      const change = corrupt({ textDocument: { uri, version: 2 + k }, contentChanges: [{ range, text: "x" }] }, rng);
      scenes.push(`didChange ${JSON.stringify(change)}`);
      client.notify("textDocument/didChange", change);
      continue;
    }
    const [method, params] = rng.pick(requests);
    const bad = corrupt(params, rng);
    scenes.push(`${method} ${JSON.stringify(bad)}`);
    const answer = await Promise.race([
      client.request(method, bad).then(
        () => undefined,
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r("timeout"), HANG_MS)),
    ]);
    if (answer === "timeout") problems.push(`${method}: no answer in ${HANG_MS} ms`);
    else if (answer instanceof RpcError && answer.code === -32603) problems.push(`${method}: InternalError ${answer.message}`);
    else if (answer instanceof RpcError && answer.message.includes("\n")) problems.push(`${method}: a multi-line error: ${answer.message}`);
    else if (answer instanceof Error && !(answer instanceof RpcError)) problems.push(`${method}: ${answer.message}`);
  }
  for (const n of client.notifications.slice(logsBefore)) {
    const message = (n.params as { message?: string } | null)?.message ?? "";
    if (n.method === "window/logMessage" && /\n\s+at /.test(message)) problems.push(`logged a stack trace: ${message.slice(0, 400)}`);
  }
  client.notify("textDocument/didClose", { textDocument: { uri } });
  client.clearNotifications();
  return { scene: scenes.join("\n"), problems };
}

export interface AttackOptions {
  readonly seed: number;
  readonly count: number;
  readonly timeMs: number;
}

/** Runs attacks of every class, chosen at random, until `count` or `timeMs` is reached. */
export async function runAttacks(options: AttackOptions): Promise<AttackReport> {
  const rng = new Rng(options.seed);
  const failures: AttackFailure[] = [];
  const started = Date.now();
  const client = new LspClient();
  await client.initialize();
  let i = 0;
  try {
    for (; i < options.count && Date.now() - started < options.timeMs; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-attack-"));
      const attack = rng.pick(["external data", "output target", "signal", "lsp params", "lsp params"] as const);
      try {
        const r =
          attack === "external data"
            ? attackExternalData(rng, dir)
            : attack === "output target"
              ? attackOutput(rng, dir)
              : attack === "signal"
                ? await attackSignal(rng, dir)
                : await attackLsp(rng, client, i);
        for (const problem of r.problems) failures.push({ attack, iteration: i, scene: r.scene, problem });
      } catch (e) {
        failures.push({ attack, iteration: i, scene: "(setting up)", problem: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    if (client.exitCode !== null)
      failures.push({ attack: "lsp params", iteration: i, scene: "", problem: `the server exited: ${client.stderr.slice(0, 400)}` });
  } finally {
    await client.shutdown();
  }
  return { attacks: i, failures };
}
