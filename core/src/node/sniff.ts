// What a file looks like from its first bytes, so a model whose extension lies (`.onnx` that is
// text, `.onnxtxt` that is binary, `.pb`, no extension, stdin) is still read, and a file that is
// no model at all is named for what it is.
import type { ModelFormat } from "./model-files.js";
import { decodeModel } from "../io/index.js";

/**
 * `format` is how the model is read: the text syntax, or protobuf (binary, or protobuf's text
 * format when `textproto` is set).
 */
type Sniffed = { readonly format: ModelFormat; readonly textproto?: true } | { readonly format?: undefined; readonly looksLike: string };

const TEXTPROTO: Sniffed = { format: "onnx", textproto: true };

/** What to call a sniffed format in notes. */
export function sniffedName(s: { readonly format: ModelFormat; readonly textproto?: true }): string {
  return s.textproto ? "protobuf text format" : FORMAT_NAMES[s.format];
}

const UNKNOWN_BINARY = "a binary file that is not an ONNX ModelProto";

/**
 * Field tags a ModelProto can start with: ir_version, producer_*, domain, model_version,
 * doc_string, graph, opset_import, metadata_props, and the first bytes of training_info,
 * functions and configuration.
 */
const MODEL_TAGS = new Set([0x08, 0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42, 0x72, 0xa2, 0xca, 0xd2]);

const MAGIC: readonly [number[], string][] = [
  [[0x50, 0x4b, 0x03, 0x04], "a zip archive (a PyTorch checkpoint or a packaged model?)"],
  [[0x89, 0x48, 0x44, 0x46], "an HDF5 file (a Keras model?)"],
  [[0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59], "a NumPy .npy array"],
  [[0x1f, 0x8b], "a gzip-compressed file"],
  [[0x80], "a Python pickle"],
];

function isText(head: Uint8Array): boolean {
  for (const b of head) if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return false;
  return true;
}

/** The first non-blank, non-comment text of `head`. */
function firstWords(head: Uint8Array): string {
  const text = new TextDecoder("utf-8").decode(head).replace(/^\uFEFF/, "");
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t !== "" && !t.startsWith("#")) return t;
  }
  return "";
}

/** A ModelProto field, as protobuf's text format starts a model: `ir_version: 8`, `graph {`. */
const MODEL_FIELD_START =
  /^(ir_version|opset_import|producer_name|producer_version|domain|model_version|doc_string|graph|metadata_props|training_info|functions|configuration)\s*[:{<]/;

/**
 * Whether text whose first words are `words` is protobuf text format. A graph of the ONNX text
 * syntax always has `=> (` (its outputs), which a text-format model has at most inside a string:
 * so a damaged ONNX text (a lost `<` before `ir_version`) is still read, and reported, as ONNX text.
 */
function looksLikeTextproto(words: string, text: Uint8Array): boolean {
  return MODEL_FIELD_START.test(words) && !/=>\s*\(/.test(new TextDecoder("utf-8").decode(text));
}

export function sniff(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { looksLike: "an empty file" };
  const head = bytes.subarray(0, 4096);
  for (const [magic, what] of MAGIC) if (magic.every((b, i) => head[i] === b)) return { looksLike: what };
  if (isText(head)) {
    const words = firstWords(head);
    if (words === "") return { format: "onnxtxt" };
    if (looksLikeTextproto(words, head)) return TEXTPROTO;
    if (/^[A-Za-z_]\w*\s*:/.test(words) || /^[A-Za-z_]\w*\s*\{/.test(words)) {
      return { looksLike: "protobuf text format of something other than an ONNX ModelProto, not the ONNX text syntax" };
    }
    if (words.startsWith("{") || words.startsWith("[")) return { looksLike: "JSON, not a model" };
    return { format: "onnxtxt" };
  }
  if (MODEL_TAGS.has(head[0]!)) return { format: "onnx" };
  return { looksLike: UNKNOWN_BINARY };
}

/**
 * The format to read `bytes` in, given the one the name claims. A `.onnxtxt` that is text is
 * read as text (its errors then have positions), as protobuf text format when it starts like
 * that, whatever the name says; it is read as binary only when it is not text and decodes as a model. A `.onnx` that is binary is decoded as a model.
 */
export function sniffModel(bytes: Uint8Array, claimed: ModelFormat | undefined): Sniffed {
  if (claimed === "onnx") {
    // binary that starts unusually is still decoded: the decoder's own message is the better one
    const s = sniff(bytes);
    return s.format === undefined && s.looksLike === UNKNOWN_BINARY ? { format: "onnx" } : s;
  }
  if (claimed !== "onnxtxt") return sniff(bytes);
  const head = bytes.subarray(0, 4096);
  if (isText(head)) return looksLikeTextproto(firstWords(head), bytes) ? TEXTPROTO : { format: "onnxtxt" };
  if (sniff(bytes).format !== "onnx") return { format: "onnxtxt" };
  try {
    decodeModel(bytes);
    return { format: "onnx" };
  } catch {
    return { format: "onnxtxt" };
  }
}

export const FORMAT_NAMES: Readonly<Record<ModelFormat, string>> = { onnx: "binary ONNX (protobuf)", onnxtxt: "ONNX text" };
