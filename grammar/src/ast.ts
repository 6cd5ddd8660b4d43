// The typed syntax tree of the ONNX text format. The parser builds it from text and
// core/raise builds the same shapes from a ModelProto, so one printer serves both.
//
// Rules: every node has `kind` and `span` (UTF-16 offsets, [start, end)). Children that broken
// text may lack are optional: a parse with errors yields a tree with holes, never a throw.
// Names keep their decoded value and whether they were quoted. Comments are not in the tree;
// they come beside it (ParseResult.comments) for the formatter.
import type { Span } from "./span.js";

interface Node_ {
  readonly span: Span;
}

/** An identifier or quoted string used as a name; `value` is unescaped. */
export interface Name extends Node_ {
  readonly kind: "Name";
  readonly value: string;
  readonly quoted: boolean;
}

/** A keyword in a keyword position: header keys, element types, attribute type annotations. */
export interface Keyword extends Node_ {
  readonly kind: "Keyword";
  readonly text: string;
}

export interface IntLit extends Node_ {
  readonly kind: "Int";
  /** The text as written (e.g. `007`, `-0`), kept for the formatter. */
  readonly text: string;
  readonly value: bigint;
}

export interface FloatLit extends Node_ {
  readonly kind: "Float";
  readonly text: string;
  /** The value as a double; lowering converts the text itself for float32 targets. */
  readonly value: number;
}

export interface StrLit extends Node_ {
  readonly kind: "Str";
  /** Unescaped content. */
  readonly value: string;
}

export type Literal = IntLit | FloatLit | StrLit;

// ---- model and headers -------------------------------------------------------------------

export interface Model extends Node_ {
  readonly kind: "Model";
  readonly header?: Header;
  readonly graph?: Graph;
  readonly functions: readonly FunctionDef[];
}

/** `< key: value, ... >` before a model or a function. */
export interface Header extends Node_ {
  readonly kind: "Header";
  readonly entries: readonly HeaderEntry[];
}

export interface HeaderEntry extends Node_ {
  readonly kind: "HeaderEntry";
  readonly key: Keyword;
  readonly value?: IntLit | StrLit | OpsetList | PropList;
}

export interface OpsetList extends Node_ {
  readonly kind: "OpsetList";
  readonly items: readonly OpsetEntry[];
}

export interface OpsetEntry extends Node_ {
  readonly kind: "OpsetEntry";
  readonly domain?: StrLit;
  readonly version?: IntLit;
}

/** `[ "k": "v", ... ]`: metadata_props and external-data references. */
export interface PropList extends Node_ {
  readonly kind: "PropList";
  readonly items: readonly PropEntry[];
}

export interface PropEntry extends Node_ {
  readonly kind: "PropEntry";
  readonly key?: StrLit;
  readonly value?: StrLit;
}

// ---- graphs and functions ----------------------------------------------------------------

export interface Graph extends Node_ {
  readonly kind: "Graph";
  readonly name?: Name;
  /** Absent when the parentheses of the input list are omitted. */
  readonly inputs?: ValueDeclList;
  readonly outputs?: ValueDeclList;
  /** The `< ... >` value-info / initializer list. */
  readonly valueInfos?: ValueDeclList;
  readonly body?: NodeBlock;
}

export interface FunctionDef extends Node_ {
  readonly kind: "Function";
  readonly header?: Header;
  readonly name?: Name;
  /** `< alpha, beta: float = 1.0 >`: bare names and attributes with defaults. */
  readonly params?: ParamList;
  readonly inputs?: ValueDeclList;
  readonly outputs?: ValueDeclList;
  readonly valueInfos?: ValueDeclList;
  readonly body?: NodeBlock;
}

export interface ParamList extends Node_ {
  readonly kind: "ParamList";
  readonly items: readonly (Name | Attribute)[];
}

/** A parenthesised or angle-bracketed list of value declarations. */
export interface ValueDeclList extends Node_ {
  readonly kind: "ValueDeclList";
  readonly items: readonly ValueDecl[];
}

/** `type? name ( = data )?`: a graph input/output, value-info or initializer. */
export interface ValueDecl extends Node_ {
  readonly kind: "ValueDecl";
  readonly type?: TypeExpr;
  readonly name?: Name;
  readonly init?: TensorData;
}

export interface NodeBlock extends Node_ {
  readonly kind: "NodeBlock";
  readonly nodes: readonly OpNode[];
}

// ---- nodes and attributes ----------------------------------------------------------------

export interface OpNode extends Node_ {
  readonly kind: "Node";
  /** `[name]`; a label with nothing inside has `name` undefined but `label` present. */
  readonly label?: Label;
  readonly outputs: IdList;
  readonly op?: OpName;
  readonly attributes?: AttributeList;
  /** True when the attribute list was written after the inputs. */
  readonly attributesAfterInputs: boolean;
  readonly inputs?: IdList;
}

export interface Label extends Node_ {
  readonly kind: "Label";
  readonly name?: Name;
}

/** `dom.ain.Op:overload`. */
export interface OpName extends Node_ {
  readonly kind: "OpName";
  /** The domain components (`com`, `microsoft`), possibly empty. */
  readonly domain: readonly Name[];
  readonly opType?: Name;
  readonly overload?: Name;
}

export interface IdList extends Node_ {
  readonly kind: "IdList";
  /** Entries in list semantics (see the syntax doc §2.5): an `Empty` is a missing entry. */
  readonly items: readonly (Name | Empty)[];
}

export interface Empty extends Node_ {
  readonly kind: "Empty";
}

export interface AttributeList extends Node_ {
  readonly kind: "AttributeList";
  readonly items: readonly Attribute[];
}

/** `name (: type)? = value`. */
export interface Attribute extends Node_ {
  readonly kind: "Attribute";
  readonly name?: Name;
  /** The `: float` / `: ints` ... annotation. */
  readonly annotation?: Keyword;
  readonly value?: AttrValue;
}

export type AttrValue = Literal | RefValue | TensorValue | TypeValue | Graph | ListValue;

export interface RefValue extends Node_ {
  readonly kind: "Ref";
  readonly name?: Name;
}

/** `float[2] name = {1, 2}` as an attribute value. */
export interface TensorValue extends Node_ {
  readonly kind: "TensorValue";
  readonly type: TypeExpr;
  readonly name?: Name;
  readonly data?: TensorData;
}

/** A bare type as an attribute value (TYPE_PROTO). */
export interface TypeValue extends Node_ {
  readonly kind: "TypeValue";
  readonly type: TypeExpr;
}

export interface ListValue extends Node_ {
  readonly kind: "List";
  readonly items: readonly AttrValue[];
}

// ---- types -------------------------------------------------------------------------------

export type TypeExpr = TensorType | SeqType | MapType | OptionalType | SparseTensorType | OpaqueType;

/**
 * `float` (no brackets: rank 0), `float[]` (brackets, no dims: unknown rank),
 * `float[N, 3]`.
 */
export interface TensorType extends Node_ {
  readonly kind: "TensorType";
  readonly elem: Keyword;
  readonly shape?: Shape;
}

export interface Shape extends Node_ {
  readonly kind: "Shape";
  readonly dims: readonly Dim[];
}

export interface Dim extends Node_ {
  readonly kind: "Dim";
  /** `?` -> unknown; `N` or `"M + N"` -> a Name; `3` -> an IntLit. */
  readonly value?: IntLit | Name | Unknown;
}

export interface Unknown extends Node_ {
  readonly kind: "Unknown";
}

export interface SeqType extends Node_ {
  readonly kind: "SeqType";
  readonly elem?: TypeExpr;
}

export interface MapType extends Node_ {
  readonly kind: "MapType";
  readonly key?: Keyword;
  readonly value?: TypeExpr;
}

export interface OptionalType extends Node_ {
  readonly kind: "OptionalType";
  readonly elem?: TypeExpr;
}

export interface SparseTensorType extends Node_ {
  readonly kind: "SparseTensorType";
  readonly elem?: TensorType;
}

export interface OpaqueType extends Node_ {
  readonly kind: "OpaqueType";
  /** The dotted parts of the first argument and, when two are written, of the second. */
  readonly first?: readonly Name[];
  readonly second?: Name;
}

// ---- tensor data -------------------------------------------------------------------------

export type TensorData = InlineData | ExternalData;

export interface InlineData extends Node_ {
  readonly kind: "InlineData";
  readonly elements: readonly Literal[] | PackedNumbers;
}

/**
 * A long run of plain numbers lexed as one token for speed. Values are doubles; integers
 * beyond 2^53 are re-read from the source text (the span) when exactness matters. A raised
 * tensor may hold a view of its raw bytes instead (no widened copy): a Float32Array for
 * float32, an integer array for integer types (each element a number all the same).
 */
export interface PackedNumbers extends Node_ {
  readonly kind: "PackedNumbers";
  readonly values: PackedValues;
  /** True when no element has a `.`, an exponent or a word form (inf/nan). */
  readonly allIntegers: boolean;
}

/** The arrays packed numbers come in; every element reads as a number. */
export type PackedValues = Float64Array | Float32Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

export interface ExternalData extends Node_ {
  readonly kind: "ExternalData";
  readonly props: PropList;
}

// ---- parse result ------------------------------------------------------------------------

export interface Comment {
  readonly span: Span;
  /** The text after `#`, without the line break. */
  readonly text: string;
}

export type AstNode =
  | Name
  | Keyword
  | IntLit
  | FloatLit
  | StrLit
  | Model
  | Header
  | HeaderEntry
  | OpsetList
  | OpsetEntry
  | PropList
  | PropEntry
  | Graph
  | FunctionDef
  | ParamList
  | ValueDeclList
  | ValueDecl
  | NodeBlock
  | OpNode
  | Label
  | OpName
  | IdList
  | Empty
  | AttributeList
  | Attribute
  | RefValue
  | TensorValue
  | TypeValue
  | ListValue
  | TensorType
  | Shape
  | Dim
  | Unknown
  | SeqType
  | MapType
  | OptionalType
  | SparseTensorType
  | OpaqueType
  | InlineData
  | PackedNumbers
  | ExternalData;
