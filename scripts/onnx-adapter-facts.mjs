// Records which per-op version steps onnx's C++ version_converter has an adapter for, as a
// list of facts (op, from opset, to opset) read from an onnx checkout's
// onnx/version_converter/convert.h, for the "onnx" column of docs/opset-conversion.md.
// Usage: node scripts/onnx-adapter-facts.mjs ONNX_CHECKOUT > docs/data/onnx-version-converter.json
import * as fs from "node:fs";
import * as path from "node:path";

const root = process.argv[2];
if (!root) {
  process.stderr.write("usage: node scripts/onnx-adapter-facts.mjs ONNX_CHECKOUT\n");
  process.exit(2);
}
const source = fs
  .readFileSync(path.join(root, "onnx/version_converter/convert.h"), "utf8")
  .replace(/\/\/[^\n]*/g, "")
  .replace(/\s+/g, " ");
const version = fs.readFileSync(path.join(root, "VERSION_NUMBER"), "utf8").trim();
const facts = new Set();
for (const call of source.split("registerAdapter(").slice(1)) {
  const head = call.slice(0, 200);
  // registerAdapter("Op", from, to, ...)
  let m = /^\s*"(\w+)",\s*(\d+),\s*(\d+)/.exec(head);
  // registerAdapter(std::make_unique<Kind>("Op", OpSetID(from), OpSetID(to) ...))
  m ??= /^\s*std::make_unique<\w+>\(\s*"(\w+)",\s*OpSetID\((\d+)\),\s*OpSetID\((\d+)\)/.exec(head);
  // registerAdapter(std::make_unique<Op_from_to>())
  m ??= /^\s*std::make_unique<([A-Za-z]+)_(\d+)_(\d+)>\(\)/.exec(head);
  if (m) facts.add(JSON.stringify([m[1], Number(m[2]), Number(m[3])]));
}
const adapters = [...facts].map((f) => JSON.parse(f)).sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1] || a[2] - b[2]);
process.stdout.write(`${JSON.stringify({ onnx: version, file: "onnx/version_converter/convert.h", adapters })}\n`);
