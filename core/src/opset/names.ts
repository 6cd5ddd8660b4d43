// Every value name of a model (to make fresh ones) and the names something reads.
import type { GraphProto, ModelProto, NodeProto } from "../../../proto/src/index.js";

export class Names {
  private readonly taken = new Set<string>();
  private readonly read = new Set<string>();

  static ofModel(model: ModelProto): Names {
    const names = new Names();
    if (model.graph) names.addGraph(model.graph);
    for (const f of model.functions) {
      for (const n of [...f.input, ...f.output]) names.taken.add(n);
      for (const n of f.output) names.read.add(n);
      names.addNodes(f.node);
    }
    return names;
  }

  private addGraph(g: GraphProto): void {
    for (const v of [...g.input, ...g.output, ...g.valueInfo]) this.taken.add(v.name);
    for (const v of g.output) this.read.add(v.name);
    for (const t of g.initializer) this.taken.add(t.name);
    this.addNodes(g.node);
  }

  private addNodes(nodes: readonly NodeProto[]): void {
    for (const n of nodes) {
      for (const o of n.output) this.taken.add(o);
      for (const i of n.input) this.read.add(i);
      for (const a of n.attribute) {
        if (a.g) this.addGraph(a.g);
        for (const g of a.graphs) this.addGraph(g);
      }
    }
  }

  fresh(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9_]/g, "_") || "v";
    let name = base;
    for (let i = 1; this.taken.has(name); i++) name = `${base}_${i}`;
    this.taken.add(name);
    return name;
  }

  used(name: string): boolean {
    return this.read.has(name);
  }
}
