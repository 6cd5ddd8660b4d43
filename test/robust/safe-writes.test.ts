// Issue #22, items 1-4 and 15: outputs are written without following planted links, special
// files are written in place (never replaced), a model and its sidecar change together or not
// at all, print's sidecar goes beside the output, temp files are removed on signals and on the
// next run, and an output folder that cannot be made is a clear error (no spin).
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { GraphProtoSchema, ModelProtoSchema, TensorProtoSchema, ValueInfoProtoSchema, type ModelProto } from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { writeOutput as writeAtomic } from "../../core/src/io/write-output.js";
import { runCli } from "../helpers/cli.js";
import { CLI, NODE_TESTS } from "../helpers/paths.js";

const ABS = path.join(NODE_TESTS, "test_abs/model.onnx");

/** A model with one float initializer of `n` values from `seed`, and a doc string of `docBytes`. */
function weightModel(n: number, seed: number, docBytes = 0): ModelProto {
  const values = Array.from({ length: n }, (_, i) => Math.fround(Math.sin(i * 0.37 + seed) * 10));
  return create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [{ domain: "", version: 21n }],
    docString: "d".repeat(docBytes),
    graph: create(GraphProtoSchema, {
      name: "g",
      initializer: [create(TensorProtoSchema, { name: "w", dataType: 1, dims: [BigInt(n)], rawData: new Uint8Array(new Float32Array(values).buffer) })],
      output: [create(ValueInfoProtoSchema, { name: "w" })],
    }),
  });
}

function weightsOf(file: string): Uint8Array {
  return decodeModel(fs.readFileSync(file)).graph!.initializer[0]!.rawData;
}

/** Names starting with "." that a writer leaves behind: temp files of any scheme. */
function hiddenFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith("."));
}

describe("safe writes (#22 items 1-4, 15)", function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-writes-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("1: links planted at guessable temp names are never written through", () => {
    const victim = path.join(dir, "victim.txt");
    fs.writeFileSync(victim, "precious");
    const out = path.join(dir, "out.onnxtxt");
    // Every name the old scheme (.<OUT>.<pid>.<n>.tmp) could pick in this process.
    for (let n = 0; n < 2000; n++) fs.symlinkSync(victim, path.join(dir, `.out.onnxtxt.${process.pid}.${n}.tmp`));
    writeAtomic(out, "new content");
    assert.equal(fs.readFileSync(victim, "utf8"), "precious", "the write went through a planted link");
    assert.ok(fs.lstatSync(out).isFile(), "the output must be a regular file, not a link");
    assert.equal(fs.readFileSync(out, "utf8"), "new content");
    const left = fs.readdirSync(dir).filter((f) => !f.startsWith(".out.onnxtxt.") || !fs.lstatSync(path.join(dir, f)).isSymbolicLink());
    assert.deepEqual(left.sort(), ["out.onnxtxt", "victim.txt"], "no temp file is left");
  });

  it("a streamed write that fails halfway leaves the old file, no temp file, and the producer's own error", () => {
    const out = path.join(dir, "out.onnxtxt");
    fs.writeFileSync(out, "old");
    const failure = new Error("the printer gave up");
    assert.throws(
      () =>
        writeAtomic(out, (write) => {
          write(new TextEncoder().encode("half of the new "));
          throw failure;
        }),
      (e: unknown) => e === failure,
    );
    assert.equal(fs.readFileSync(out, "utf8"), "old");
    assert.deepEqual(hiddenFiles(dir), []);
    writeAtomic(out, (write) => ["new", " text"].forEach((piece) => write(new TextEncoder().encode(piece))));
    assert.equal(fs.readFileSync(out, "utf8"), "new text");
  });

  it("2: a FIFO, a link to a pipe and a link to /dev/null are written in place, not replaced", async () => {
    const fifo = path.join(dir, "fifo");
    spawnSync("mkfifo", [fifo]);
    const cat = spawn("cat", [fifo]);
    try {
      const reader = new Promise<string>((resolve) => {
        let got = "";
        cat.stdout.on("data", (c: Buffer) => (got += c.toString()));
        cat.on("exit", () => resolve(got));
      });
      const toFifo = await new Promise<number | null>((resolve) => spawn(process.execPath, [CLI, "print", "-o", fifo, ABS]).on("exit", resolve));
      assert.equal(toFifo, 0);
      assert.ok(fs.lstatSync(fifo).isFIFO(), "the FIFO was replaced by a regular file");
      assert.match(await reader, /test_abs/);
    } finally {
      cat.kill();
    }

    const stdoutLink = path.join(dir, "stdout");
    fs.symlinkSync("/proc/self/fd/1", stdoutLink);
    const r = runCli(["print", "-o", stdoutLink, ABS]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /test_abs/, "the text goes to the pipe the link names");
    assert.ok(fs.lstatSync(stdoutLink).isSymbolicLink());

    const sink = path.join(dir, "sink");
    fs.symlinkSync("/dev/null", sink);
    assert.equal(runCli(["print", "-o", sink, ABS]).code, 0);
    assert.ok(fs.lstatSync(sink).isSymbolicLink(), "the link to /dev/null was replaced");
    assert.ok(fs.statSync("/dev/null").isCharacterDevice());
    assert.deepEqual(hiddenFiles(dir), []);
  });

  it("3: when the text cannot be written, the old text and its sidecar still read back as the old model", () => {
    const old = path.join(dir, "old.onnx");
    const next = path.join(dir, "next.onnx");
    fs.writeFileSync(old, encodeModel(weightModel(4000, 1)));
    fs.writeFileSync(next, encodeModel(weightModel(4000, 2, 200_000)));
    const out = path.join(dir, "out.onnxtxt");
    assert.equal(runCli(["convert", "--external-data", "1k", old, out]).code, 0);
    // A 64 KiB file size limit: the new sidecar (16 kB) fits, the new text (200 kB) does not.
    const r = spawnSync("bash", ["-c", `ulimit -f 64; exec "${process.execPath}" "${CLI}" convert --external-data 1k "${next}" "${out}"`], {
      encoding: "utf8",
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^onnxtxt: .*out\.onnxtxt: file too large/);
    const back = path.join(dir, "back.onnx");
    assert.equal(runCli(["convert", out, back]).code, 0);
    assert.deepEqual(weightsOf(back), weightsOf(old), "the text reads back as a different model");
    assert.deepEqual(hiddenFiles(dir), []);
    // The next write that succeeds replaces both, and leaves one sidecar.
    assert.equal(runCli(["convert", "--external-data", "1k", next, out]).code, 0);
    assert.equal(runCli(["convert", out, back]).code, 0);
    assert.deepEqual(weightsOf(back), weightsOf(next));
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith(".data")).length, 1, fs.readdirSync(dir).join(" "));
  });

  it("4: print's sidecar goes beside its output and never replaces a file of the current folder", () => {
    const model = path.join(dir, "model.onnx");
    fs.writeFileSync(model, encodeModel(weightModel(2000, 3)));
    const mine = path.join(dir, "model.onnxtxt.data");
    fs.writeFileSync(mine, "someone else's data");
    const toStdout = runCli(["print", "--external-data", "1k", model], dir);
    assert.equal(toStdout.code, 2);
    assert.match(toStdout.stderr, /--external-data needs -o OUT/);
    assert.equal(fs.readFileSync(mine, "utf8"), "someone else's data");
    fs.mkdirSync(path.join(dir, "sub"));
    const out = path.join(dir, "sub", "m.onnxtxt");
    assert.equal(runCli(["print", "--external-data", "1k", "-o", out, model], dir).code, 0);
    const sidecars = fs.readdirSync(path.join(dir, "sub")).filter((f) => f.endsWith(".data"));
    assert.equal(sidecars.length, 1);
    assert.match(fs.readFileSync(out, "utf8"), new RegExp(`"location": "${sidecars[0]!.replace(/\./g, "\\.")}"`));
    assert.deepEqual(fs.readdirSync(dir).sort(), ["model.onnx", "model.onnxtxt.data", "sub"]);
  });

  it("4: temp files of a process that died are removed by the next write; a live one's are kept", () => {
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const stale = path.join(dir, `.out.onnxtxt.${dead}.0123456789abcdef.onnxtxt-tmp`);
    const live = path.join(dir, `.out.onnxtxt.${process.pid}.fedcba9876543210.onnxtxt-tmp`);
    fs.writeFileSync(stale, "half");
    fs.writeFileSync(live, "being written");
    assert.equal(runCli(["print", "-o", path.join(dir, "out.onnxtxt"), ABS]).code, 0);
    assert.ok(!fs.existsSync(stale), "the dead process's temp file stayed");
    assert.ok(fs.existsSync(live), "a live process's temp file was removed");
  });

  it("4: killed by SIGTERM, SIGINT or SIGHUP mid-write, no temp file stays", async () => {
    const model = path.join(dir, "big.onnx");
    fs.writeFileSync(model, encodeModel(weightModel(6_000_000, 4)));
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    const signals = ["SIGTERM", "SIGINT", "SIGHUP", "SIGTERM", "SIGINT", "SIGTERM"] as const;
    for (const [i, signal] of signals.entries()) {
      const child = spawn(process.execPath, [CLI, "convert", model, path.join(out, "big.onnx")]);
      // Wait until the temp file exists, then signal at once or a little later.
      const t0 = Date.now();
      while (hiddenFiles(out).length === 0 && child.exitCode === null && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 2));
      if (i % 2) await new Promise((r) => setTimeout(r, 5));
      child.kill(signal);
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.on("exit", r)));
      assert.deepEqual(hiddenFiles(out), [], `after ${signal}`);
      const written = path.join(out, "big.onnx");
      if (fs.existsSync(written)) assert.equal(fs.statSync(written).size, fs.statSync(model).size, "a partial output");
    }
  });

  it("4: Ctrl-C stops a batch between files, leaving whole outputs and no temp file", async () => {
    const inputs: string[] = [];
    const bytes = encodeModel(weightModel(500_000, 5));
    for (let i = 0; i < 40; i++) {
      inputs.push(path.join(dir, `m${i}.onnx`));
      fs.writeFileSync(inputs[i]!, bytes);
    }
    const out = path.join(dir, "out");
    const child = spawn(process.execPath, [CLI, "convert", "--to", "onnx", "--out-dir", out, ...inputs]);
    const exited = new Promise<string | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    const t0 = Date.now();
    while (!fs.existsSync(path.join(out, "m1.onnx")) && child.exitCode === null && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGINT");
    assert.equal(await exited, "SIGINT");
    const written = fs.readdirSync(out);
    assert.ok(written.length < 40, `all ${written.length} files were converted after Ctrl-C`);
    for (const f of written) assert.equal(fs.statSync(path.join(out, f)).size, bytes.length, f);
  });

  it("15: an output folder that mkdir refuses with ENOENT is a clear error, not a spin", function () {
    if (!fs.existsSync("/proc/self")) this.skip();
    const mlp = path.join(dir, "mlp.onnxtxt");
    fs.copyFileSync(path.resolve(CLI, "../../examples/mlp.onnxtxt"), mlp);
    for (const args of [
      ["convert", "--to", "onnx", "--out-dir", "/proc/onnxtxt-no/x", mlp],
      ["infer", "--out-dir", "/proc/onnxtxt-no", mlp],
      ["run", mlp, "--quiet", "--output-dir", "/proc/onnxtxt-no/y"],
    ]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 20_000 });
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.error ?? r.stderr}`);
      assert.match(r.stderr, /^onnxtxt: \/proc\/onnxtxt-no: cannot create this folder: /m);
      assert.doesNotMatch(r.stderr, /^\s+at /m);
    }
  });
});
