// Must-show: NaN payloads and signalling NaNs survive binary -> text -> binary in float,
// double, float16 and bfloat16 data, typed and raw, in attributes, in batch conversions and in
// long files. The models are written byte by byte (test/helpers/wire.ts), so the expected bit
// patterns never pass through a JS double or through the protobuf library under test: the
// result must contain them verbatim.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { runCli } from "../helpers/cli.js";
import { nodeTestDirs } from "../helpers/paths.js";
import { bytes, contains, fixed32, int, message, msg, packedVarints, str, words32, words64 } from "../helpers/wire.js";

const F32 = [0x3f800000, 0x7f800001, 0x7fc12345, 0xffc00000, 0xff800001, 0x7fc00000, 0x7fbfffff, 0x80000000];
const F64 = [0x7ff0000000000001n, 0xfff8000000000123n, 0x7ff8000000000000n, 0x3ff0000000000000n, 0x8000000000000000n];
const F16 = [0x7c01, 0x7e01, 0xfe00, 0x3c00, 0x8000];
const BF16 = [0x7f81, 0xffc1, 0x3f80];

function u16(values: readonly number[]): Uint8Array {
  const b = new Uint8Array(values.length * 2);
  values.forEach((v, i) => new DataView(b.buffer).setUint16(i * 2, v, true));
  return b;
}

const tensor = (name: string, dataType: number, dims: number, ...data: Uint8Array[]) => message(int(1, dims), int(2, dataType), str(8, name), ...data);

/** The packed-field bytes a correct writer must emit for these bits. */
const packedF32 = (bits: readonly number[]) => bytes(4, words32(bits));

function payloadModel(): { model: Uint8Array; expected: Uint8Array[] } {
  const attrTensor = tensor("", 1, F32.length, packedF32(F32));
  const node = message(
    str(2, "y"),
    str(4, "Payloads"),
    str(7, "test.nan"),
    msg(5, str(1, "alpha"), fixed32(2, 0x7f800003), int(20, 1)),
    msg(5, str(1, "list"), bytes(7, words32([0x7fa00000, 0x3f800000, 0xffc0abcd])), int(20, 6)),
    msg(5, str(1, "value"), msg(5, attrTensor), int(20, 4)),
  );
  const graph = message(
    msg(1, node),
    str(2, "g"),
    msg(5, tensor("f_typed", 1, F32.length, packedF32(F32))),
    msg(5, tensor("f_raw", 1, F32.length, bytes(9, words32(F32)))),
    msg(5, tensor("d_typed", 11, F64.length, bytes(10, words64(F64)))),
    msg(5, tensor("d_raw", 11, F64.length, bytes(9, words64(F64)))),
    msg(5, tensor("h_typed", 10, F16.length, packedVarints(5, F16))),
    msg(5, tensor("h_raw", 10, F16.length, bytes(9, u16(F16)))),
    msg(5, tensor("b_raw", 16, BF16.length, bytes(9, u16(BF16)))),
    msg(5, tensor("b_typed", 16, BF16.length, packedVarints(5, BF16))),
    msg(12, str(1, "y")),
  );
  const model = message(int(1, 10), msg(8, str(1, ""), int(2, 21)), msg(8, str(1, "test.nan"), int(2, 1)), msg(7, graph));
  return {
    model,
    expected: [
      packedF32(F32),
      bytes(9, words32(F32)),
      bytes(10, words64(F64)),
      bytes(9, words64(F64)),
      packedVarints(5, F16),
      bytes(9, u16(F16)),
      bytes(9, u16(BF16)),
      fixed32(2, 0x7f800003),
      message(...[0x7fa00000, 0x3f800000, 0xffc0abcd].map((b) => fixed32(7, b))),
    ], // (proto2 writes `floats` unpacked)
  };
}

/** 3000 float tensors, each with its own signalling NaN and payload NaN. */
function longModel(): { model: Uint8Array; expected: Uint8Array[] } {
  const inits: Uint8Array[] = [];
  const expected: Uint8Array[] = [];
  for (let i = 0; i < 3000; i++) {
    const bits = [0x7f800000 | (i + 1), 0x40000000 + i, 0xffc00000 | (i + 7)];
    inits.push(msg(5, tensor(`t${i}`, 1, 3, packedF32(bits))));
    expected.push(packedF32(bits));
  }
  const graph = message(str(2, "long"), ...inits, msg(12, str(1, "t0")));
  return { model: message(int(1, 10), msg(8, str(1, ""), int(2, 21)), msg(7, graph)), expected };
}

function roundTrip(files: readonly string[], work: string): string[] {
  const text = runCli(["convert", "--to", "onnxtxt", "--out-dir", path.join(work, "text"), ...files]);
  assert.equal(text.code, 0, text.stderr);
  const texts = files.map((f) => path.join(work, "text", path.relative(path.dirname(files[0]!), f).replace(/\.onnx$/, ".onnxtxt")));
  const back = runCli(["convert", "--to", "onnx", "--out-dir", path.join(work, "back"), ...texts]);
  assert.equal(back.code, 0, back.stderr);
  return texts.map((t) => path.join(work, "back", path.relative(path.join(work, "text"), t).replace(/\.onnxtxt$/, ".onnx")));
}

describe("NaN payloads through text", function () {
  this.timeout(300_000);

  it("keep every bit in float, double, float16 and bfloat16 data, typed and raw, in one batch with other models", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-nan-"));
    try {
      const inputs = path.join(work, "in");
      fs.mkdirSync(inputs);
      const cases = { payloads: payloadModel(), long: longModel() };
      for (const [name, c] of Object.entries(cases)) fs.writeFileSync(path.join(inputs, `${name}.onnx`), c.model);
      // Other models in the same batch: the JIT state must not matter.
      for (const d of nodeTestDirs().slice(0, 40)) fs.copyFileSync(path.join(d, "model.onnx"), path.join(inputs, `${path.basename(d)}.onnx`));
      const files = fs
        .readdirSync(inputs)
        .sort()
        .map((f) => path.join(inputs, f));
      const backs = roundTrip(files, work);
      files.forEach((f, i) => {
        const again = fs.readFileSync(backs[i]!);
        assert.ok(Buffer.from(encodeModel(decodeModel(fs.readFileSync(f)))).equals(again), `${path.basename(f)} changed`);
      });
      for (const [name, c] of Object.entries(cases)) {
        const again = new Uint8Array(fs.readFileSync(path.join(work, "back", `${name}.onnx`)));
        const missing = c.expected.filter((e) => !contains(again, e));
        assert.equal(
          missing.length,
          0,
          `${name}: ${missing.length} of ${c.expected.length} bit patterns lost (${c.expected
            .map((e, k) => (missing.includes(e) ? k : -1))
            .filter((k) => k >= 0)
            .join(", ")})`,
        );
      }
      const text = fs.readFileSync(path.join(work, "text", "payloads.onnxtxt"), "utf8");
      assert.match(text, /"@nan"/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
