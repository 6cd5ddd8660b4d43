// The step table against onnx's schemas: every row names a real step, what a row says was
// added, removed or re-defaulted is what the schemas say, and every attribute a step added or
// removed is handled by the row. Prints the coverage (per-op version steps converted up and down).
import { strict as assert } from "node:assert";
import { stepCoverage } from "../../core/src/opset/index.js";
import { allSteps, stepKey, typesOnly } from "../../core/src/opset/steps.js";
import { stepSpecs } from "../../core/src/opset/table/index.js";

describe("opset conversion: the step table", () => {
  const steps = new Map(allSteps().map((s) => [stepKey(s.domain, s.op, s.newer.sinceVersion), s]));

  it("names only real steps, and its added/removed/defaults match the schemas", () => {
    const problems: string[] = [];
    for (const [key, spec] of stepSpecs()) {
      const step = steps.get(key);
      if (!step) {
        problems.push(`${key}: no such step`);
        continue;
      }
      const before = step.older.attributes;
      const after = step.newer.attributes;
      for (const name of Object.keys(spec.added ?? {})) if (before.has(name) || !after.has(name)) problems.push(`${key}: ${name} was not added`);
      for (const name of Object.keys(spec.removed ?? {})) if (!before.has(name) || after.has(name)) problems.push(`${key}: ${name} was not removed`);
      for (const name of spec.defaults ?? [])
        if (JSON.stringify(before.get(name)?.default) === JSON.stringify(after.get(name)?.default)) problems.push(`${key}: ${name}'s default did not change`);
    }
    assert.deepEqual(problems, []);
  });

  it("handles every attribute a step added or removed (in the row's data or by its own adapters)", () => {
    const problems: string[] = [];
    for (const [key, step] of steps) {
      if (step.newer.deprecated || typesOnly(step.older, step.newer)) continue;
      const spec = stepSpecs().get(key);
      if (!spec) {
        problems.push(`${key}: changed (${[...step.newer.attributes.keys()].join(",")}) but has no row`);
        continue;
      }
      const custom = spec.up !== undefined && spec.down !== undefined;
      if (custom) continue;
      for (const name of step.newer.attributes.keys()) {
        if (step.older.attributes.has(name)) continue;
        if (!(name in (spec.added ?? {})) && spec.down === undefined) problems.push(`${key}: added ${name} is not handled going down`);
      }
      for (const name of step.older.attributes.keys()) {
        if (step.newer.attributes.has(name)) continue;
        if (!(name in (spec.removed ?? {})) && spec.up === undefined) problems.push(`${key}: removed ${name} is not handled going up`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("reports the coverage of the per-op version steps", () => {
    const cov = stepCoverage();
    const up = cov.filter((c) => c.up.converts).length;
    const downs = cov.filter((c) => c.down !== undefined);
    const down = downs.filter((c) => c.down!.converts).length;
    console.log(
      `      per-op version steps: ${cov.length}; up converted ${up}/${cov.length}, down converted ${down}/${downs.length} (removal steps have no down)`,
    );
    for (const c of cov.filter((x) => !x.up.converts))
      console.log(`        up refused: ${c.domain || "ai.onnx"} ${c.op} ${c.older} -> ${c.newer}: ${c.up.text}`);
    assert.ok(up >= cov.length - 12, "the upward direction covers all but a few steps");
  });
});
