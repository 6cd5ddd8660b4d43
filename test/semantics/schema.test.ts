// The generated schema tables are fresh and the lookup applies the since_version rule.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findSchema, functionBody, getSchema, getSchemaVersions, latestOpsetVersion, listOps } from "../../core/src/schema/index.js";
import { REPO, SHARED } from "../helpers/paths.js";

describe("operator schemas", () => {
  it("are what scripts/gen-schemas.mjs makes of schemas.json today", () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-schemas-")), "schema-data.ts");
    try {
      execFileSync(process.execPath, [path.join(REPO, "scripts/gen-schemas.mjs"), path.join(SHARED, "onnx/schemas.json"), out]);
      const committed = fs.readFileSync(path.join(REPO, "core/src/schema/generated/schema-data.ts"), "utf8");
      assert.ok(fs.readFileSync(out, "utf8") === committed, "schema-data.ts is stale: run `node scripts/gen-schemas.mjs` and commit");
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });

  it("holds every schema of schemas.json", () => {
    const raw = JSON.parse(fs.readFileSync(path.join(SHARED, "onnx/schemas.json"), "utf8")) as {
      schemas: { domain: string; name: string; since_version: number }[];
    };
    for (const s of raw.schemas) {
      const found = getSchemaVersions(s.domain, s.name).find((v) => v.sinceVersion === s.since_version);
      assert.ok(found, `${s.domain}.${s.name}-${s.since_version}`);
    }
  });

  it("resolves the version in force at an opset", () => {
    assert.equal(getSchema("", "Add", 12)?.sinceVersion, 7);
    assert.equal(getSchema("ai.onnx", "Add", 13)?.sinceVersion, 13);
    assert.equal(getSchema("", "Add", 0), undefined);
    assert.equal(getSchema("", "NoSuchOp", 20), undefined);
    // Upsample was removed at opset 10.
    assert.equal(getSchema("", "Upsample", 9)?.sinceVersion, 9);
    assert.equal(getSchema("", "Upsample", 10), undefined);
    assert.equal(findSchema("", "Upsample", 10)?.deprecated, true);
  });

  it("describes inputs, attributes and constraints", () => {
    const conv = getSchema("", "Conv", 11)!;
    assert.deepEqual(
      conv.inputs.map((i) => [i.name, i.option]),
      [
        ["X", "single"],
        ["W", "single"],
        ["B", "optional"],
      ],
    );
    assert.equal(conv.attributes.get("auto_pad")?.default, "NOTSET");
    assert.equal(conv.attributes.get("group")?.default, 1);
    assert.ok(conv.typeConstraints.get("T")!.allowed.includes("tensor(float)"));
    assert.match(conv.docUrl, /onnx__Conv\.html$/);
    const concat = getSchema("", "Concat", 13)!;
    assert.equal(concat.inputs[0]!.option, "variadic");
    assert.equal(concat.attributes.get("axis")?.required, true);
  });

  it("lists the ops of a domain at an opset and keeps function bodies", () => {
    const at9 = listOps("", 9).map((s) => s.name);
    assert.ok(at9.includes("Upsample") && !at9.includes("Range"));
    assert.ok(listOps("", 11).some((s) => s.name === "Range"));
    assert.ok(listOps("ai.onnx.ml", 3).some((s) => s.name === "TreeEnsembleClassifier"));
    assert.ok((latestOpsetVersion("") ?? 0) >= 21);
    const affine = getSchema("", "AffineGrid", 20)!;
    assert.match(functionBody(affine, 20) ?? "", /AffineGrid/);
    assert.equal(functionBody(affine, 19), undefined);
  });
});
