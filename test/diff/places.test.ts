// Places in a binary model's canonical text (core/src/diff/canonical.ts): every node, input,
// initializer and value info of the real networks and of the node tests with subgraphs gets
// the span of its printed statement, checked against the printed text itself.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { canonicalPlaces } from "../../core/src/diff/canonical.js";
import { decodeModel, printModel, type GraphProto } from "../../core/src/index.js";
import { LIGHT, NODE_TESTS } from "../helpers/paths.js";

function graphs(g: GraphProto): GraphProto[] {
  const out = [g];
  for (const n of g.node) for (const a of n.attribute) for (const s of [...(a.g ? [a.g] : []), ...a.graphs]) out.push(...graphs(s));
  return out;
}

describe("onnxtxt diff: places in the canonical text of a binary model", () => {
  const files = [
    ...fs
      .readdirSync(LIGHT)
      .filter((f) => f.endsWith(".onnx"))
      .map((f) => path.join(LIGHT, f)),
    ...["test_if", "test_loop11", "test_scan9_sum", "test_range_float_type_positive_delta_expanded"].map((d) => path.join(NODE_TESTS, d, "model.onnx")),
  ];
  for (const file of files) {
    it(path.basename(path.dirname(file)) === "light" ? path.basename(file) : path.basename(path.dirname(file)), () => {
      const model = decodeModel(fs.readFileSync(file));
      const c = canonicalPlaces(model)!;
      assert.ok(c);
      assert.equal(c.text, printModel(model));
      for (const g of graphs(model.graph!)) {
        for (const n of g.node) {
          const s = c.sourceMap.get(n)?.whole;
          assert.ok(s, `${n.opType} has no span`);
          const statement = c.text.slice(s.start, s.end);
          assert.ok(statement.includes(n.opType) && n.output.every((o) => statement.includes(o)), statement);
        }
        for (const v of [...g.input, ...g.output, ...g.valueInfo, ...g.initializer]) {
          const s = c.sourceMap.get(v)?.whole;
          assert.ok(s, `${v.name} has no span`);
          assert.ok(c.text.slice(s.start, s.end).includes(v.name), c.text.slice(s.start, s.end));
        }
      }
    });
  }
});
