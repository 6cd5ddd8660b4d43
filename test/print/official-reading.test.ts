// Must-show: onnx's parser reads our printed text as the original model, except the fields its
// syntax cannot carry. The oracle is our parser in official mode: lowering without residuals,
// which skips `#@` comments as onnx's parser skips every comment; test/lower/printed-corpus
// holds that lowering equal, byte for byte, to onnx 1.23.1's parser on 1884 texts (onnx
// 1.23.1 itself is not installable here). Debian's onnx 1.12 parser, run on the texts its
// older syntax accepts, must agree as well.
//
// Compared: everything, after removing from both sides only what the official syntax cannot
// say, listed in UNCARRIED (and field presence, which a text cannot show: an unset field and
// one set to its default compare equal; raw_data and typed storage compare by value; every NaN
// compares equal to every NaN).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { toJson, type JsonValue } from "@bufbuild/protobuf";
import { parseModel } from "../../grammar/src/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { lowerModel } from "../../core/src/lower/index.js";
import { printModel } from "../../core/src/print-model.js";
import { rawToTyped } from "../../core/src/ext/raw-data.js";
import { walkModel } from "../../core/src/walk.js";
import { ModelProtoSchema, type ModelProto } from "../../proto/src/index.js";
import { LIGHT, libonnxModelDirs, nodeTestDirs, requireDir } from "../helpers/paths.js";

/** Fields the official syntax has no way to write (JSON names as protobuf writes them). */
const UNCARRIED: Record<string, readonly string[]> = {
  ModelProto: ["training_info", "configuration"],
  GraphProto: ["doc_string", "sparse_initializer", "quantization_annotation", "metadata_props"],
  NodeProto: ["doc_string", "metadata_props", "device_configurations"],
  AttributeProto: ["doc_string"],
  ValueInfoProto: ["doc_string", "metadata_props"],
  TensorProto: ["doc_string", "segment", "metadata_props"],
  TypeProto: ["denotation"],
  Dimension: ["denotation"],
  FunctionProto: ["metadata_props"],
};

const SKIP = new Set(Object.values(UNCARRIED).flat());

/** JSON without uncarried fields and without default values (presence cannot show in text). */
function normalize(v: JsonValue): JsonValue | undefined {
  if (Array.isArray(v)) return v.length ? v.map((x) => normalize(x) ?? null) : undefined;
  if (v && typeof v === "object") {
    const out: Record<string, JsonValue> = {};
    for (const [k, x] of Object.entries(v)) {
      if (SKIP.has(k)) continue;
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (v === "" || v === 0 || v === "0" || v === false || v === null) return undefined;
  return v;
}

/** Tensors compare by value: raw_data turns into the typed field the text writes. */
function typedStorage(m: ModelProto): ModelProto {
  walkModel(m, {
    tensor(t) {
      if (!t.rawData.length) return;
      const typed = rawToTyped(t.dataType, t.rawData);
      if (!typed) return;
      (t as unknown as Record<string, unknown>)[typed.field] = typed.values;
      t.rawData = new Uint8Array();
    },
  });
  return m;
}

function comparable(m: ModelProto): string {
  return JSON.stringify(normalize(toJson(ModelProtoSchema, typedStorage(m), { useProtoFieldName: true })));
}

function officialReading(text: string): ModelProto | undefined {
  const parsed = parseModel(text);
  if (!parsed.ast || parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  const lowered = lowerModel(parsed.ast, text, { sourceMap: false });
  return lowered.diagnostics.some((d) => d.severity === "error") ? undefined : lowered.model;
}

function compareAll(dirs: readonly string[]): { compared: number; differ: string[] } {
  const differ: string[] = [];
  for (const dir of dirs) {
    const file = path.join(dir, "model.onnx");
    const original = decodeModel(fs.readFileSync(file));
    const text = printModel(original);
    const read = officialReading(text);
    if (!read) differ.push(`${dir}: the text does not read`);
    else if (comparable(read) !== comparable(decodeModel(fs.readFileSync(file)))) differ.push(dir);
  }
  return { compared: dirs.length, differ };
}

describe("the official reading of our text is the original model, but for the fields its syntax cannot carry", function () {
  this.timeout(600_000);

  it("every onnx 1.23.1 node-test model", () => {
    const r = compareAll(nodeTestDirs());
    assert.equal(r.compared, 1884);
    assert.deepEqual(r.differ.slice(0, 10), [], `${r.differ.length} differ`);
  });

  it("every light network", () => {
    const dir = requireDir(LIGHT, "../shared/testdata/light");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".onnx"));
    const differ = files.filter((f) => {
      const read = officialReading(printModel(decodeModel(fs.readFileSync(path.join(dir, f)))));
      return !read || comparable(read) !== comparable(decodeModel(fs.readFileSync(path.join(dir, f))));
    });
    assert.ok(files.length >= 9);
    assert.deepEqual(differ, []);
  });

  /** Reads our printed texts with Debian's onnx 1.12; returns how many it read and which differ. */
  function withOnnx112(dirs: readonly string[]): { read: number; differ: string[] } {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-onnx112-"));
    try {
      dirs.forEach((dir, i) => fs.writeFileSync(path.join(work, `m${i}.onnxtxt`), printModel(decodeModel(fs.readFileSync(path.join(dir, "model.onnx"))))));
      const script = [
        "import os, sys, onnx.parser",
        "d = sys.argv[1]",
        "for f in sorted(os.listdir(d)):",
        "    if not f.endswith('.onnxtxt'): continue",
        "    try: m = onnx.parser.parse_model(open(os.path.join(d, f)).read())",
        "    except Exception: continue",
        "    open(os.path.join(d, f[:-8] + '.read.onnx'), 'wb').write(m.SerializeToString())",
      ].join("\n");
      const r = spawnSync("/usr/bin/python3", ["-c", script, work], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      // onnx 1.12 keeps escapes in string literals as written (`\\.` stays two characters);
      // 1.23 unescapes them, as we do: texts with a backslash are not 1.12's to judge.
      const read = fs
        .readdirSync(work)
        .filter((f) => f.endsWith(".read.onnx") && !fs.readFileSync(path.join(work, f.replace(/\.read\.onnx$/, ".onnxtxt")), "utf8").includes("\\"));
      const differ = read
        .map((f) => Number(/^m(\d+)\./.exec(f)![1]))
        .filter(
          (i) =>
            comparable(decodeModel(fs.readFileSync(path.join(work, `m${i}.read.onnx`)))) !==
            comparable(decodeModel(fs.readFileSync(path.join(dirs[i]!, "model.onnx")))),
        )
        .map((i) => dirs[i]!);
      return { read: read.length, differ };
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }

  it("Debian's onnx 1.12 parser, where its older syntax reads the text, gets the same model", () => {
    for (const [name, dirs, least] of [
      ["node-test", nodeTestDirs(), 1400],
      ["libonnx-testdata", libonnxModelDirs(), 800],
    ] as const) {
      const r = withOnnx112(dirs);
      console.log(`      onnx 1.12 read ${r.read} of ${dirs.length} printed ${name} texts; ${r.differ.length} differ`);
      assert.ok(r.read > least, `onnx 1.12 read only ${r.read} texts`);
      assert.deepEqual(r.differ.slice(0, 10), []);
    }
  });

  it("every libonnx-testdata model", () => {
    const r = compareAll(libonnxModelDirs());
    assert.ok(r.compared >= 1000);
    assert.deepEqual(r.differ.slice(0, 10), [], `${r.differ.length} differ`);
  });
});
