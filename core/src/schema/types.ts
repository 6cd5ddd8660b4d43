// The shape of an operator schema, as the checker, inference, interpreter and language
// server see it. Facts come from onnx's schemas (see scripts/gen-schemas.mjs).

export type ParamOption = "single" | "optional" | "variadic";

export interface FormalParameter {
  readonly name: string;
  /** A type parameter (`T`) or a concrete type string (`tensor(int64)`). */
  readonly typeStr: string;
  readonly option: ParamOption;
  /** For variadic parameters: all actual values share one type. */
  readonly homogeneous: boolean;
  /** For variadic parameters: the least number of values. */
  readonly minArity: number;
}

/** Attribute type names as onnx spells them (AttributeProto.AttributeType). */
export type AttributeTypeName =
  | "FLOAT"
  | "INT"
  | "STRING"
  | "TENSOR"
  | "GRAPH"
  | "SPARSE_TENSOR"
  | "TYPE_PROTO"
  | "FLOATS"
  | "INTS"
  | "STRINGS"
  | "TENSORS"
  | "GRAPHS"
  | "SPARSE_TENSORS"
  | "TYPE_PROTOS";

export type AttributeDefault = number | string | readonly number[] | readonly string[];

export interface AttributeSchema {
  readonly name: string;
  readonly type: AttributeTypeName;
  readonly required: boolean;
  readonly default?: AttributeDefault;
}

export interface TypeConstraint {
  readonly param: string;
  /** Type strings: `tensor(float)`, `seq(tensor(int64))`, `optional(tensor(bool))`, ... */
  readonly allowed: readonly string[];
  /** The same, for lookups (inference tests every input of every node against it). */
  readonly allowedSet: ReadonlySet<string>;
}

export interface OpSchema {
  /** "" for ai.onnx. */
  readonly domain: string;
  readonly name: string;
  readonly sinceVersion: number;
  /** A deprecated schema marks the op as removed from `sinceVersion` on. */
  readonly deprecated: boolean;
  readonly minInput: number;
  readonly maxInput: number;
  readonly minOutput: number;
  readonly maxOutput: number;
  readonly inputs: readonly FormalParameter[];
  readonly outputs: readonly FormalParameter[];
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  readonly typeConstraints: ReadonlyMap<string, TypeConstraint>;
  readonly hasShapeInference: boolean;
  /** Function bodies in the text syntax, keyed by the opset version the body is written for. */
  readonly functionBodies: ReadonlyMap<number, string>;
  /** Versions whose body onnx builds per call site (not available as text). */
  readonly contextDependentFunctionVersions: readonly number[];
  readonly docUrl: string;
}
