// Writes proto/gen/onnx_encode.ts from the protobuf-es descriptors of proto/onnx.proto: one
// encoder per message type, each giving exactly the bytes protobuf-es's reflective
// `toBinary(Schema, message)` gives (fields in number order, unknown fields last), written with
// proto/src/wire-writer.ts.
//   node dist/scripts/gen-encoder.js           regenerate (`npm run gen` runs it)
//   node dist/scripts/gen-encoder.js --check   exit 1 when the committed file is stale
// Only what onnx.proto uses is supported, as in gen-decoder.ts; anything else stops the generator.
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ScalarType, type DescField, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import * as onnxPb from "../proto/gen/onnx_pb.js";
import { messagesOf, tsName } from "./gen-decoder.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const ENCODER_FILE = path.join(REPO, "proto/gen/onnx_encode.ts");

/** The wire type constant and the WireWriter call for one value of each supported scalar type. */
const SCALARS: Partial<Record<ScalarType, [wire: string, write: (v: string) => string]>> = {
  [ScalarType.STRING]: ["LEN", (v) => `w.string(${v})`],
  [ScalarType.BYTES]: ["LEN", (v) => `w.bytes(${v})`],
  [ScalarType.FLOAT]: ["FIXED32", (v) => `w.float(${v})`],
  [ScalarType.DOUBLE]: ["FIXED64", (v) => `w.double(${v})`],
  [ScalarType.INT32]: ["VARINT", (v) => `w.int32(${v})`],
  [ScalarType.INT64]: ["VARINT", (v) => `w.int64(${v}, false)`],
  [ScalarType.UINT64]: ["VARINT", (v) => `w.int64(${v}, true)`],
};

function unsupported(f: DescField, what: string): Error {
  return new Error(`gen-encoder: ${f.parent.typeName}.${f.name} is ${what}, which the generated encoders do not support`);
}

function scalarOf(f: DescField, scalar: ScalarType): [string, (v: string) => string] {
  const s = SCALARS[scalar];
  if (!s) throw unsupported(f, `a ${ScalarType[scalar].toLowerCase()}`);
  return s;
}

/** The statements that write value `v` of field `f` with its tag (a message, a scalar or an enum). */
function writeOne(f: DescField, v: string): string[] {
  if (f.message) return [`w.tag(${f.number}, LEN);`, "{", "  const at = w.fork();", `  write${tsName(f.message)}(w, ${v});`, "  w.join(at);", "}"];
  if (f.enum) return [`w.tag(${f.number}, VARINT);`, `w.int32(${v});`];
  const [wire, write] = scalarOf(f, f.scalar!);
  return [`w.tag(${f.number}, ${wire});`, `${write(v)};`];
}

/** The statements that write field `f` of message `m` when it is set. */
function writeField(f: DescField): string[] {
  if (f.fieldKind === "map") throw unsupported(f, "a map");
  if ((f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) && f.delimitedEncoding) throw unsupported(f, "group-encoded");
  const indent = (lines: string[]): string[] => lines.map((s) => `  ${s}`);
  if (f.fieldKind === "list") {
    const list = `m.${f.localName}`;
    if (f.packed && f.listKind !== "message") {
      if (f.listKind === "scalar" && f.scalar === ScalarType.FLOAT) return [`w.packedFloats(${f.number}, ${list});`];
      if (f.listKind === "scalar" && f.scalar === ScalarType.DOUBLE) return [`w.packedDoubles(${f.number}, ${list});`];
      const write = f.listKind === "enum" ? (v: string) => `w.int32(${v})` : scalarOf(f, f.scalar)[1];
      return [
        `if (${list}.length > 0) {`,
        `  w.tag(${f.number}, LEN);`,
        "  const at = w.fork();",
        `  for (let i = 0; i < ${list}.length; i++) ${write(`${list}[i]!`)};`,
        "  w.join(at);",
        "}",
      ];
    }
    // Indexed: a for-of allocates a result per step until V8 optimises the writer, and a model's
    // first encoding in a process runs mostly unoptimised.
    return [`for (let i = 0; i < ${list}.length; i++) {`, `  const v = ${list}[i]!;`, ...indent(writeOne(f, "v")), "}"];
  }
  if (f.oneof) return [`if (m.${f.oneof.localName}.case === "${f.localName}") {`, ...indent(writeOne(f, `m.${f.oneof.localName}.value`)), "}"];
  if (f.presence === FeatureSet_FieldPresence.IMPLICIT) throw unsupported(f, "a field with implicit presence");
  // Explicit presence: proto2 defaults live on the prototype, a set field is an own property.
  return [`if (m.${f.localName} !== undefined && hasOwn.call(m, "${f.localName}")) {`, ...indent(writeOne(f, `m.${f.localName}`)), "}"];
}

function encoderOf(m: DescMessage): string[] {
  const name = tsName(m);
  const fields = [...m.fields].sort((a, b) => a.number - b.number);
  return [
    `/** The wire bytes of ${m.typeName}, as toBinary(${name}Schema, m) writes them. */`,
    `export function encode${name}(m: ${name}): Uint8Array {`,
    "  const w = new WireWriter();",
    `  write${name}(w, m);`,
    "  return w.finish();",
    "}",
    "",
    `function write${name}(w: WireWriter, m: ${name}): void {`,
    ...fields.flatMap((f) => [`  // ${f.name} = ${f.number}`, ...writeField(f).map((s) => `  ${s}`)]),
    "  w.unknown(m.$unknown);",
    "}",
  ];
}

/** The generated file's text for the messages of `file`. */
export function generatedEncoderText(file: DescFile = onnxPb.file_onnx): string {
  const messages = messagesOf(file);
  const body = messages.flatMap((m) => [...encoderOf(m), ""]);
  const runtime = ["LEN", "WireWriter", ...["VARINT", "FIXED32", "FIXED64"].filter((c) => body.some((l) => l.includes(`, ${c})`)))];
  const names = messages.map(tsName);
  return [
    `// @generated by scripts/gen-encoder.ts from the descriptors of ${file.name}.proto: do not edit.`,
    "// One encoder per message type, each giving the bytes protobuf-es's toBinary gives for it",
    "// (test/proto/encoder-differential.test.ts compares them); the writing is in",
    "// proto/src/wire-writer.ts. Regenerate with `npm run gen`.",
    "",
    `import { ${runtime.sort().join(", ")} } from "../src/wire-writer.js";`,
    "import type {",
    ...names.map((n) => `  ${n},`),
    `} from "./${file.name}_pb.js";`,
    "",
    "const hasOwn = Object.prototype.hasOwnProperty;",
    "",
    ...body,
  ].join("\n");
}

function main(argv: string[]): number {
  return writeOrCheck(argv, ENCODER_FILE, generatedEncoderText(), "npm run gen");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
