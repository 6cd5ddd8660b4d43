// Writes proto/gen/onnx_decode.ts from the protobuf-es descriptors of proto/onnx.proto: one
// decoder per message type, each giving exactly what protobuf-es's reflective
// `fromBinary(Schema, bytes, options)` gives, without its per-field garbage (see
// proto/src/wire-reader.ts, which the decoders read with).
//   node dist/scripts/gen-decoder.js           regenerate (`npm run gen` runs it after gen-proto)
//   node dist/scripts/gen-decoder.js --check   exit 1 when the committed file is stale
// After a change to onnx.proto the stale decoders may not type-check; tsc still writes dist,
// so this script can run from there to bring them up to date.
//
// Only what onnx.proto uses is supported: proto2 messages with scalar, closed-enum, message,
// repeated and oneof fields. Anything else (maps, groups, other scalar types, jstype strings,
// strict UTF-8) stops the generator rather than being decoded differently.
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ScalarType, type DescEnum, type DescField, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import * as onnxPb from "../proto/gen/onnx_pb.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DECODER_FILE = path.join(REPO, "proto/gen/onnx_decode.ts");

/** The WireReader method that reads each supported scalar type. */
const SCALAR_READERS: Partial<Record<ScalarType, string>> = {
  [ScalarType.STRING]: "string",
  [ScalarType.BYTES]: "bytes",
  [ScalarType.FLOAT]: "float",
  [ScalarType.DOUBLE]: "double",
  [ScalarType.INT32]: "int32",
  [ScalarType.INT64]: "int64",
  [ScalarType.UINT64]: "uint64",
};

/** Every message type of the file, each nested one after its parent. */
export function messagesOf(file: DescFile): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (m: DescMessage): void => {
    out.push(m);
    m.nestedMessages.forEach(visit);
  };
  file.messages.forEach(visit);
  return out;
}

/** The name protoc-gen-es gives a message or enum type (onnx.TypeProto.Tensor: TypeProto_Tensor). */
export function tsName(desc: DescMessage | DescEnum): string {
  const name = desc.typeName.slice(desc.file.proto.package.length + 1).replaceAll(".", "_");
  // The generated binding must export the same descriptor under that name.
  if ((onnxPb as Record<string, unknown>)[`${name}Schema`] !== desc) throw new Error(`gen-decoder: no ${name}Schema for ${desc.typeName}`);
  return name;
}

function unsupported(f: DescField, what: string): Error {
  return new Error(`gen-decoder: ${f.parent.typeName}.${f.name} is ${what}, which the generated decoders do not support`);
}

/** The expression that reads one value of a scalar field (or one element of a repeated one). */
function scalarRead(f: DescField, scalar: ScalarType): string {
  const method = SCALAR_READERS[scalar];
  if (!method) throw unsupported(f, `a ${ScalarType[scalar].toLowerCase()}`);
  if (f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar")) {
    if (f.longAsString) throw unsupported(f, "a 64-bit integer with jstype JS_STRING");
    if (f.utf8Validation) throw unsupported(f, "a string with strict UTF-8");
  }
  return `r.${method}()`;
}

/** The field as the .proto file declares it, for a comment. */
function declaration(f: DescField): string {
  const label = f.fieldKind === "list" ? "repeated" : f.oneof ? `oneof ${f.oneof.name}:` : "optional";
  const type = f.message ? f.message.typeName : f.enum ? f.enum.typeName : ScalarType[f.scalar].toLowerCase();
  return `${label} ${type} ${f.name} = ${f.number}`;
}

/** The statements of a field's `case` (without the `break`). */
function readField(f: DescField, enumSets: Map<DescEnum, string>): string[] {
  // A proto3 scalar is an own property even when it is not on the wire: not done here.
  if ((f.fieldKind === "scalar" || f.fieldKind === "enum") && !f.oneof && f.presence === FeatureSet_FieldPresence.IMPLICIT) {
    throw unsupported(f, "a field with implicit presence");
  }
  if ((f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) && f.delimitedEncoding) throw unsupported(f, "group-encoded");
  // The start of a call that reads a message field's value (the last argument to come).
  const child = f.message && `read${tsName(f.message)}(r, r.end(), depth + 1, `;
  switch (f.fieldKind) {
    case "scalar":
      return f.oneof
        ? [`m.${f.oneof.localName} = { case: "${f.localName}", value: ${scalarRead(f, f.scalar)} };`]
        : [`m.${f.localName} = ${scalarRead(f, f.scalar)};`];
    case "enum": {
      if (f.oneof || f.enum.open) throw unsupported(f, f.oneof ? "an enum in a oneof" : "an open enum");
      // A value the enum does not have is an unknown field, as in protobuf-es for closed enums.
      const values = enumSets.get(f.enum) ?? `${tsName(f.enum)}Values`;
      enumSets.set(f.enum, values);
      return ["const v = r.int32();", `if (${values}.has(v)) m.${f.localName} = v;`, `else unknownEnumValue(m, ${f.number}, tag & 7, v);`];
    }
    case "message": {
      const fresh = `new ${tsName(f.message)}Message()`;
      if (!f.oneof) return [`m.${f.localName} = ${child}m.${f.localName} ?? ${fresh});`];
      // A oneof case seen again merges into the message it holds; another case replaces it.
      const o = f.oneof.localName;
      return [`const v = m.${o};`, `m.${o} = { case: "${f.localName}", value: ${child}v.case === "${f.localName}" ? v.value : ${fresh}) };`];
    }
    case "list": {
      const list = `m.${f.localName}`;
      // Repeated enums are not checked against the enum's values (protobuf-es does not either).
      const read = f.listKind === "message" ? `${child}new ${tsName(f.message)}Message())` : f.listKind === "enum" ? "r.int32()" : scalarRead(f, f.scalar);
      // One element: a new array of one slot, where push() onto the empty list would reserve
      // 17. Most lists (a node's inputs, outputs and attributes) are short, and there are many.
      const one = [`const v = ${read};`, `if (${list}.length === 0) ${list} = [v];`, `else ${list}.push(v);`];
      if (f.listKind === "message" || f.scalar === ScalarType.STRING || f.scalar === ScalarType.BYTES) return one;
      // Packed or not, whatever the .proto says: both forms are accepted. Packed lists are long;
      // those of fixed-width values (weights) are read in one go, into an array of their size.
      const width = f.scalar === ScalarType.FLOAT ? 4 : f.scalar === ScalarType.DOUBLE ? 8 : undefined;
      if (width !== undefined) return [`if ((tag & 7) === LEN) ${list} = r.packed(${list}, ${width});`, "else {", ...one.map((s) => `  ${s}`), "}"];
      return [`if ((tag & 7) === LEN) for (const stop = r.end(); r.pos < stop; ) ${list}.push(${read});`, "else {", ...one.map((s) => `  ${s}`), "}"];
    }
    case "map":
      throw unsupported(f, "a map");
  }
}

/** The constructor of fresh messages: what create(Schema) sets on its own. */
function constructorOf(m: DescMessage): string[] {
  const name = tsName(m);
  const own = [`this.$typeName = "${m.typeName}";`];
  for (const member of m.members) {
    if (member.kind === "oneof") own.push(`this.${member.localName} = { case: undefined };`);
    else if (member.fieldKind === "list") own.push(`this.${member.localName} = [];`);
  }
  return [`const ${name}Message = messageType<${name}>(${name}Schema, function () {`, ...own.map((s) => `  ${s}`), "});"];
}

/** The exported decoder and the reader of one message body, which nested messages call. */
function decoderOf(m: DescMessage, enumSets: Map<DescEnum, string>): string[] {
  const name = tsName(m);
  const cases = m.fields.flatMap((f) => {
    const body = readField(f, enumSets);
    // A block when the case declares a constant.
    const braced = body.some((s) => s.startsWith("const "));
    return [
      `      case ${f.number}: ${braced ? "{ " : ""}// ${declaration(f)}`,
      ...body.map((s) => `        ${s}`),
      `        break;${braced ? "\n      }" : ""}`,
    ];
  });
  return [
    `/** ${m.typeName} from its wire bytes, as fromBinary(${name}Schema, bytes, options) makes it. */`,
    `export function decode${name}(bytes: Uint8Array, options?: DecodeOptions): ${name} {`,
    "  const r = new WireReader(bytes, options);",
    `  return read${name}(r, r.len, 1, new ${name}Message());`,
    "}",
    "",
    `/** Reads the fields in [r.pos, end) into \`m\`: a new message, or one seen before (they merge). */`,
    `function read${name}(r: WireReader, end: number, depth: number, m: ${name}): ${name} {`,
    "  r.enter(depth);",
    "  // Unknown fields are collected apart and set at the end, as protobuf-es does (see unknownEnumValue).",
    "  let unknown = m.$unknown;",
    "  while (r.pos < end) {",
    "    const tag = r.tag();",
    "    switch (tag >>> 3) {",
    ...cases,
    "      default:",
    "        unknown = r.unknown(tag, depth, unknown);",
    "    }",
    "  }",
    "  if (unknown !== undefined) m.$unknown = unknown;",
    "  return m;",
    "}",
  ];
}

/** An import statement with one name a line. */
function importOf(names: readonly string[], from: string, keyword: string): string[] {
  return [`${keyword} {`, ...names.map((n) => `  ${n},`), `} from "${from}";`];
}

/** The generated file's text for the messages of `file`. */
export function generatedDecoderText(file: DescFile = onnxPb.file_onnx): string {
  const messages = messagesOf(file);
  const enumSets = new Map<DescEnum, string>();
  const body = messages.flatMap((m) => [...constructorOf(m), "", ...decoderOf(m, enumSets), ""]);
  const sets = [...enumSets].map(([e, name]) => `const ${name} = new Set([${e.values.map((v) => v.number).join(", ")}]);`);
  const runtime = ["type DecodeOptions", "messageType", "WireReader"];
  if (body.some((line) => line.includes("=== LEN)"))) runtime.push("LEN");
  if (sets.length > 0) runtime.push("unknownEnumValue");
  const names = messages.map(tsName);
  const from = `./${file.name}_pb.js`;
  return [
    `// @generated by scripts/gen-decoder.ts from the descriptors of ${file.name}.proto: do not edit.`,
    "// One decoder per message type, each giving what protobuf-es's fromBinary gives for it",
    "// (test/proto/decoder-differential.test.ts compares them); the reading is in",
    "// proto/src/wire-reader.ts. Regenerate with `npm run gen`. Per message type: the constructor",
    "// of fresh messages (what create() makes of the type), the decoder, and the reader of a",
    "// message's fields, which the readers of the messages holding it call.",
    "",
    `import { ${runtime.sort().join(", ")} } from "../src/wire-reader.js";`,
    ...importOf(names, from, "import type"),
    ...importOf(
      names.map((n) => `${n}Schema`),
      from,
      "import",
    ),
    "",
    ...(sets.length > 0 ? ["/** The values of the closed enums that singular fields use. */", ...sets, ""] : []),
    ...body,
  ].join("\n");
}

function main(argv: string[]): number {
  return writeOrCheck(argv, DECODER_FILE, generatedDecoderText(), "npm run gen");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
