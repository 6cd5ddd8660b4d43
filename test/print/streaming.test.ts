// Printing to a stream (print-model's `write`): the chunks join to exactly the text printModel
// returns, however small the chunks; and `onnxtxt print` to a file never holds the whole text.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { create } from "@bufbuild/protobuf";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import {
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProtoSchema,
  TensorProto_DataType,
} from "../../proto/src/index.js";
import { CLI, LIGHT, libonnxModelDirs } from "../helpers/paths.js";

function streamed(bytes: Uint8Array, chunkBytes: number): string {
  const chunks: Buffer[] = [];
  const result = printModel(decodeModel(bytes), { chunkBytes, write: (b) => void chunks.push(Buffer.from(b)) });
  assert.equal(result, "");
  return Buffer.concat(chunks).toString("utf8");
}

describe("print: streaming", function () {
  it("joins to the same text as one string, for every libonnx-testdata model and the light networks", () => {
    const files = [
      ...libonnxModelDirs().map((d) => path.join(d, "model.onnx")),
      ...fs
        .readdirSync(LIGHT)
        .filter((f) => f.endsWith(".onnx"))
        .map((f) => path.join(LIGHT, f)),
    ];
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      const whole = printModel(decodeModel(bytes));
      for (const chunk of [64, 4096]) assert.equal(streamed(bytes, chunk), whole, `${file} in chunks of ${chunk}`);
    }
  });

  it("onnxtxt print holds far less than its text in memory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-stream-"));
    try {
      const n = 6 << 20;
      const w = new Float32Array(n);
      for (let i = 0; i < n; i++) w[i] = Math.sin(i) * 0.01;
      const model = create(ModelProtoSchema, {
        irVersion: 8n,
        opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
        graph: create(GraphProtoSchema, {
          name: "g",
          initializer: [create(TensorProtoSchema, { name: "W", dims: [BigInt(n)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(w.buffer) })],
          node: [create(NodeProtoSchema, { opType: "Identity", input: ["W"], output: ["y"] })],
        }),
      });
      const file = path.join(dir, "big.onnx");
      fs.writeFileSync(file, encodeModel(model));
      const textFile = path.join(dir, "big.onnxtxt");
      const out = fs.openSync(textFile, "w");
      // the CLI in a process that reports its peak resident memory when it exits: VmHWM, which
      // starts afresh at exec (getrusage's maxrss keeps the forking test process's)
      const probe = `import * as fs from "node:fs"; process.on("exit", () => process.stderr.write("peak " + /VmHWM:\\s*(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1] + "\\n")); await import(${JSON.stringify(pathToFileURL(CLI).href)});`;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe, "x", "print", file], { stdio: ["ignore", out, "pipe"], encoding: "utf8" });
      fs.closeSync(out);
      assert.equal(r.status, 0, r.stderr.slice(0, 500));
      const peak = Number(/peak (\d+)/.exec(r.stderr)![1]) * 1024;
      const textBytes = fs.statSync(textFile).size;
      assert.equal(fs.readFileSync(textFile, "utf8"), printModel(model));
      // the whole text as bytes, as a string and as a write buffer would be 3x its size
      assert.ok(peak < textBytes + 150 * 2 ** 20, `peak ${(peak / 2 ** 20).toFixed(0)} MiB for ${(textBytes / 2 ** 20).toFixed(0)} MiB of text`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
