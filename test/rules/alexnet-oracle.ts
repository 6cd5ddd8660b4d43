// What the rule tests against onnx share: running Debian's python3-onnx, and AlexNet with the
// value_info and output types onnx's own shape inference wrote, printed as text by the CLI.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { LIGHT } from "../helpers/paths.js";

export function python(script: string, ...args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const py = spawnSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8" });
  return { ok: py.status === 0, stdout: py.stdout, stderr: py.stderr };
}

/**
 * Writes DIR/alexnet.onnxtxt: AlexNet through onnx's shape inference, its node names cleared
 * (onnx 1.12's parser predates `[name]` labels), then `edit` (Python statements on the model `m`,
 * with `onnx.helper` as `h`). Returns the text file's path.
 */
export function printedAlexNet(dir: string, edit = ""): string {
  const bin = path.join(dir, "alexnet.onnx");
  const made = python(
    `import sys, onnx, onnx.shape_inference, onnx.helper as h
m = onnx.shape_inference.infer_shapes(onnx.load(sys.argv[1]))
for n in m.graph.node: n.ClearField("name")
${edit}
onnx.save(m, sys.argv[2])`,
    path.join(LIGHT, "light_bvlc_alexnet.onnx"),
    bin,
  );
  assert.ok(made.ok, made.stderr);
  const file = path.join(dir, "alexnet.onnxtxt");
  assert.equal(runCli(["print", bin, "-o", file]).code, 0);
  return file;
}
