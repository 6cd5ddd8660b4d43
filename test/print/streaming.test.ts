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
import { printModel, printModelPlain } from "../../core/src/print-model.js";
import { writeModel } from "../../core/src/node/model-files.js";
import { modelFromText } from "../../core/src/text.js";
import {
  AttributeProto_AttributeType,
  AttributeProtoSchema,
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProtoSchema,
  TensorProto_DataType,
  ValueInfoProtoSchema,
  type ModelProto,
} from "../../proto/src/index.js";
import { CLI, LIGHT, libonnxModelDirs } from "../helpers/paths.js";
import { chainModelBytes } from "../../bench/wide-model.js";

function streamed(bytes: Uint8Array, chunkBytes: number): string {
  const chunks: Buffer[] = [];
  const result = printModel(decodeModel(bytes), { chunkBytes, write: (b) => void chunks.push(Buffer.from(b)) });
  assert.equal(result, "");
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs the CLI in a process that reports its peak resident memory when it exits: VmHWM, which
 * starts afresh at exec (getrusage's maxrss keeps the forking test process's). In bytes.
 */
function peakMemory(args: readonly string[], stdout: number | "ignore" = "ignore"): number {
  const probe = `import * as fs from "node:fs"; process.on("exit", () => process.stderr.write("peak " + /VmHWM:\\s*(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1] + "\\n")); await import(${JSON.stringify(pathToFileURL(CLI).href)});`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe, "x", ...args], { stdio: ["ignore", stdout, "pipe"], encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr.slice(0, 500));
  return Number(/peak (\d+)/.exec(r.stderr)![1]) * 1024;
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
      const peak = peakMemory(["print", file], out);
      fs.closeSync(out);
      const textBytes = fs.statSync(textFile).size;
      assert.equal(fs.readFileSync(textFile, "utf8"), printModel(model));
      // the whole text as bytes, as a string and as a write buffer would be 3x its size
      assert.ok(peak < textBytes + 150 * 2 ** 20, `peak ${(peak / 2 ** 20).toFixed(0)} MiB for ${(textBytes / 2 ** 20).toFixed(0)} MiB of text`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("print -o: written as it goes, all or nothing", () => {
  /**
   * Weights (20 MB of text, several chunks) in the graph, then a function whose tensor cannot be
   * read: its `dims` getter throws when the printer reaches it, after looking at the folder.
   */
  function failingLate(dir: string, seen: { temps: [string, number][] }): ModelProto {
    const n = 2_000_000;
    const w = new Float32Array(n);
    for (let i = 0; i < n; i++) w[i] = Math.cos(i) * 0.1;
    const bad = create(TensorProtoSchema, { dataType: TensorProto_DataType.FLOAT, floatData: [1] });
    Object.defineProperty(bad, "dims", {
      get() {
        seen.temps = fs
          .readdirSync(dir)
          .filter((f) => f.endsWith(".onnxtxt-tmp"))
          .map((f) => [f, fs.statSync(path.join(dir, f)).size]);
        throw new Error("this tensor cannot be read");
      },
    });
    const constant = create(NodeProtoSchema, {
      opType: "Constant",
      output: ["c"],
      attribute: [create(AttributeProtoSchema, { name: "value", type: AttributeProto_AttributeType.TENSOR, t: bad })],
    });
    return create(ModelProtoSchema, {
      irVersion: 8n,
      opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n }), create(OperatorSetIdProtoSchema, { domain: "local", version: 1n })],
      graph: create(GraphProtoSchema, {
        name: "g",
        initializer: [create(TensorProtoSchema, { name: "W", dims: [BigInt(n)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(w.buffer) })],
        node: [create(NodeProtoSchema, { opType: "Identity", input: ["W"], output: ["y"] })],
      }),
      functions: [create(FunctionProtoSchema, { name: "F", domain: "local", output: ["c"], node: [constant] })],
    });
  }

  it("a failure while printing leaves OUT as it was and no temporary file, after chunks went to one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-partial-"));
    try {
      const out = path.join(dir, "out.onnxtxt");
      fs.writeFileSync(out, "the previous text\n");
      const seen = { temps: [] as [string, number][] };
      assert.throws(() => writeModel(out, "onnxtxt", failingLate(dir, seen)), /this tensor cannot be read/);
      // When it failed, one temporary file beside OUT already held the weights' text.
      assert.equal(seen.temps.length, 1);
      assert.match(seen.temps[0]![0], /^\.out\.onnxtxt\.\d+\.[0-9a-f]{16}\.onnxtxt-tmp$/);
      assert.ok(seen.temps[0]![1] >= 4 << 20, `${seen.temps[0]![1]} bytes written before the failure`);
      assert.deepEqual(fs.readdirSync(dir), ["out.onnxtxt"]);
      assert.equal(fs.readFileSync(out, "utf8"), "the previous text\n");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--plain streams too: its chunks join to the text it returns", () => {
    for (const f of fs.readdirSync(LIGHT).filter((x) => x.endsWith(".onnx"))) {
      const model = decodeModel(fs.readFileSync(path.join(LIGHT, f)));
      const whole = printModelPlain(model);
      const chunks: Buffer[] = [];
      const streamed = printModelPlain(model, { chunkBytes: 4096, write: (b) => void chunks.push(Buffer.from(b)) });
      assert.equal(streamed.text, "");
      assert.equal(Buffer.concat(chunks).toString("utf8"), whole.text, f);
      assert.deepEqual([...streamed.dropped], [...whole.dropped], f);
      assert.equal(printModel(model, { plain: true }), whole.text, f);
    }
  });
});

describe("print: statements raised as they are printed", () => {
  /** Nodes without a domain field except a few set to "" (and attribute tensors likewise), in a subgraph and a function too. */
  function mixedPresence(): Uint8Array {
    const tensor = (named: boolean) =>
      create(TensorProtoSchema, { dims: [1n], dataType: TensorProto_DataType.FLOAT, floatData: [1], ...(named ? { name: "" } : {}) });
    const node = (out: string, domainSet: boolean, tensorNamed: boolean) =>
      create(NodeProtoSchema, {
        opType: "Constant",
        output: [out],
        ...(domainSet ? { domain: "" } : {}),
        attribute: [create(AttributeProtoSchema, { name: "value", type: AttributeProto_AttributeType.TENSOR, t: tensor(tensorNamed) })],
      });
    const body = (p: string) =>
      create(GraphProtoSchema, {
        name: "body",
        node: [node(`${p}0`, false, false), node(`${p}1`, true, true)],
        output: [create(ValueInfoProtoSchema, { name: `${p}1` })],
      });
    const ifNode = create(NodeProtoSchema, {
      opType: "If",
      input: ["c"],
      output: ["r"],
      attribute: [
        create(AttributeProtoSchema, { name: "then_branch", type: AttributeProto_AttributeType.GRAPH, g: body("s") }),
        create(AttributeProtoSchema, { name: "else_branch", type: AttributeProto_AttributeType.GRAPH, g: body("e") }),
      ],
    });
    const fn = create(FunctionProtoSchema, {
      name: "F",
      domain: "local",
      output: ["f1"],
      node: [node("f0", false, false), node("f1", true, false)],
      opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
    });
    const model = create(ModelProtoSchema, {
      irVersion: 8n,
      opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n }), create(OperatorSetIdProtoSchema, { domain: "local", version: 1n })],
      graph: create(GraphProtoSchema, {
        name: "g",
        input: [create(ValueInfoProtoSchema, { name: "c" })],
        output: [create(ValueInfoProtoSchema, { name: "r" })],
        node: [node("a", false, false), node("b", true, false), node("c2", false, true), node("d", false, false), ifNode],
      }),
      functions: [fn],
    });
    return encodeModel(model);
  }

  it("the file-level residual printed first names exactly the nodes and tensors raised after it, and the text reads back bit for bit", () => {
    const bytes = mixedPresence();
    const text = printModel(decodeModel(bytes));
    const first = text.split("\n")[0]!;
    // Written by hand from the model above, in the order the text meets them: b, the branches'
    // s1 and e1, then f1; tensors: c2's, then s1's and e1's.
    assert.match(first, /"@node_domain_except":\["b","s1","e1","f1"\]/);
    assert.match(first, /"@tensor_name_except":\[\["c2","value"\],\["s1","value"\],\["e1","value"\]\]/);
    const back = modelFromText(text);
    assert.deepEqual(
      back.diagnostics.filter((d) => d.severity === "error"),
      [],
    );
    assert.ok(Buffer.from(encodeModel(back.model!)).equals(Buffer.from(bytes)), "the text reads back as another model");
  });

  it("convert of a 200,000-node graph to text holds neither the whole text nor every statement's AST", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-statements-"));
    try {
      const file = path.join(dir, "chain.onnx");
      fs.writeFileSync(file, chainModelBytes(200_000));
      const textFile = path.join(dir, "chain.onnxtxt");
      const peak = peakMemory(["convert", file, textFile]);
      const text = fs.readFileSync(textFile, "utf8");
      assert.equal(text.split("\n").filter((l) => / = (Neg|Abs|LeakyRelu) /.test(l)).length, 200_000);
      // Measured: 290 MiB; with every statement's AST and doc alive at once, 540 MiB.
      assert.ok(peak < 400 * 2 ** 20, `peak ${(peak / 2 ** 20).toFixed(0)} MiB`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
