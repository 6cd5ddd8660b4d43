// What `convertOpset` gives back: the converted model and, as data, every node it rewrote or
// could not convert, so callers (CLI, editor) can say exactly what did not move.
import type { Span } from "../../../grammar/src/span.js";
import type { ModelProto, NodeProto } from "../../../proto/src/index.js";
import type { SourceMap } from "../source-map.js";

export interface ConvertOpsetOptions {
  /** Spans of the text the model came from: refusals then carry the node's span. */
  readonly sourceMap?: SourceMap;
  /** Target versions of other domains (`ai.onnx.ml`); those not named keep their version. */
  readonly domains?: Readonly<Record<string, number>>;
}

/** A node that keeps its old form because no adapter can express it at the target opset. */
export interface RefusedNode {
  readonly domain: string;
  readonly op: string;
  /** The node's name ("" when it has none). */
  readonly name: string;
  /** Where the node is: `graph 'main' > node 'loop' (Loop) body` or `function 'f'`. */
  readonly path: string;
  /** The opset versions of the step that failed (older, newer). */
  readonly step: readonly [number, number];
  readonly reason: string;
  /** The node statement in the text, when a source map was given. */
  readonly span?: Span;
  /** The original node (for callers that want to find it again). */
  readonly node: NodeProto;
}

export interface OpsetConversion {
  /** The converted model; refused nodes keep their old form in it. */
  readonly model: ModelProto;
  /** Domain ("" for ai.onnx) -> [version before, version after]. */
  readonly versions: ReadonlyMap<string, readonly [number, number]>;
  /** How many nodes were rewritten, and how many needed no change. */
  readonly rewritten: number;
  readonly unchanged: number;
  readonly refused: readonly RefusedNode[];
  /** Original node -> the nodes that replace it (only nodes that changed). */
  readonly replacements: ReadonlyMap<NodeProto, readonly NodeProto[]>;
  /** The replaced nodes whose only change is inside their subgraphs (their inner nodes are in `replacements`). */
  readonly viaSubgraphs: ReadonlySet<NodeProto>;
}
