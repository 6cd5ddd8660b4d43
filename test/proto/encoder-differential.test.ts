// The generated encoders (proto/gen/onnx_encode.ts) against protobuf-es's reflective toBinary:
// the same bytes, or an error from both. Over the repository's models and value files (a
// sample of the node tests; ONNXTXT_FULL_DIFFERENTIAL=1 takes all of them and Debian's
// libonnx-testdata), models lowered from text, whatever random and mutated bytes decode to
// (unknown fields, every oneof case), and crafted values at the edges of every scalar type.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { create, fromBinary, toBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import * as encoders from "../../proto/gen/onnx_encode.js";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  MapProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OptionalProtoSchema,
  SequenceProtoSchema,
  TensorProtoSchema,
  TensorProto_DataType,
  type ModelProto,
} from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";
import { LIBONNX_DATA, LIGHT, modelDirs, NODE_TESTS, REPO, requireDir } from "../helpers/paths.js";
import { mutateBytes } from "../robust/harness/mutate-bytes.js";
import { Rng } from "../robust/harness/rng.js";
import { messageTypes } from "./message-types.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";

type Encoder = (m: Message) => Uint8Array;

const TYPES = messageTypes<Encoder>(encoders, "encode");
const encoderOf = new Map(TYPES.map((t) => [t.schema, t.fn]));

/** Both encoders give the same bytes, or both throw. */
function agree(schema: DescMessage, m: Message, where: string): void {
  const run = (f: () => Uint8Array): Uint8Array | Error => {
    try {
      return f();
    } catch (e) {
      return e as Error;
    }
  };
  const ours = run(() => encoderOf.get(schema)!(m));
  const theirs = run(() => toBinary(schema, m));
  if (ours instanceof Error || theirs instanceof Error) {
    assert.ok(
      ours instanceof Error && theirs instanceof Error,
      `${where}: ${ours instanceof Error ? `only ours threw: ${ours.message}` : `only protobuf-es threw: ${(theirs as Error).message}`}`,
    );
    return;
  }
  if (Buffer.from(ours).equals(Buffer.from(theirs))) return;
  let i = 0;
  while (i < ours.length && ours[i] === theirs[i]) i++;
  assert.fail(`${where}: ${ours.length} bytes against protobuf-es's ${theirs.length}, first difference at byte ${i}`);
}

/** Decodes with protobuf-es, or undefined when the bytes are not that message. */
function decoded(schema: DescMessage, bytes: Uint8Array): Message | undefined {
  try {
    return fromBinary(schema, bytes);
  } catch {
    return undefined;
  }
}

const VALUE_SCHEMAS = [TensorProtoSchema, SequenceProtoSchema, MapProtoSchema, OptionalProtoSchema];

function checkTestDir(dir: string): number {
  let n = 0;
  agree(ModelProtoSchema, fromBinary(ModelProtoSchema, fs.readFileSync(path.join(dir, "model.onnx"))), dir);
  for (const set of fs.readdirSync(dir).filter((d) => d.startsWith("test_data_set_"))) {
    for (const file of fs.readdirSync(path.join(dir, set)).filter((f) => f.endsWith(".pb"))) {
      const bytes = fs.readFileSync(path.join(dir, set, file));
      for (const schema of VALUE_SCHEMAS) {
        const m = decoded(schema, bytes);
        if (m) agree(schema, m, `${dir}/${set}/${file} as ${schema.typeName}`);
      }
      n++;
    }
  }
  return n;
}

describe("generated encoders against protobuf-es toBinary", function () {
  this.timeout(FULL ? 1_800_000 : 120_000);

  it("agree on the light networks, their outputs and a sample of the node tests", () => {
    const light = fs.readdirSync(LIGHT).filter((f) => f.endsWith(".onnx"));
    assert.ok(light.length >= 9);
    for (const f of light) agree(ModelProtoSchema, fromBinary(ModelProtoSchema, fs.readFileSync(path.join(LIGHT, f))), f);
    for (const f of fs.readdirSync(LIGHT).filter((f) => f.endsWith(".pb")))
      agree(TensorProtoSchema, fromBinary(TensorProtoSchema, fs.readFileSync(path.join(LIGHT, f))), f);
    const dirs = modelDirs(requireDir(NODE_TESTS, "test/data/onnx/node-tests.tar.xz"));
    let values = 0;
    for (const dir of FULL ? dirs : dirs.filter((_, i) => i % 8 === 0)) values += checkTestDir(dir);
    assert.ok(values > 100, `only ${values} value files`);
  });

  if (FULL) {
    it("agree on every model and value file of Debian's libonnx-testdata", () => {
      const dirs = modelDirs(requireDir(LIBONNX_DATA, "apt-get install libonnx-testdata"));
      for (const dir of dirs) checkTestDir(dir);
      assert.ok(dirs.length >= 1000, `only ${dirs.length} models`);
    });
  }

  it("agree on the models lowered from the examples (messages made by create(), not decoded)", () => {
    const dir = path.join(REPO, "examples");
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".onnxtxt"))) {
      const { model } = modelFromText(fs.readFileSync(path.join(dir, f), "utf8"));
      assert.ok(model, f);
      agree(ModelProtoSchema, model, f);
    }
  });

  it("agree on what mutated models and random bytes decode to, as every message type", () => {
    const dirs = modelDirs(requireDir(NODE_TESTS, "test/data/onnx/node-tests.tar.xz"));
    const seeds = dirs.filter((_, i) => i % 40 === 0).map((d) => new Uint8Array(fs.readFileSync(path.join(d, "model.onnx"))));
    const rng = new Rng(36);
    let compared = 0;
    for (let i = 0; i < (FULL ? 40_000 : 3000); i++) {
      const m = decoded(ModelProtoSchema, mutateBytes(seeds[i % seeds.length]!, rng));
      if (m) {
        agree(ModelProtoSchema, m, `mutation ${i}`);
        compared++;
      }
    }
    for (let i = 0; i < (FULL ? 20_000 : 1000); i++) {
      const bytes = Uint8Array.from({ length: rng.int(40) }, () => (rng.chance(0.5) ? rng.int(0x80) : rng.int(0x100)));
      for (const { schema } of TYPES) {
        const m = decoded(schema, bytes);
        if (m) {
          agree(schema, m, `random ${i} as ${schema.typeName}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 1000, `only ${compared} messages compared`);
  });
});

describe("generated encoders against protobuf-es toBinary, on crafted values", () => {
  it("write every integer edge: negative int32, int64 and uint64 limits", () => {
    for (const i of [0n, 1n, -1n, 127n, 128n, 2n ** 31n, -(2n ** 31n), 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) {
      agree(AttributeProtoSchema, create(AttributeProtoSchema, { name: "a", i, ints: [i, -i] }), `int64 ${i}`);
    }
    for (const v of [0n, 2n ** 32n, 2n ** 64n - 1n]) agree(TensorProtoSchema, create(TensorProtoSchema, { uint64Data: [v, 1n] }), `uint64 ${v}`);
    for (const v of [0, -1, 2 ** 31 - 1, -(2 ** 31)]) agree(TensorProtoSchema, create(TensorProtoSchema, { dataType: v, int32Data: [v, 5] }), `int32 ${v}`);
  });

  it("refuse what protobuf-es refuses: out-of-range int32, float32 and uint64", () => {
    agree(TensorProtoSchema, create(TensorProtoSchema, { int32Data: [2 ** 31] }), "int32 2^31");
    agree(TensorProtoSchema, create(TensorProtoSchema, { int32Data: [1.5] }), "int32 1.5");
    agree(TensorProtoSchema, create(TensorProtoSchema, { floatData: [1e39] }), "float 1e39");
    agree(AttributeProtoSchema, create(AttributeProtoSchema, { f: -1e39 }), "float -1e39");
    agree(TensorProtoSchema, create(TensorProtoSchema, { uint64Data: [-1n] }), "uint64 -1");
  });

  it("write floats and doubles bit for bit: -0, NaN, infinities, subnormals", () => {
    const values = [0, -0, NaN, Infinity, -Infinity, 1e-45, 3.4028234663852886e38, Math.fround(0.1)];
    agree(TensorProtoSchema, create(TensorProtoSchema, { floatData: values, doubleData: [...values, 5e-324, Number.MAX_VALUE] }), "floats");
    for (const f of values) agree(AttributeProtoSchema, create(AttributeProtoSchema, { f, floats: [f] }), `float ${f}`);
  });

  it("write strings as UTF-8 around every length bound, non-ASCII and lone surrogates too", () => {
    for (const n of [0, 1, 127, 128, 16383, 16384, 70000]) {
      for (const unit of ["a", "é", "😀", "\ud800"]) {
        const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
        agree(NodeProtoSchema, create(NodeProtoSchema, { name: text, input: [text, ""], docString: `${text}x` }), `string of ${n} ${JSON.stringify(unit)}`);
      }
    }
  });

  it("write nested messages whose lengths take one to four bytes", () => {
    for (const n of [1, 20, 2000, 300_000]) {
      const raw = new Uint8Array(n).map((_, i) => i * 7);
      const tensor = create(TensorProtoSchema, { name: "w", dims: [BigInt(n)], dataType: TensorProto_DataType.UINT8, rawData: raw });
      const graph = create(GraphProtoSchema, {
        name: "g",
        initializer: [tensor],
        node: [create(NodeProtoSchema, { opType: "Identity", input: ["w"], output: ["y"] })],
      });
      const model: ModelProto = create(ModelProtoSchema, { irVersion: 8n, graph });
      agree(ModelProtoSchema, model, `${n} raw bytes`);
    }
  });

  it("leave out unset fields and empty lists, and write set defaults", () => {
    agree(NodeProtoSchema, create(NodeProtoSchema), "empty node");
    const own = create(NodeProtoSchema);
    own.name = "";
    own.opType = "";
    agree(NodeProtoSchema, own, "node with defaults set");
    agree(TensorProtoSchema, create(TensorProtoSchema, { floatData: [], int64Data: [], dims: [] }), "empty lists");
  });
});
