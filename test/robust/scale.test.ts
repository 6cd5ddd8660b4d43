// Scale (issue 22, item 10): lists as long as the data never go through argument spreads or
// recursion. 124,000 warnings, headers of 300,000 opset or metadata entries, and a chain of
// 100,000 nodes (bench/scale-bench.ts measures 1,000,000) through every command.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { equals } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { chainModelBytes, chainResult } from "../../bench/wide-model.js";
import { runCli } from "../helpers/cli.js";

const NO_INTERNAL = /internal error|nested too deeply|call stack/;

describe("scale: data-sized lists through every command", function () {
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-scale-"))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: string | Uint8Array): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  it("check reports 124,000 warnings, one line each", () => {
    const lines = ['<ir_version: 8, opset_import: ["" : 18]>', "g (float[1] x) => (float[1] y) {", "  y = Relu (x)"];
    for (let i = 0; i < 124_000; i++) lines.push(`  u${i} = Relu (x)`);
    lines.push("}");
    const file = write("warnings.onnxtxt", lines.join("\n") + "\n");
    const r = runCli(["check", file]);
    assert.doesNotMatch(r.stderr + r.stdout, NO_INTERNAL);
    const reported = (r.stdout + r.stderr).split("\n").filter((l) => l.includes("[unused-value]"));
    assert.equal(reported.length, 124_000);
    assert.equal(reported[123_999], `${file}:124003:3: warning: 'u123999' is computed but never used [unused-value]`);
  });

  for (const [key, entry, field] of [
    ["opset_import", (i: number) => `"d${i}" : 1`, "opsetImport"],
    ["metadata_props", (i: number) => `"k${i}" : "v${i}"`, "metadataProps"],
  ] as const) {
    it(`convert keeps a header of 300,000 ${key} entries`, () => {
      const entries = Array.from({ length: 300_000 }, (_, i) => entry(i)).join(", ");
      const header =
        key === "opset_import"
          ? `<ir_version: 8, opset_import: ["" : 18, ${entries}]>`
          : `<ir_version: 8, opset_import: ["" : 18], metadata_props: [${entries}]>`;
      const file = write(`${key}.onnxtxt`, `${header}\ng (float[1] x) => (float[1] y) {\n  y = Relu (x)\n}\n`);
      const out = path.join(dir, `${key}.onnx`);
      const r = runCli(["convert", file, out]);
      assert.equal(r.code, 0, r.stderr);
      const model = decodeModel(fs.readFileSync(out));
      const list = model[field];
      assert.equal(list.length, key === "opset_import" ? 300_001 : 300_000);
      const last = list[list.length - 1]!;
      assert.deepEqual(
        "domain" in last ? [last.domain, last.version] : [last.key, last.value],
        key === "opset_import" ? ["d299999", 1n] : ["k299999", "v299999"],
      );
      const back = runCli(["print", out]);
      assert.equal(back.code, 0, back.stderr);
      assert.match(back.stdout, key === "opset_import" ? /"d299999" ?: 1\b/ : /"k299999" ?: "v299999"/);
    });
  }

  describe("a chain of 100,000 nodes", () => {
    const NODES = 100_000;
    let model: string;
    before(() => (model = write("chain.onnx", chainModelBytes(NODES))));

    it("check, convert, print and infer it; the text converts back to the same model", () => {
      const check = runCli(["check", model]);
      assert.equal(check.code, 0, check.stderr);
      const text = path.join(dir, "chain.onnxtxt");
      const convert = runCli(["convert", model, text]);
      assert.equal(convert.code, 0, convert.stderr);
      const printed = runCli(["print", model]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, fs.readFileSync(text, "utf8"));
      assert.ok(
        printed.stdout.includes(`y = LeakyRelu <alpha: float = 0.5> (v${NODES - 2})`) ||
          printed.stdout.includes(`y = Abs (v${NODES - 2})`) ||
          printed.stdout.includes(`y = Neg (v${NODES - 2})`),
      );
      const back = path.join(dir, "back.onnx");
      const reconvert = runCli(["convert", text, back]);
      assert.equal(reconvert.code, 0, reconvert.stderr);
      assert.ok(equals(ModelProtoSchema, decodeModel(fs.readFileSync(back)), decodeModel(fs.readFileSync(model))));
      const typed = path.join(dir, "typed.onnx");
      const infer = runCli(["infer", model, typed]);
      assert.equal(infer.code, 0, infer.stderr);
      assert.equal(decodeModel(fs.readFileSync(typed)).graph!.valueInfo.length, NODES - 1);
    });

    it("runs it to the value the chain computes", () => {
      const r = runCli(["run", "--input", "x=float[1] {-3}", model]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `y: float[1] {${chainResult(NODES, -3)}}`);
    });
  });
});
