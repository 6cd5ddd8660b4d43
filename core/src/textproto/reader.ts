// Reads protobuf text format (what protobuf's text_format.MessageToString writes, and what
// people edit as `.pbtxt`/`.textproto`) into a message, driven by the message's schema: field
// names, enums by name or number, nested messages in `{}` or `<>`, repeated fields (one per
// line or as `[a, b]`), C-escaped strings and bytes. Errors carry line:col.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { TextprotoError, tokenize, type Token } from "./lexer.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const INT32_RANGE: readonly [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const UINT32_RANGE: readonly [bigint, bigint] = [0n, 2n ** 32n - 1n];
const INT64_RANGE: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const UINT64_RANGE: readonly [bigint, bigint] = [0n, 2n ** 64n - 1n];

type ScalarField = { readonly scalar: ScalarType; readonly longAsString: boolean };

class Reader {
  private pos = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private fail(reason: string, at = this.peek()): never {
    const last = this.tokens[this.tokens.length - 1];
    if (at) throw new TextprotoError(at.line, at.col, reason, at.offset);
    // at the end of the file: just after the last token
    throw new TextprotoError(last?.line ?? 1, last ? last.col + last.text.length : 1, reason, last ? last.offset + last.text.length : 0);
  }

  private next(what: string): Token {
    const t = this.peek();
    if (!t) this.fail(`expected ${what}, found the end of the file`);
    this.pos++;
    return t!;
  }

  private isPunct(p: string): boolean {
    const t = this.peek();
    return t?.kind === "punct" && t.text === p;
  }

  private take(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.pos++;
    return true;
  }

  /** Fields until `close` (or the end of the file for the top level). */
  readFields(msg: ReflectMessage, close: string | undefined): void {
    const seen = new Set<DescField>();
    for (;;) {
      const t = this.peek();
      if (!t) {
        if (close) this.fail(`expected '${close}' to close ${msg.desc.name}`);
        return;
      }
      if (close && this.take(close)) return;
      if (t.kind === "punct" && t.text === "[") this.fail("extensions and Any ([...] field names) are not part of an ONNX model");
      if (t.kind !== "ident") this.fail(`expected a field name of ${msg.desc.name}, found '${t.text}'`);
      this.pos++;
      const field = msg.desc.fields.find((f) => f.name === t.text);
      if (!field) this.fail(`${msg.desc.name} has no field '${t.text}'`, t);
      if (field.fieldKind !== "list" && seen.has(field)) this.fail(`'${t.text}' is given twice, but ${msg.desc.name} has one`, t);
      if (field.oneof && [...seen].some((f) => f.oneof === field.oneof))
        this.fail(`'${t.text}' and another field of oneof '${field.oneof.name}' are both given`, t);
      seen.add(field);
      this.readField(msg, field);
      if (!this.take(",")) this.take(";");
    }
  }

  private readField(msg: ReflectMessage, field: DescField): void {
    const isMessage = field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message");
    const colon = this.take(":");
    if (!colon && !isMessage) this.fail(`expected ':' after '${field.name}'`);
    if (field.fieldKind === "list" && this.take("[")) {
      if (this.take("]")) return;
      do this.readListItem(msg, field);
      while (this.take(","));
      if (!this.take("]")) this.fail("expected ',' or ']' in a list");
      return;
    }
    if (field.fieldKind === "list") this.readListItem(msg, field);
    else if (field.fieldKind === "message") msg.set(field, this.readMessage(field.message));
    else if (field.fieldKind === "enum") msg.set(field, this.readEnum(field.enum.values));
    else if (field.fieldKind === "scalar") msg.set(field, this.readScalar(field));
    else this.fail(`map field '${field.name}' is not supported`);
  }

  private readListItem(msg: ReflectMessage, field: DescField & { fieldKind: "list" }): void {
    const list = msg.get(field);
    if (field.listKind === "message") list.add(this.readMessage(field.message));
    else if (field.listKind === "enum") list.add(this.readEnum(field.enum.values));
    else list.add(this.readScalar(field));
  }

  private readMessage(desc: DescMessage): ReflectMessage {
    const open = this.next("'{' or '<'");
    const close = open.kind === "punct" && open.text === "{" ? "}" : open.kind === "punct" && open.text === "<" ? ">" : undefined;
    if (!close) this.fail(`expected '{' or '<' to open ${desc.name}, found '${open.text}'`, open);
    const child = reflect(desc);
    this.readFields(child, close);
    return child;
  }

  private readEnum(values: readonly { readonly name: string; readonly number: number }[]): number {
    const t = this.next("an enum value");
    if (t.kind === "ident") {
      const v = values.find((e) => e.name === t.text);
      if (!v) this.fail(`'${t.text}' is not one of ${values.map((e) => e.name).join(", ")}`, t);
      return v!.number;
    }
    if (t.kind === "number") return Number(this.integer(t, INT32_RANGE));
    return this.fail(`expected an enum value, found '${t.text}'`, t);
  }

  private readScalar(field: ScalarField): unknown {
    const s = field.scalar;
    if (s === ScalarType.STRING || s === ScalarType.BYTES) {
      const first = this.next("a quoted string");
      if (first.kind !== "string") this.fail(`expected a quoted string, found '${first.text}'`, first);
      const parts = [first.bytes!];
      while (this.peek()?.kind === "string") parts.push(this.next("a string").bytes!);
      const bytes = concat(parts);
      if (s === ScalarType.BYTES) return bytes;
      try {
        return UTF8.decode(bytes);
      } catch {
        return this.fail("a string field that is not valid UTF-8", first);
      }
    }
    const t = this.next("a value");
    if (s === ScalarType.BOOL) {
      if (["true", "t", "True", "1"].includes(t.text)) return true;
      if (["false", "f", "False", "0"].includes(t.text)) return false;
      return this.fail(`expected true or false, found '${t.text}'`, t);
    }
    if (s === ScalarType.FLOAT || s === ScalarType.DOUBLE) {
      const v = this.float(t);
      return s === ScalarType.FLOAT ? Math.fround(v) : v;
    }
    const signed64 = s === ScalarType.INT64 || s === ScalarType.SINT64 || s === ScalarType.SFIXED64;
    const unsigned64 = s === ScalarType.UINT64 || s === ScalarType.FIXED64;
    const unsigned32 = s === ScalarType.UINT32 || s === ScalarType.FIXED32;
    const range = signed64 ? INT64_RANGE : unsigned64 ? UINT64_RANGE : unsigned32 ? UINT32_RANGE : INT32_RANGE;
    const v = this.integer(t, range);
    if (signed64 || unsigned64) return field.longAsString ? v.toString() : v;
    return Number(v);
  }

  private integer(t: Token, [lo, hi]: readonly [bigint, bigint]): bigint {
    if (t.kind !== "number" || !/^[-+]?(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(t.text)) this.fail(`expected an integer, found '${t.text}'`, t);
    const neg = t.text.startsWith("-");
    const digits = t.text.replace(/^[-+]/, "");
    const octal = /^0[0-7]+$/.test(digits);
    let v = octal ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
    if (neg) v = -v;
    if (v < lo || v > hi) this.fail(`${t.text} is out of range (${lo} to ${hi})`, t);
    return v;
  }

  private float(t: Token): number {
    const text = t.text.toLowerCase();
    const neg = text.startsWith("-");
    const body = text.replace(/^[-+]/, "");
    if (t.kind === "ident" || t.kind === "number") {
      if (body === "nan") return Number.NaN;
      if (/^inf(inity)?f?$/.test(body)) return neg ? -Number.POSITIVE_INFINITY : Number.POSITIVE_INFINITY;
      if (t.kind === "number" && /^([0-9]+\.?[0-9]*|\.[0-9]+)(e[-+]?[0-9]+)?f?$/.test(body)) return Number(text.replace(/f$/, ""));
      if (t.kind === "number" && /^0x[0-9a-f]+$/.test(body)) return Number(BigInt(body)) * (neg ? -1 : 1);
    }
    return this.fail(`expected a number, found '${t.text}'`, t);
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads `text` as a `desc` message in protobuf text format; throws TextprotoError with line:col. */
export function readTextproto(desc: DescMessage, text: string): ReflectMessage {
  const msg = reflect(desc);
  new Reader(tokenize(text)).readFields(msg, undefined);
  return msg;
}
