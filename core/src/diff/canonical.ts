// Places in a binary model's canonical text: the model is printed as `onnxtxt print` prints it,
// the text read back with a source map, and the two models walked in step so that each element
// of the original gets the span of its printed self.
import type { AttributeProto, GraphProto, ModelProto, NodeProto } from "../../../proto/src/index.js";
import { printModel } from "../print-model.js";
import { SourceMap } from "../source-map.js";
import { parseModel } from "../../../grammar/src/index.js";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { lowerModel } from "../lower/index.js";

export interface CanonicalPlaces {
  readonly text: string;
  readonly sourceMap: SourceMap;
}

/** Undefined when the printed text does not read back (it always should: a note says so). */
export function canonicalPlaces(model: ModelProto): CanonicalPlaces | undefined {
  const text = printModel(model);
  const parsed = parseModel(text);
  if (!parsed.ast || hasErrors(parsed.diagnostics)) return undefined;
  const read = lowerModel(parsed.ast, text);
  const map = new SourceMap();
  const copy = (from: object | undefined, to: object | undefined): void => {
    const spans = to && read.sourceMap.get(to);
    if (from && spans) map.set(from, spans);
  };
  copy(model, read.model);
  model.opsetImport.forEach((o, i) => copy(o, read.model!.opsetImport[i]));
  const graphs: [GraphProto, GraphProto][] = [];
  if (model.graph && read.model.graph) graphs.push([model.graph, read.model.graph]);
  const byName = (xs: readonly { name: string }[], ys: readonly { name: string }[]): void => {
    const named = new Map(ys.map((y) => [y.name, y]));
    for (const x of xs) copy(x, named.get(x.name));
  };
  const nodes = (xs: readonly NodeProto[], ys: readonly NodeProto[]): void => {
    xs.forEach((n, i) => {
      const m = ys[i];
      if (!m) return;
      copy(n, m);
      const byName = new Map<string, AttributeProto>(m.attribute.map((a) => [a.name, a]));
      for (const a of n.attribute) {
        const b = byName.get(a.name);
        if (!b) continue;
        copy(a, b);
        if (a.g && b.g) graphs.push([a.g, b.g]);
        a.graphs.forEach((g, k) => b.graphs[k] && graphs.push([g, b.graphs[k]!]));
      }
    });
  };
  model.functions.forEach((f, i) => {
    const g = read.model!.functions[i];
    if (!g) return;
    copy(f, g);
    byName(f.valueInfo, g.valueInfo);
    nodes(f.node, g.node);
  });
  // an explicit stack: subgraphs may nest deeply
  for (let next = graphs.pop(); next; next = graphs.pop()) {
    const [x, y] = next;
    copy(x, y);
    byName(x.input, y.input);
    byName(x.output, y.output);
    byName(x.valueInfo, y.valueInfo);
    byName(x.initializer, y.initializer);
    nodes(x.node, y.node);
  }
  return { text, sourceMap: map };
}
