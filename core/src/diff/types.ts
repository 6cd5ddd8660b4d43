// The data `diffModels` gives: a list of changes between two models, each with its kind, a
// path naming the element and its place in both inputs. This is the JSON shape of
// `onnxtxt diff --format json` (documented in docs/diff.md).
import type { Span } from "../../../grammar/src/span.js";
import type { ModelProto, NodeProto } from "../../../proto/src/index.js";
import type { RangeReader } from "../io/external-data.js";
import type { SourceMap } from "../source-map.js";

/** Where a model's external data is: the folder its locations are relative to, and how to read a range of a file. */
export interface ExternalDataSource {
  readonly baseDir: string;
  readonly read: RangeReader;
}

/** One side of a diff: a model, and for text input the text and the source map it was lowered with. */
export interface DiffSide {
  readonly model: ModelProto;
  /** The text the model was read from; with `sourceMap`, places get line and column. */
  readonly text?: string;
  readonly sourceMap?: SourceMap;
  /**
   * How to read its external data: tensors stored outside the model are then compared by
   * value. Without it (or when a file cannot be read, which a note says) by their reference.
   */
  readonly externalData?: ExternalDataSource;
}

export type DiffInput = ModelProto | DiffSide;

export interface DiffOptions {
  /** Renamed values and nodes are not reported (the matching never relies on names anyway). */
  readonly ignoreNames?: boolean;
  /** Initializer and tensor-attribute values are not compared (types and shapes still are). */
  readonly ignoreWeights?: boolean;
  /** Elements differ when |a - b| > atol + rtol * |b| (both default 0: any difference counts). */
  readonly rtol?: number;
  readonly atol?: number;
  /**
   * A side given without a source map (a binary model) gets places in its canonical text
   * (`printModel`'s), found by printing and re-reading it, when it has at most this many
   * nodes (default 100,000; 0 never). Above, its places have paths only and the result says so.
   */
  readonly canonicalPlacesUpTo?: number;
}

export type ChangeKind =
  | "ir-version"
  | "opset"
  | "model-field"
  | "metadata"
  | "function-added"
  | "function-removed"
  | "graph-field"
  | "input-added"
  | "input-removed"
  | "input-type"
  | "output-added"
  | "output-removed"
  | "output-type"
  | "output-source"
  | "value-info-added"
  | "value-info-removed"
  | "value-info-type"
  | "value-renamed"
  | "initializer-added"
  | "initializer-removed"
  | "initializer-changed"
  | "node-added"
  | "node-removed"
  | "node-changed"
  | "node-moved";

/** Where an element is in one input. Lines and columns are 1-based (UTF-16 columns). */
export interface Place {
  /** The element: `main / node 12 (Conv "conv1")`, `main / node 3 (If) / then_branch / node 0 (Add)`, ... */
  readonly path: string;
  /**
   * Its id in the graph view's display graph (`onnxtxt graph --format json`): `main/n12`,
   * `main/n3/then_branch/n0`, `main/in:x`, `main/out:y`; absent for what the view draws no box
   * for (initializers, value infos, the header, function bodies).
   */
  readonly id?: string;
  /** Character offsets [start, end) in the side's text, when it has one. */
  readonly span?: Span;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

/** How two tensors of the same type and shape differ. */
export interface TensorDifference {
  readonly type: string;
  /** Number of elements. */
  readonly elements: number;
  /** Elements outside the tolerance. */
  readonly differing: number;
  readonly maxAbsDiff: number;
  readonly maxRelDiff: number;
  /** The first differing element's flat index, when one differs. */
  readonly firstIndex?: number;
  readonly rtol: number;
  readonly atol: number;
}

export interface Change {
  readonly kind: ChangeKind;
  /** One line saying what changed, in the canonical text's terms. */
  readonly message: string;
  /** The element in A (absent for an addition) and in B (absent for a removal). */
  readonly a?: Place;
  readonly b?: Place;
  /** For a changed node: one line per difference (`attribute alpha: 0.5 -> 0.2`, `input 1: w -> w2`). */
  readonly details?: readonly string[];
  /** For a changed initializer or tensor attribute with the same type and shape. */
  readonly tensor?: TensorDifference;
  /** For a renamed value: the names in A and in B. */
  readonly from?: string;
  readonly to?: string;
}

export interface DiffResult {
  readonly equal: boolean;
  readonly changes: readonly Change[];
  /** Notes about the comparison itself (e.g. places given as paths only). */
  readonly notes: readonly string[];
  /**
   * The text each side's places point into: the input text, or the canonical text printed for
   * a binary model (undefined when its places have paths only).
   */
  readonly textA?: string;
  readonly textB?: string;
}

/**
 * A node of A with no pair in B, as the graph view's diff mode draws it in B's drawing: where
 * it stood, which values of B it read and which boxes of B read what it wrote.
 */
export interface RemovedNode {
  /** Its `node-removed` change. */
  readonly change: Change;
  readonly node: NodeProto;
  /** Its index in A's body. */
  readonly index: number;
  /** The view id of B's body it is drawn in (`main`, `main/n3/then_branch`). */
  readonly graph: string;
  /** The index in B's body of the node it is drawn before (the body's length: at the end). */
  readonly before: number;
  /** Per input of the node: the value of B it pairs with, when one does. */
  readonly inputs: readonly (string | undefined)[];
  /** Per output of the node: the indices in B's body of the paired nodes that read it in A. */
  readonly readers: readonly (readonly number[])[];
}
