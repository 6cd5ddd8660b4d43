// Issue #22 item 6 and #18 item 6: external data is read under onnx's rules (a regular file
// inside the model's folder, no link out, one hard link, offset+length inside the file), a
// FIFO or /dev/zero is never read, run --input-dir obeys the same rules; a model converted or
// printed to another folder takes its external data along, and check reports missing or
// short data files.
import { externalAddModel } from "./harness/external-model.js";
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { TensorProtoSchema, type ModelProto } from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { CLI } from "../helpers/paths.js";

const N = 300;
const WEIGHTS = new Float32Array(Array.from({ length: N }, (_, i) => Math.fround(i * 0.25 - 7)));

/** y = x + w, with w (float[N]) in the external file `location` at `offset`. */
function externalModel(location: string, offset = 0, length = N * 4): ModelProto {
  return externalAddModel(N, location, offset, length);
}

const bytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function cli(args: readonly string[]): { status: number | null; stderr: string; stdout: string; error?: Error } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 20_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout, ...(r.error && { error: r.error }) };
}

/** A one-line error about `what`, exit 2, quickly (a FIFO must not block). */
function assertRefused(args: readonly string[], what: RegExp): void {
  const r = cli(args);
  assert.equal(r.status, 2, `${args.join(" ")}: ${r.error?.message ?? ""} ${r.stderr}`);
  assert.match(r.stderr, what);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
}

/** The initializer values after onnx (python3-onnx) loads the model with its external data. */
function onnxWeights(file: string): number[] {
  const py = `import onnx, sys, json\nfrom onnx import numpy_helper\nm = onnx.load(sys.argv[1])\nprint(json.dumps(numpy_helper.to_array(m.graph.initializer[0]).tolist()))`;
  const r = spawnSync("/usr/bin/python3", ["-c", py, file], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as number[];
}

describe("external data under onnx's rules (#22 item 6, #18 item 6)", function () {
  this.timeout(120_000);
  let dir: string;
  let model: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ext-"));
    fs.mkdirSync(path.join(dir, "m"));
    model = path.join(dir, "m", "model.onnx");
    fs.writeFileSync(model, encodeModel(externalModel("w.bin")));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const w = () => path.join(dir, "m", "w.bin");
  /**
   * Commands that read the external data: a run (onnxruntime's too, which reads the files
   * itself after ours checked them), and writing the model to another folder.
   */
  const commands = () => [
    ["run", model, "--quiet"],
    ["run", model, "--quiet", "--backend", "ort"],
    ["run", model, "--quiet", "--compare", "ort"],
    ["print", "-o", path.join(dir, "printed.onnxtxt"), model],
    ["convert", model, path.join(dir, "out.onnxtxt")],
  ];

  it("a regular file inside the folder is read", () => {
    fs.writeFileSync(w(), bytes(WEIGHTS));
    for (const args of commands()) assert.equal(cli(args).status, 0, args.join(" "));
  });

  it("a hard link to a file elsewhere is refused", () => {
    const outside = path.join(dir, "secret.bin");
    fs.writeFileSync(outside, bytes(WEIGHTS));
    fs.linkSync(outside, w());
    for (const args of commands()) assertRefused(args, /w\.bin: external data has 2 hard links; refusing it as a potential hard-link attack/);
  });

  it("a FIFO is refused at once, never read", () => {
    spawnSync("mkfifo", [w()]);
    for (const args of commands()) assertRefused(args, /w\.bin: external data is a FIFO \(named pipe\), not a regular file/);
    const check = cli(["check", model]);
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stderr, /model\.onnx: error: tensor 'w': tensor 'w': external data 'w\.bin': is a FIFO|external data 'w\.bin': is a FIFO/);
  });

  it("links to /dev/zero and out of the folder are refused", () => {
    fs.symlinkSync("/dev/zero", w());
    for (const args of commands()) assertRefused(args, /w\.bin: external data is a link to a file outside the model's folder/);
    fs.rmSync(w());
    fs.mkdirSync(path.join(dir, "m", "sub"));
    fs.writeFileSync(path.join(dir, "m", "sub", "real.bin"), bytes(WEIGHTS));
    fs.symlinkSync("sub/real.bin", w());
    assert.equal(cli(["run", model, "--quiet"]).status, 0, "a link inside the folder is fine");
  });

  it("offset and length must lie inside the file", () => {
    fs.writeFileSync(w(), bytes(WEIGHTS).subarray(0, 1000));
    for (const args of commands()) assertRefused(args, /w\.bin: external data 1200 bytes at offset 0 run past the end of the file \(1000 bytes\)/);
    const check = cli(["check", model]);
    assert.equal(check.status, 1);
    assert.match(check.stderr, /external data 'w\.bin': 1200 bytes at offset 0 run past the end of the file \(1000 bytes\) \[external-data\]/);
  });

  it("run --input-dir reads input_N.pb under the same rules", () => {
    fs.writeFileSync(w(), bytes(WEIGHTS));
    const inputs = path.join(dir, "m", "test_data_set_0");
    fs.mkdirSync(inputs);
    const input = path.join(inputs, "input_0.pb");
    const tensor = toBinary(TensorProtoSchema, create(TensorProtoSchema, { name: "x", dataType: 1, dims: [BigInt(N)], rawData: bytes(WEIGHTS) }));
    fs.writeFileSync(input, tensor);
    assert.equal(cli(["run", model, "--quiet", "--input-dir", inputs]).status, 0);
    fs.rmSync(input);
    fs.symlinkSync("/dev/zero", input);
    assertRefused(["run", model, "--quiet", "--input-dir", inputs], /input_0\.pb: is a link to a file outside the input folder/);
    fs.rmSync(input);
    spawnSync("mkfifo", [input]);
    assertRefused(["run", model, "--quiet", "--input-dir", inputs], /input_0\.pb: is a FIFO \(named pipe\), not a regular file/);
    fs.rmSync(input);
    const elsewhere = path.join(dir, "x.pb");
    fs.writeFileSync(elsewhere, tensor);
    fs.linkSync(elsewhere, input);
    assertRefused(["run", model, "--quiet", "--input-dir", inputs], /input_0\.pb: has 2 hard links/);
    fs.rmSync(input);
    fs.writeFileSync(input, tensor);
    assertRefused(["run", model, "--quiet", "--input-dir", inputs, "--max-memory", "0.001"], /input_0\.pb: is \d+ bytes, more than the limit of 1048 bytes/);
  });

  it("convert and print to another folder take the external data along; onnx reads the result", () => {
    fs.writeFileSync(w(), bytes(WEIGHTS));
    const want = Array.from(WEIGHTS);
    assert.deepEqual(onnxWeights(model), want);
    const other = path.join(dir, "other");
    const outputs = [
      ["convert", model, path.join(other, "a.onnx")],
      ["convert", model, path.join(other, "b.onnxtxt")],
      ["convert", "--to", "onnx", "--out-dir", path.join(other, "batch"), model],
      ["print", "-o", path.join(other, "c.onnxtxt"), model],
      ["infer", model, path.join(other, "d.onnx")],
    ];
    fs.mkdirSync(other);
    for (const args of outputs) {
      const r = cli(args);
      assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
    }
    for (const f of ["a.onnx", "batch/model.onnx", "d.onnx"]) {
      const file = path.join(other, f);
      assert.deepEqual(onnxWeights(file), want, f);
      const loc = decodeModel(fs.readFileSync(file)).graph!.initializer[0]!.externalData.find((e) => e.key === "location")!.value;
      assert.match(loc, /^[^/]+\.[0-9a-f]{16}\.data$/, f);
    }
    // The texts, converted back from a third folder, are the same model.
    fs.mkdirSync(path.join(dir, "back"));
    for (const t of ["b.onnxtxt", "c.onnxtxt"]) {
      const back = path.join(dir, "back", t.replace(".onnxtxt", ".onnx"));
      assert.equal(cli(["convert", path.join(other, t), back]).status, 0, t);
      assert.deepEqual(onnxWeights(back), want, t);
      assert.equal(cli(["check", back]).status, 0, t);
    }
  });

  it("check reports a missing or short data file", () => {
    const check = cli(["check", model]);
    assert.equal(check.status, 1);
    assert.match(check.stderr, /error: .*tensor 'w': external data 'w\.bin': no such file or directory \[external-data\]/);
    fs.writeFileSync(w(), bytes(WEIGHTS));
    assert.equal(cli(["check", model]).status, 0);
    fs.writeFileSync(path.join(dir, "m", "model2.onnx"), encodeModel(externalModel("w.bin", 0, 400)));
    const short = cli(["check", path.join(dir, "m", "model2.onnx")]);
    assert.equal(short.status, 1);
    assert.match(short.stderr, /external data 'w\.bin' holds 400 bytes for the tensor, which needs 1200 \[external-data\]/);
  });
});
