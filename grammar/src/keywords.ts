// The contextual keywords of the text syntax. None is reserved: the lexer reads them all as
// identifiers and the parser gives them meaning by position, as the reference parser does.

/** The 26 element type names the 1.23 parser knows (syntax doc §1.6). */
export const ELEMENT_TYPES: readonly string[] = [
  "float",
  "uint8",
  "int8",
  "uint16",
  "int16",
  "int32",
  "int64",
  "string",
  "bool",
  "float16",
  "double",
  "uint32",
  "uint64",
  "complex64",
  "complex128",
  "bfloat16",
  "float8e4m3fn",
  "float8e4m3fnuz",
  "float8e5m2",
  "float8e5m2fnuz",
  "uint4",
  "int4",
  "float4e2m1",
  "float8e8m0",
  "uint2",
  "int2",
];

export const TYPE_CONSTRUCTORS: readonly string[] = ["seq", "map", "optional", "sparse_tensor", "opaque"];

/** Attribute type annotations (`name: ints = ...`) and their AttributeProto.AttributeType numbers. */
export const ATTRIBUTE_TYPES: Readonly<Record<string, number>> = {
  float: 1,
  int: 2,
  string: 3,
  tensor: 4,
  graph: 5,
  floats: 6,
  ints: 7,
  strings: 8,
  tensors: 9,
  graphs: 10,
  sparse_tensor: 11,
  sparse_tensors: 12,
  type_proto: 13,
  type_protos: 14,
};

export const MODEL_HEADER_KEYS: readonly string[] = [
  "ir_version",
  "opset_import",
  "producer_name",
  "producer_version",
  "domain",
  "model_version",
  "doc_string",
  "metadata_props",
];

export const FUNCTION_HEADER_KEYS: readonly string[] = ["domain", "opset_import", "doc_string", "overload"];

/** Header keys whose value is an integer; `opset_import`/`metadata_props` take lists; the rest strings. */
export const INT_HEADER_KEYS: readonly string[] = ["ir_version", "model_version"];

const elementTypes = new Set(ELEMENT_TYPES);
/**
 * The type-start words by their first character: the printer asks about every name it writes,
 * and most names are ruled out by their first character or their length, without hashing them.
 */
const typeStartsByFirst: string[][] = [];
for (const w of [...ELEMENT_TYPES, ...TYPE_CONSTRUCTORS]) (typeStartsByFirst[w.charCodeAt(0)] ??= []).push(w);

export function isElementType(word: string): boolean {
  return elementTypes.has(word);
}

/** True for the identifiers that make the parser expect a type (syntax doc §1.6). */
export function isTypeStart(word: string): boolean {
  const candidates = typeStartsByFirst[word.charCodeAt(0)];
  return candidates !== undefined && candidates.includes(word);
}

/** `inf`, `infinity`, `nan` in any case: word-form float literals. */
export function isFloatWord(word: string): boolean {
  const w = word.toLowerCase();
  return w === "inf" || w === "infinity" || w === "nan";
}

export const ALL_KEYWORDS: readonly string[] = [
  ...new Set([...ELEMENT_TYPES, ...TYPE_CONSTRUCTORS, ...Object.keys(ATTRIBUTE_TYPES), ...MODEL_HEADER_KEYS, ...FUNCTION_HEADER_KEYS]),
];

/**
 * Type names from numpy, PyTorch, C and onnx's enum that are not element types here, with the
 * element type meant: `float32[2, 3] x` would otherwise read as a value named `float32`.
 */
const TYPE_HABITS: Readonly<Record<string, string>> = {
  float32: "float",
  fp32: "float",
  f32: "float",
  single: "float",
  float64: "double",
  fp64: "double",
  f64: "double",
  fp16: "float16",
  f16: "float16",
  half: "float16",
  bf16: "bfloat16",
  int: "int32",
  i32: "int32",
  long: "int64",
  i64: "int64",
  short: "int16",
  i16: "int16",
  i8: "int8",
  char: "int8",
  byte: "uint8",
  u8: "uint8",
  boolean: "bool",
  str: "string",
  complex: "complex64",
};

/** The element type a word that is not one probably means (`float32` -> `float`, `INT64` -> `int64`), if any. */
export function elementTypeMeant(word: string): string | undefined {
  if (isElementType(word)) return undefined;
  const lower = word.toLowerCase();
  if (isElementType(lower)) return lower;
  return Object.hasOwn(TYPE_HABITS, lower) ? TYPE_HABITS[lower] : undefined;
}
