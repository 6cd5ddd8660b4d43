// A graph and a function seen the same way: named inputs and outputs (typed or not), value
// infos, initializers and nodes. The comparison works on this shape.
import type { FunctionProto, GraphProto, NodeProto, TensorProto, ValueInfoProto } from "../../../proto/src/index.js";

/** Where a body is in each side: the path prefix of its elements. */
export interface BodyPaths {
  readonly a: string;
  readonly b: string;
  /** The body's id in the graph view on each side (undefined for functions, drawn per call). */
  readonly idA?: string;
  readonly idB?: string;
}

/** An element's id in the graph view, below a body's id: `main` + `n3` -> `main/n3`. */
export function viewId(body: string | undefined, element: string): string | undefined {
  return body === undefined ? undefined : `${body}/${element}`;
}

export interface Body {
  /** The proto itself, for places. */
  readonly element: object;
  readonly name: string;
  readonly docString: string;
  readonly inputs: readonly string[];
  /** Each input's declaration (with its type), when it has one. */
  readonly inputInfo: readonly (ValueInfoProto | undefined)[];
  readonly outputs: readonly string[];
  readonly outputInfo: readonly (ValueInfoProto | undefined)[];
  /** Value infos of the other values. */
  readonly valueInfo: readonly ValueInfoProto[];
  readonly initializers: readonly TensorProto[];
  readonly nodes: readonly NodeProto[];
}

export function graphBody(g: GraphProto): Body {
  return {
    element: g,
    name: g.name,
    docString: g.docString,
    inputs: g.input.map((v) => v.name),
    inputInfo: g.input,
    outputs: g.output.map((v) => v.name),
    outputInfo: g.output,
    valueInfo: g.valueInfo,
    initializers: g.initializer,
    nodes: g.node,
  };
}

export function functionBody(f: FunctionProto): Body {
  const infos = new Map(f.valueInfo.map((v) => [v.name, v]));
  const ends = new Set([...f.input, ...f.output]);
  return {
    element: f,
    name: f.name,
    docString: f.docString,
    inputs: f.input,
    inputInfo: f.input.map((n) => infos.get(n)),
    outputs: f.output,
    outputInfo: f.output.map((n) => infos.get(n)),
    valueInfo: f.valueInfo.filter((v) => !ends.has(v.name)),
    initializers: [],
    nodes: f.node,
  };
}
