// The generated decoders (proto/gen/onnx_decode.ts) against protobuf-es's reflective fromBinary:
// the same messages down to prototypes, own properties (presence), `$unknown` and which bytes
// are views of the input, or an error from both. Over the repository's models and value files
// (a sample of the node tests; ONNXTXT_FULL_DIFFERENTIAL=1 takes all of them, the Debian
// libonnx-testdata and ../shared/onnx/node-tests too), crafted bytes and seeded mutations.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { create, fromBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import * as decoders from "../../proto/gen/onnx_decode.js";
import type { DecodeOptions } from "../../proto/src/wire-reader.js";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  MapProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OptionalProtoSchema,
  SequenceProtoSchema,
  TensorProtoSchema,
  TensorShapeProto_DimensionSchema,
  TypeProtoSchema,
  ValueInfoProtoSchema,
  type ModelProto,
  type NodeProto,
  type TensorProto,
  type TypeProto,
} from "../../proto/src/index.js";
import { MAX_MESSAGE_DEPTH, valueKindOf } from "../../core/src/io/index.js";
import { LIBONNX_DATA, LIGHT, modelDirs, NODE_TESTS, REPO, requireDir } from "../helpers/paths.js";
import { mutateBytes } from "../robust/harness/mutate-bytes.js";
import { Rng } from "../robust/harness/rng.js";
import { messageTypes } from "./message-types.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";

type Decoder = (bytes: Uint8Array, options?: DecodeOptions) => Message;

const TYPES = messageTypes<Decoder>(decoders, "decode");
const decoderOf = new Map(TYPES.map((t) => [t.schema, t.fn]));

// --- comparing ----------------------------------------------------------------------------------

/**
 * Where `a` and `b` first differ, or undefined: values by Object.is, objects by prototype (===),
 * own property names, descriptors and values, byte arrays by content and by where they point
 * into `input` (a view of the input must be the same view).
 */
function difference(a: unknown, b: unknown, at: string, input: Uint8Array): string | undefined {
  if (typeof a !== typeof b) return `${at}: a ${typeof a} against a ${typeof b}`;
  if (typeof a !== "object" || a === null || b === null) return Object.is(a, b) ? undefined : `${at}: ${String(a)} against ${String(b)}`;
  const x = a;
  const y = b as object;
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return `${at}: different prototypes`;
  if (x instanceof Uint8Array && y instanceof Uint8Array) {
    if (Buffer.compare(x, y) !== 0) return `${at}: bytes differ`;
    const view = x.buffer === input.buffer;
    if (view !== (y.buffer === input.buffer) || (view && x.byteOffset !== y.byteOffset)) return `${at}: not the same view of the input`;
    return undefined;
  }
  if (Array.isArray(x) && Array.isArray(y)) {
    // Element by element: own keys of a long array would be a string per element.
    if (x.length !== y.length) return `${at}: length ${x.length} against ${y.length}`;
    for (let i = 0; i < x.length; i++) {
      if (Object.hasOwn(x, i) !== Object.hasOwn(y, i)) return `${at}[${i}]: a hole against a value`;
      const d = difference(x[i], y[i], `${at}[${i}]`, input);
      if (d) return d;
    }
    return undefined;
  }
  const keys = Reflect.ownKeys(x);
  const others = Reflect.ownKeys(y);
  if (keys.length !== others.length || keys.some((k) => !others.includes(k))) {
    return `${at}: own properties ${keys.map(String).sort().join(",")} against ${others.map(String).sort().join(",")}`;
  }
  for (const k of keys) {
    const dx = Object.getOwnPropertyDescriptor(x, k)!;
    const dy = Object.getOwnPropertyDescriptor(y, k)!;
    const where = `${at}.${String(k)}`;
    if (dx.enumerable !== dy.enumerable || dx.writable !== dy.writable || dx.configurable !== dy.configurable || !("value" in dx) || !("value" in dy)) {
      return `${where}: different property descriptors`;
    }
    const d = difference(dx.value, dy.value, where, input);
    if (d) return d;
  }
  return undefined;
}

type Outcome = { message: Message } | { error: unknown };

function outcome(read: () => Message): Outcome {
  try {
    return { message: read() };
  } catch (error) {
    return { error };
  }
}

const counts = { agreed: 0, bothThrew: 0 };

/**
 * Asserts that both decoders throw on `bytes` read as `schema`, or give the same message;
 * returns whether they gave one.
 */
function agree(schema: DescMessage, bytes: Uint8Array, where: string, recursionLimit = MAX_MESSAGE_DEPTH): boolean {
  const ours = outcome(() => decoderOf.get(schema)!(bytes, { recursionLimit }));
  const theirs = outcome(() => fromBinary(schema, bytes, { recursionLimit }));
  if ("error" in ours && "error" in theirs) {
    counts.bothThrew++;
    return false;
  }
  if ("error" in ours) assert.fail(`${where} (${schema.typeName}): only ours throws: ${String(ours.error)}`);
  if ("error" in theirs) assert.fail(`${where} (${schema.typeName}): only fromBinary throws: ${String(theirs.error)}`);
  const d = difference(ours.message, theirs.message, schema.typeName, bytes);
  assert.equal(d, undefined, `${where}: ${d}`);
  counts.agreed++;
  return true;
}

// --- the corpora --------------------------------------------------------------------------------

/** The four messages a `.pb` value file may hold. */
const VALUE_SCHEMAS = { tensor: TensorProtoSchema, sequence: SequenceProtoSchema, map: MapProtoSchema, optional: OptionalProtoSchema } as const;

/**
 * A test folder's model, then its value files, each read as all four value messages (the ones
 * that are not its own make unknown fields and wire-type mix-ups); its own must decode.
 */
function checkTestDir(dir: string, tally: Map<string, number>): void {
  const bytes = fs.readFileSync(path.join(dir, "model.onnx"));
  assert.ok(agree(ModelProtoSchema, bytes, dir), `${dir}: the model does not decode`);
  tally.set("model", (tally.get("model") ?? 0) + 1);
  const graph = fromBinary(ModelProtoSchema, bytes).graph;
  const inputs = graph?.input.filter((i) => !graph.initializer.some((t) => t.name === i.name)) ?? [];
  for (const set of fs.readdirSync(dir).filter((d) => d.startsWith("test_data_set_"))) {
    for (const file of fs.readdirSync(path.join(dir, set)).sort()) {
      const m = /^(input|output)_(\d+)\.pb$/.exec(file);
      if (!m) continue;
      const kind = valueKindOf((m[1] === "input" ? inputs : (graph?.output ?? []))[Number(m[2])]?.type);
      const raw = fs.readFileSync(path.join(dir, set, file));
      for (const [k, schema] of Object.entries(VALUE_SCHEMAS)) {
        const ok = agree(schema, raw, `${dir}/${set}/${file}`);
        if (k === kind) {
          assert.ok(ok, `${dir}/${set}/${file}: does not decode as its ${kind}`);
          tally.set(kind, (tally.get(kind) ?? 0) + 1);
        }
      }
    }
  }
}

function describeTally(tally: Map<string, number>): string {
  return [...tally].map(([k, n]) => `${n} ${k}`).join(", ");
}

/** Every `step`-th of `dirs`. */
function sample(dirs: readonly string[], step: number): string[] {
  return dirs.filter((_, i) => i % step === 0);
}

describe("generated decoders against protobuf-es fromBinary", function () {
  this.timeout(FULL ? 1_800_000 : 120_000);

  it("a comparison that tells an own property from an inherited default, and Buffer from Uint8Array", () => {
    const input = new Uint8Array(4);
    const own = create(NodeProtoSchema);
    own.name = "";
    assert.match(difference(own, create(NodeProtoSchema), "n", input) ?? "", /own properties/);
    assert.match(difference(create(NodeProtoSchema), { ...create(NodeProtoSchema) }, "n", input) ?? "", /prototypes/);
    assert.match(difference(Buffer.from(input), input, "b", input) ?? "", /prototypes/);
    assert.match(difference(input.subarray(1, 2), input.slice(1, 2), "b", input) ?? "", /view/);
    assert.match(difference([1, NaN], [1, NaN], "l", input) ?? "ok", /ok/);
    assert.match(difference(-0, 0, "z", input) ?? "", /against/);
    // node's deepStrictEqual sees the first two as well, but not a view of the input from a copy.
    assert.throws(() => assert.deepStrictEqual(own, create(NodeProtoSchema)));
    assert.doesNotThrow(() => assert.deepStrictEqual(input.subarray(1, 2), input.slice(1, 2)));
  });

  it("agree on the models and value files of test/data (light models, a sample of the node tests)", () => {
    const tally = new Map<string, number>();
    for (const f of fs.readdirSync(LIGHT).filter((f) => f.endsWith(".onnx"))) {
      assert.ok(agree(ModelProtoSchema, fs.readFileSync(path.join(LIGHT, f)), f));
      tally.set("model", (tally.get("model") ?? 0) + 1);
    }
    for (const f of fs.readdirSync(LIGHT).filter((f) => f.endsWith(".pb"))) {
      assert.ok(agree(TensorProtoSchema, fs.readFileSync(path.join(LIGHT, f)), f));
      tally.set("tensor", (tally.get("tensor") ?? 0) + 1);
    }
    const dirs = modelDirs(requireDir(NODE_TESTS, "test/data/onnx/node-tests.tar.xz"));
    for (const dir of FULL ? dirs : sample(dirs, 8)) checkTestDir(dir, tally);
    for (const k of ["model", "tensor", "sequence", "optional"]) assert.ok((tally.get(k) ?? 0) > 0, `no ${k} in ${describeTally(tally)}`);
    if (FULL) console.log(`      test/data: ${describeTally(tally)}`);
  });

  if (FULL) {
    it("agree on every model and value file of Debian's libonnx-testdata", () => {
      const tally = new Map<string, number>();
      const dirs = modelDirs(requireDir(LIBONNX_DATA, "apt-get install libonnx-testdata"));
      for (const dir of dirs) checkTestDir(dir, tally);
      console.log(`      libonnx-testdata: ${describeTally(tally)}`);
      assert.ok(dirs.length >= 1000, `only ${dirs.length} models`);
    });

    const shared = path.resolve(REPO, "../shared/onnx/node-tests");
    (fs.existsSync(shared) ? it : it.skip)("agree on every model and value file of ../shared/onnx/node-tests", () => {
      const tally = new Map<string, number>();
      for (const dir of modelDirs(shared)) checkTestDir(dir, tally);
      console.log(`      ../shared/onnx/node-tests: ${describeTally(tally)}`);
    });
  }

  it("agree on seeded mutations of models and value files: truncations, flips, inserted varints", () => {
    const dirs = modelDirs(requireDir(NODE_TESTS, "test/data/onnx/node-tests.tar.xz"));
    const seeds = sample(dirs, FULL ? 4 : 40).map((d) => new Uint8Array(fs.readFileSync(path.join(d, "model.onnx"))));
    const rng = new Rng(2024);
    const before = { ...counts };
    const rounds = FULL ? 40_000 : 4000;
    for (let i = 0; i < rounds; i++) agree(ModelProtoSchema, mutateBytes(seeds[i % seeds.length]!, rng), `mutation ${i}`);
    const values = dirs.slice(0, FULL ? 400 : 40).flatMap((d) => {
      const set = path.join(d, "test_data_set_0");
      return fs.existsSync(set) ? fs.readdirSync(set).map((f) => new Uint8Array(fs.readFileSync(path.join(set, f)))) : [];
    });
    for (let i = 0; i < rounds / 4; i++) {
      const bytes = mutateBytes(values[i % values.length]!, rng);
      for (const schema of Object.values(VALUE_SCHEMAS)) agree(schema, bytes, `value mutation ${i}`);
    }
    if (FULL) console.log(`      ${counts.agreed - before.agreed} decoded alike, ${counts.bothThrew - before.bothThrew} refused by both`);
    // Both kinds of outcome are common, or the mutations test little.
    assert.ok(counts.bothThrew - before.bothThrew > rounds / 10, `only ${counts.bothThrew - before.bothThrew} mutations were refused`);
    assert.ok(counts.agreed - before.agreed > rounds / 10, `only ${counts.agreed - before.agreed} mutations decoded`);
  });

  it("agree on random bytes read as every message type", () => {
    const rng = new Rng(7);
    for (let i = 0; i < (FULL ? 20_000 : 1000); i++) {
      // Small field numbers and lengths, so that many reads reach known fields.
      const bytes = Uint8Array.from({ length: rng.int(40) }, () => (rng.chance(0.5) ? rng.int(0x80) : rng.int(0x100)));
      for (const { schema } of TYPES) agree(schema, bytes, `random ${i}`);
    }
  });
});

// --- crafted bytes --------------------------------------------------------------------------------

const { Varint, Bit64, LengthDelimited: Len, StartGroup, EndGroup, Bit32 } = WireType;

/** Field `no` holding the message `body`. */
function sub(w: BinaryWriter, no: number, body: Uint8Array): BinaryWriter {
  return w.tag(no, Len).bytes(body);
}

/** Unknown fields of every wire type, a group with a nested group among them. */
function unknowns(w: BinaryWriter, base: number): BinaryWriter {
  return w
    .tag(base, Varint)
    .uint64(2n ** 64n - 1n)
    .tag(base + 1, Bit64)
    .fixed64(5)
    .tag(base + 2, Bit32)
    .fixed32(7)
    .tag(base + 3, Len)
    .string("from the future")
    .tag(base + 4, StartGroup)
    .tag(1, Varint)
    .int32(3)
    .tag(2, StartGroup)
    .tag(2, EndGroup)
    .tag(base + 4, EndGroup);
}

/** Asserts agreement and gives our message, for a look at what the case exercised. */
function decoded<T extends Message>(schema: DescMessage, bytes: Uint8Array, where: string, recursionLimit?: number): T {
  assert.ok(agree(schema, bytes, where, recursionLimit), `${where}: does not decode`);
  return decoderOf.get(schema)!(bytes, { recursionLimit: recursionLimit ?? MAX_MESSAGE_DEPTH }) as T;
}

/** Bytes that must make both decoders throw. */
function refused(schema: DescMessage, bytes: Uint8Array | number[], where: string, recursionLimit?: number): void {
  assert.equal(agree(schema, Uint8Array.from(bytes), where, recursionLimit), false, `${where}: decoded`);
}

/** A graph holding `levels` more graphs, each in the attribute of the only node of the one above. */
function nestedGraph(levels: number): Uint8Array {
  let graph = new BinaryWriter().tag(2, Len).string("innermost").finish();
  for (let i = 0; i < levels; i++) {
    const attribute = sub(new BinaryWriter().tag(1, Len).string("body"), 6, graph).finish();
    const node = sub(new BinaryWriter().tag(4, Len).string("If"), 5, attribute).finish();
    graph = sub(new BinaryWriter(), 1, node).finish();
  }
  return graph;
}

describe("generated decoders against protobuf-es fromBinary, on crafted bytes", () => {
  it("keep unknown fields of every wire type at every depth", () => {
    const tensor = unknowns(new BinaryWriter().tag(1, Varint).int64(2), 100).finish();
    const attribute = unknowns(sub(new BinaryWriter().tag(1, Len).string("value"), 5, tensor), 200).finish();
    const node = unknowns(sub(new BinaryWriter(), 5, attribute), 300).finish();
    const graph = unknowns(sub(new BinaryWriter(), 1, node), 400).finish();
    const model = unknowns(sub(new BinaryWriter().tag(1, Varint).int64(10), 7, graph), 500).finish();
    const m = decoded<ModelProto>(ModelProtoSchema, model, "unknowns");
    assert.equal(m.$unknown?.length, 5);
    assert.equal(m.graph?.node[0]?.attribute[0]?.t?.$unknown?.length, 5);
    // Unknown fields are kept as views of the input, wherever it starts in its buffer.
    const offset = new Uint8Array(model.length + 3);
    offset.set(model, 3);
    decoded(ModelProtoSchema, offset.subarray(3), "unknowns at an offset");
    decoded(ModelProtoSchema, Buffer.from(model), "unknowns in a Buffer");
  });

  it("read repeated scalars packed and unpacked, mixed", () => {
    const t = new BinaryWriter()
      .tag(1, Varint)
      .int64(3)
      .tag(1, Len)
      .bytes(new BinaryWriter().int64(4).int64(-5).finish())
      .tag(4, Bit32)
      .float(1.5)
      .tag(4, Len)
      .bytes(new BinaryWriter().float(2).float(Number.NaN).finish())
      .tag(4, Bit32)
      .float(-0)
      .tag(5, Varint)
      .int32(-7)
      .tag(5, Len)
      .bytes(
        new BinaryWriter()
          .int32(8)
          .int32(2 ** 31 - 1)
          .finish(),
      )
      .tag(7, Len)
      .bytes(
        new BinaryWriter()
          .int64(-(2n ** 63n))
          .int64(2n ** 63n - 1n)
          .int64(2 ** 53 + 1)
          .finish(),
      )
      .tag(10, Bit64)
      .double(0.1)
      .tag(10, Len)
      .bytes(new BinaryWriter().double(-Infinity).double(1e300).finish())
      .tag(11, Varint)
      .uint64(2n ** 64n - 1n)
      .tag(11, Len)
      .bytes(
        new BinaryWriter()
          .uint64(2n ** 32n)
          .uint64(0)
          .finish(),
      )
      .tag(6, Len)
      .bytes(new Uint8Array([1, 2]))
      .tag(6, Len)
      .bytes(new Uint8Array(0))
      .finish();
    const m = decoded<TensorProto>(TensorProtoSchema, t, "tensor lists");
    assert.deepEqual(m.dims, [3n, 4n, -5n]);
    assert.equal(m.floatData.length, 4);
    const attribute = new BinaryWriter()
      .tag(7, Len)
      .bytes(new BinaryWriter().float(1).float(2).finish())
      .tag(7, Bit32)
      .float(3)
      .tag(8, Varint)
      .int64(-1)
      .tag(8, Len)
      .bytes(new Uint8Array(0))
      .finish();
    decoded(AttributeProtoSchema, attribute, "attribute lists");
    // A long packed run, at an odd offset, after values already in the list.
    const many = new BinaryWriter();
    for (let i = 0; i < 5000; i++) many.float(i / 7);
    const long = new BinaryWriter().tag(4, Bit32).float(1).tag(4, Len).bytes(many.finish()).finish();
    const shifted = new Uint8Array(long.length + 1);
    shifted.set(long, 1);
    assert.equal(decoded<TensorProto>(TensorProtoSchema, shifted.subarray(1), "a long packed run").floatData.length, 5001);
  });

  it("merge a singular message seen twice, and let the last scalar win", () => {
    const graph = (name: string, op: string) =>
      sub(new BinaryWriter().tag(2, Len).string(name), 1, new BinaryWriter().tag(4, Len).string(op).finish()).finish();
    const model = sub(sub(new BinaryWriter().tag(1, Varint).int64(3), 7, graph("a", "Relu")).tag(1, Varint).int64(4), 7, graph("b", "Neg")).finish();
    const m = decoded<ModelProto>(ModelProtoSchema, model, "graph twice");
    assert.equal(m.irVersion, 4n);
    assert.equal(m.graph?.name, "b");
    assert.equal(m.graph?.node.length, 2);
    const tensorType = (elem: number, dims: number[]) =>
      sub(
        new BinaryWriter().tag(1, Varint).int32(elem),
        2,
        dims.reduce((w, d) => sub(w, 1, new BinaryWriter().tag(1, Varint).int64(d).finish()), new BinaryWriter()).finish(),
      ).finish();
    const type = sub(sub(new BinaryWriter(), 1, tensorType(1, [2])), 1, tensorType(7, [3, 4])).finish();
    decoded(TypeProtoSchema, type, "tensor_type twice");
    const valueInfo = sub(sub(new BinaryWriter().tag(1, Len).string("x"), 2, type), 2, type).finish();
    decoded(ValueInfoProtoSchema, valueInfo, "type twice");
    const attribute = sub(
      sub(new BinaryWriter(), 5, new BinaryWriter().tag(2, Varint).int32(1).finish()),
      5,
      new BinaryWriter().tag(8, Len).string("t").finish(),
    ).finish();
    decoded(AttributeProtoSchema, attribute, "t twice");
  });

  it("switch oneof cases, and merge into the case that is set", () => {
    const dim = new BinaryWriter().tag(1, Varint).int64(5).tag(2, Len).string("N").tag(1, Varint).int64(-1).finish();
    decoded(TensorShapeProto_DimensionSchema, dim, "dim_value, dim_param, dim_value");
    const tensor = sub(new BinaryWriter().tag(1, Varint).int32(1), 2, new BinaryWriter().finish()).finish();
    const sequence = sub(new BinaryWriter(), 1, sub(new BinaryWriter(), 1, tensor).finish()).finish();
    const type = sub(sub(sub(sub(new BinaryWriter(), 1, tensor), 4, sequence), 1, tensor), 1, new BinaryWriter().tag(1, Varint).int32(9).finish()).finish();
    const m = decoded<TypeProto>(TypeProtoSchema, type, "tensor, sequence, tensor, tensor");
    assert.equal(m.value.case, "tensorType");
  });

  it("keep values a closed enum does not have as unknown fields, as protobuf-es does", () => {
    const a = (w: BinaryWriter) => w.tag(20, Varint);
    decoded(AttributeProtoSchema, a(new BinaryWriter()).int32(99).finish(), "type 99");
    decoded(AttributeProtoSchema, a(new BinaryWriter()).int32(-1).finish(), "type -1");
    decoded(AttributeProtoSchema, a(a(new BinaryWriter()).int32(3)).int32(100).finish(), "type 3 then 100");
    // With other unknown fields in the same message, before and after.
    decoded(AttributeProtoSchema, unknowns(a(unknowns(new BinaryWriter(), 50)).int32(77), 60).finish(), "type 77 among unknowns");
    decoded(
      AttributeProtoSchema,
      a(unknowns(a(new BinaryWriter()).int32(77), 60))
        .int32(78)
        .finish(),
      "type 77, unknowns, 78",
    );
    const t = new BinaryWriter()
      .tag(14, Varint)
      .int32(7)
      .tag(14, Varint)
      .int32(1)
      .tag(14, Varint)
      .uint64(2n ** 40n)
      .finish();
    decoded(TensorProtoSchema, t, "data_location 7, 1, 2^40");
    // Twice in a merged message: the second read appends to the first one's unknown fields.
    const node = sub(sub(new BinaryWriter(), 5, a(new BinaryWriter()).int32(42).finish()), 5, a(new BinaryWriter()).int32(43).finish()).finish();
    decoded(NodeProtoSchema, node, "unknown enum values in two attributes");
    const graph = sub(sub(new BinaryWriter(), 1, unknowns(new BinaryWriter(), 20).finish()), 1, new BinaryWriter().finish()).finish();
    const model = sub(sub(new BinaryWriter(), 7, graph), 7, unknowns(new BinaryWriter(), 30).finish()).finish();
    decoded(ModelProtoSchema, model, "unknown fields in a merged graph");
  });

  it("read strings as protobuf-es does: invalid UTF-8, a BOM, every length around the interning bound", () => {
    const strings = [
      new Uint8Array([0xff, 0x61]),
      new Uint8Array([0xc3]),
      new Uint8Array([0xef, 0xbb, 0xbf, 0x61]),
      new Uint8Array([0xed, 0xa0, 0x80]),
      new TextEncoder().encode("größe"),
      new TextEncoder().encode("😀".repeat(20)),
      new Uint8Array(0),
      ...[1, 31, 32, 33, 63, 64, 65, 200].map((n) => new TextEncoder().encode("v".repeat(n - 1) + String(n % 10))),
    ];
    for (const s of strings) {
      // Twice, so that the second read of a short one comes from the cache.
      const node = new BinaryWriter().tag(3, Len).bytes(s).tag(1, Len).bytes(s).tag(2, Len).bytes(s).finish();
      decoded(NodeProtoSchema, node, `string ${Buffer.from(s).toString("hex")}`);
    }
    // Same hash slot, other bytes: the cache must not answer for them.
    const many = Array.from({ length: 20_000 }, (_, i) => `v${i}`).reduce((w, name) => w.tag(1, Len).string(name), new BinaryWriter());
    const m = decoded<NodeProto>(NodeProtoSchema, many.finish(), "20000 names");
    assert.equal(m.input[12345], "v12345");
  });

  it("read varints as protobuf-es does: 64-bit edges, overlong forms, 32-bit fields given more", () => {
    const overlong = [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
    decoded(ModelProtoSchema, Uint8Array.from([0x08, ...overlong]), "ir_version in 10 bytes");
    const tooLong = [...overlong.slice(0, 9).map((b) => b | 0x80), 0x80, 0x00];
    refused(ModelProtoSchema, [0x08, ...tooLong], "ir_version in 11 bytes");
    decoded(TensorProtoSchema, Uint8Array.from([0x10, ...overlong]), "data_type in 10 bytes");
    refused(TensorProtoSchema, [0x10, ...tooLong], "data_type in 11 bytes");
    refused(NodeProtoSchema, [0x1a, ...tooLong], "a length in 11 bytes");
    for (const v of [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) {
      decoded(ModelProtoSchema, new BinaryWriter().tag(1, Varint).int64(v).finish(), `ir_version ${v}`);
      decoded(TensorProtoSchema, new BinaryWriter().tag(2, Varint).int64(v).tag(5, Varint).int64(v).finish(), `data_type ${v}`);
    }
    // Ten bytes whose last one has more bits than a 64-bit value holds.
    decoded(ModelProtoSchema, Uint8Array.from([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), "ir_version over 64 bits");
    decoded(TensorProtoSchema, Uint8Array.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f]), "data_type over 32 bits");
    // Lengths given in more bytes than they need.
    decoded(NodeProtoSchema, Uint8Array.from([0x1a, 0x82, 0x80, 0x00, 0x61, 0x62]), "a length in 3 bytes");
  });

  it("read a known field whatever its wire type, as protobuf-es does", () => {
    decoded(NodeProtoSchema, Uint8Array.from([0x18, 0x01, 0x61]), "name with wire type varint");
    decoded(TensorProtoSchema, Uint8Array.from([0x0d, 0x05, 0x10, 0x03]), "dims with wire type fixed32");
    decoded(ModelProtoSchema, Uint8Array.from([0x3b, 0x00]), "graph with wire type start-group");
    decoded(ModelProtoSchema, Uint8Array.from([0x3c, 0x00]), "graph with wire type end-group");
    decoded(AttributeProtoSchema, Uint8Array.from([0x12, 0x00, 0x00, 0x80, 0x3f]), "f with wire type length-delimited");
  });

  it("let a value run past the end of its message, but not past the end of the input", () => {
    // graph { name: length 5 } where the graph says it holds 3 bytes: protobuf-es reads on.
    decoded(ModelProtoSchema, Uint8Array.from([0x3a, 0x03, 0x12, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65]), "a string past its message");
    decoded(TensorProtoSchema, Uint8Array.from([0x22, 0x03, 0x00, 0x00, 0x80, 0x3f, 0x10, 0x01]), "a packed float past its list");
    refused(ModelProtoSchema, [0x3a, 0x03, 0x12, 0x05, 0x61], "a string past the input");
    refused(ModelProtoSchema, [0x3a, 0x10, 0x12, 0x00], "a message past the input");
    // Packed runs are read in one go (WireReader.packed): the same leniency and the same refusals.
    decoded(TensorProtoSchema, Uint8Array.from([0x52, 0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0]), "a packed double past its list");
    refused(TensorProtoSchema, [0x22, 0x08, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00], "packed floats cut off");
    refused(TensorProtoSchema, [0x22, 0x01, 0x00], "a packed float cut off");
    refused(AttributeProtoSchema, [0x15, 0x00, 0x00], "a float cut off");
    refused(TensorProtoSchema, [0x51, 0, 0, 0, 0, 0, 0, 0], "a double cut off");
    refused(AttributeProtoSchema, [0x22, 0x05, 0x61], "bytes cut off");
    refused(ModelProtoSchema, [0x08, 0x80], "a varint cut off");
  });

  it("refuse bad tags and groups, and skip good unknown ones", () => {
    refused(ModelProtoSchema, [0x00, 0x01], "field 0");
    refused(ModelProtoSchema, [0x0e, 0x01], "wire type 6");
    refused(ModelProtoSchema, [0x0f, 0x01], "wire type 7");
    refused(ModelProtoSchema, [0xfc, 0xff, 0x01], "a stray end-group tag");
    refused(ModelProtoSchema, [0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01], "a tag in 6 bytes");
    decoded(ModelProtoSchema, Uint8Array.from([0x88, 0x80, 0x80, 0x80, 0x00, 0x01]), "a tag in 5 bytes");
    refused(ModelProtoSchema, [0xf8, 0xff, 0xff, 0xff, 0x1f, 0x00], "a tag over 32 bits");
    decoded(ModelProtoSchema, Uint8Array.from([0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00]), "the largest field number");
    refused(ModelProtoSchema, [0xfb, 0xff, 0x01, 0xfc, 0xfe, 0x01], "a group closed by another field's end tag");
    refused(ModelProtoSchema, [0xfb, 0xff, 0x01, 0x08, 0x01], "a group without an end");
    decoded(ModelProtoSchema, Uint8Array.from([0xfb, 0xff, 0x01, 0x08, 0x01, 0xfc, 0xff, 0x01]), "a group");
    decoded(ModelProtoSchema, Uint8Array.from([0xf8, 0xff, 0x01, ...new Array(20).fill(0x80), 0x00]), "an unknown varint of 22 bytes");
    // Groups nested in groups, against the recursion budget that is left.
    const groups = (n: number): number[] => (n === 0 ? [] : [0xfb, 0xff, 0x01, ...groups(n - 1), 0xfc, 0xff, 0x01]);
    for (const limit of [1, 2, 3, 4, 5])
      for (const depth of [1, 2, 3, 4, 5]) agree(ModelProtoSchema, Uint8Array.from(groups(depth)), `${depth} groups, limit ${limit}`, limit);
  });

  it("stop at the same recursion limit", () => {
    const graph = nestedGraph(6);
    // Each level is a graph, a node and an attribute: 19 messages deep.
    for (let limit = 1; limit <= 21; limit++) agree(GraphProtoSchema, graph, `limit ${limit}`, limit);
    decoded(GraphProtoSchema, graph, "the default limit", undefined);
    assert.ok(agree(GraphProtoSchema, graph, "limit 19", 19));
    assert.equal(agree(GraphProtoSchema, graph, "limit 18", 18), false);
  });

  it("agree with no options, where both limits are 100", () => {
    const graph = nestedGraph(33); // 100 messages deep
    assert.ok("message" in outcome(() => decoders.decodeGraphProto(graph)));
    assert.ok("error" in outcome(() => decoders.decodeGraphProto(nestedGraph(34))));
    assert.ok("error" in outcome(() => fromBinary(GraphProtoSchema, nestedGraph(34))));
  });
});
