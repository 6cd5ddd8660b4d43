// Must-show: a generated model that sets every field of every message in ModelProto (each oneof
// case in one of the variants), with NaN payloads in float, float16 and bfloat16 data, comes
// back bit-exact through text, converted in one batch with other models.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create, ScalarType, toBinary, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT, nodeTestDirs } from "../helpers/paths.js";
import { bytes, contains, int, message, msg, packedVarints, str, words32 } from "../helpers/wire.js";

type Init = Record<string, unknown>;

function scalar(f: DescField & { scalar: ScalarType }, n: number): unknown {
  switch (f.scalar) {
    case ScalarType.STRING:
      return `${f.name}_${n}`;
    case ScalarType.BYTES:
      return Uint8Array.from([n, 0xff, 0]);
    case ScalarType.BOOL:
      return true;
    case ScalarType.FLOAT:
      return 1.5 + n;
    case ScalarType.DOUBLE:
      return 0.1 + n;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return BigInt(-3 - n);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return BigInt(5 + n);
    default:
      return 3 + n;
  }
}

/** Every field set; `variant` picks the oneof cases; recursion stops at `depth`. */
function fill(schema: DescMessage, depth: number, variant: number): Init {
  const init: Init = {};
  const value = (f: DescField, n: number): unknown => {
    if (f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar")) return scalar(f as DescField & { scalar: ScalarType }, n);
    if (f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum")) {
      const values = f.enum!.values;
      return values[(1 + n + variant) % values.length]!.number;
    }
    return depth > 0 ? fill(f.message!, depth - 1, variant + n) : undefined;
  };
  for (const member of schema.members) {
    if (member.kind === "oneof") {
      const f = member.fields[variant % member.fields.length]!;
      const v = value(f, 0);
      if (v !== undefined) init[member.localName] = { case: f.localName, value: v };
      continue;
    }
    const f = member;
    if (f.fieldKind === "map") continue;
    if (f.fieldKind === "list") {
      const items = [value(f, 0), value(f, 1)].filter((x) => x !== undefined);
      if (items.length) init[f.localName] = items;
    } else {
      const v = value(f, 0);
      if (v !== undefined) init[f.localName] = v;
    }
  }
  // Tensors hold no elements by their shape: the text then writes `{}` and a residual keeps the
  // data of every field, which lowering accepts (data short of its shape is an error).
  // data_location is set, to DEFAULT: an EXTERNAL one would need a real file (tested elsewhere).
  if (schema.typeName === "onnx.TensorProto") {
    init["dims"] = [0n, 2n];
    init["dataLocation"] = 0;
  }
  return init;
}

const F32 = [0x7f800001, 0x7fc12345, 0xffc00000, 0x3f800000];
const F16 = [0x7c01, 0x7e55, 0xfe00];
const BF16 = [0x7f81, 0xffc1];

/** Initializers with NaN payloads, appended as bytes: protobuf merges them into the graph. */
function nanInitializers(): Uint8Array {
  const t = (name: string, dt: number, n: number, data: Uint8Array) => msg(5, int(1, n), int(2, dt), str(8, name), data);
  const u16 = (v: number[]) => {
    const b = new Uint8Array(v.length * 2);
    v.forEach((x, i) => new DataView(b.buffer).setUint16(i * 2, x, true));
    return b;
  };
  return msg(
    7,
    t("nan_f", 1, F32.length, bytes(4, words32(F32))),
    t("nan_h", 10, F16.length, packedVarints(5, F16)),
    t("nan_hr", 10, F16.length, bytes(9, u16(F16))),
    t("nan_b", 16, BF16.length, bytes(9, u16(BF16))),
  );
}

describe("a generated model that sets every field", function () {
  this.timeout(300_000);

  it("comes back bit-exact, NaN payloads included, in one batch with other models", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-all-fields-"));
    try {
      const inputs = path.join(work, "in");
      fs.mkdirSync(inputs);
      for (let variant = 0; variant < 4; variant++) {
        const model = create(ModelProtoSchema, fill(ModelProtoSchema, 5, variant) as never);
        fs.writeFileSync(path.join(inputs, `all_fields_${variant}.onnx`), message(toBinary(ModelProtoSchema, model), nanInitializers()));
      }
      for (const d of nodeTestDirs().slice(100, 130)) fs.copyFileSync(path.join(d, "model.onnx"), path.join(inputs, `${path.basename(d)}.onnx`));
      fs.copyFileSync(path.join(LIGHT, "light_squeezenet.onnx"), path.join(inputs, "light_squeezenet.onnx"));
      const files = fs.readdirSync(inputs).sort();
      const toText = runCli(["convert", "--to", "onnxtxt", "--out-dir", path.join(work, "text"), ...files.map((f) => path.join(inputs, f))]);
      assert.equal(toText.code, 0, toText.stderr);
      const texts = files.map((f) => path.join(work, "text", f.replace(/\.onnx$/, ".onnxtxt")));
      const back = runCli(["convert", "--to", "onnx", "--out-dir", path.join(work, "back"), ...texts]);
      assert.equal(back.code, 0, back.stderr);
      // Unedited text: no residual is stale and none is misread.
      const checked = runCli(["check", ...texts.filter((t) => path.basename(t).startsWith("all_fields_"))]);
      assert.deepEqual(
        checked.stderr.split("\n").filter((l) => /\[(residual-stale|extension)\]$/.test(l)),
        [],
      );
      assert.ok(
        fs.readFileSync(texts.find((t) => path.basename(t) === "all_fields_0.onnxtxt")!, "utf8").includes('"@digest"'),
        "the generated text has residuals with digests",
      );
      const changed = files.filter(
        (f) => !Buffer.from(encodeModel(decodeModel(fs.readFileSync(path.join(inputs, f))))).equals(fs.readFileSync(path.join(work, "back", f))),
      );
      assert.deepEqual(changed, []);
      for (let variant = 0; variant < 4; variant++) {
        const again = new Uint8Array(fs.readFileSync(path.join(work, "back", `all_fields_${variant}.onnx`)));
        assert.ok(contains(again, bytes(4, words32(F32))), "float NaN payloads");
        assert.ok(contains(again, packedVarints(5, F16)), "float16 NaN payloads");
        // Every field really is set: the generated binary is large and its text has residuals.
        assert.ok(again.length > 10_000);
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
