// B with A's names: every value of B paired with a differently named value of A takes A's name,
// so that a line diff of the two texts shows what changed and not what was renamed.
import { clone } from "@bufbuild/protobuf";
import { ModelProtoSchema, type FunctionProto, type GraphProto, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { copyNanBits } from "../io/nan-bits.js";

type Names = ReadonlyMap<string, string>;

function renamer(chain: readonly Names[]): (name: string) => string {
  return (name) => {
    for (let k = chain.length - 1; k >= 0; k--) {
      const v = chain[k]!.get(name);
      if (v !== undefined) return v;
    }
    return name;
  };
}

/** A copy of `model` with its values renamed; `renames` is keyed by the bodies (graphs, functions) of `model`. */
export function withAlignedNames(model: ModelProto, renames: ReadonlyMap<object, Names>): ModelProto {
  const out = clone(ModelProtoSchema, model);
  copyNanBits(ModelProtoSchema, model, out); // NaN payloads survive the copy
  const graphs: [GraphProto, GraphProto, readonly Names[]][] = [];
  const nodes = (xs: readonly NodeProto[], ys: NodeProto[], chain: readonly Names[]): void => {
    const r = renamer(chain);
    xs.forEach((n, i) => {
      const m = ys[i]!;
      m.input = m.input.map(r);
      m.output = m.output.map(r);
      n.attribute.forEach((a, k) => {
        const b = m.attribute[k]!;
        if (a.g && b.g) graphs.push([a.g, b.g, chain]);
        a.graphs.forEach((g, j) => graphs.push([g, b.graphs[j]!, chain]));
      });
    });
  };
  const within = (body: object, chain: readonly Names[]): readonly Names[] => {
    const own = renames.get(body);
    return own ? [...chain, own] : chain;
  };
  if (model.graph && out.graph) graphs.push([model.graph, out.graph, []]);
  model.functions.forEach((f: FunctionProto, i) => {
    const g = out.functions[i]!;
    const chain = within(f, []);
    const r = renamer(chain);
    g.input = g.input.map(r);
    g.output = g.output.map(r);
    for (const v of g.valueInfo) v.name = r(v.name);
    nodes(f.node, g.node, chain);
  });
  for (let next = graphs.pop(); next; next = graphs.pop()) {
    const [x, y, outer] = next;
    const chain = within(x, outer);
    const r = renamer(chain);
    for (const v of [...y.input, ...y.output, ...y.valueInfo]) v.name = r(v.name);
    for (const t of y.initializer) t.name = r(t.name);
    nodes(x.node, y.node, chain);
  }
  return out;
}
