// Typed access to a node's attributes, with defaults; tensors are decoded once.
import { AttributeProto_AttributeType as AT, type AttributeProto, type GraphProto, type NodeProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/index.js";
import { sparseToDense, tensorFromProto } from "./tensor-proto.js";
import type { Tensor } from "./value.js";

const utf8 = new TextDecoder("utf-8");

export class Attrs {
  private readonly byName = new Map<string, AttributeProto>();
  private tensors?: Map<string, Tensor>;

  constructor(readonly node: NodeProto) {
    for (const a of node.attribute) this.byName.set(a.name, a);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  private get(name: string, type: AT): AttributeProto | undefined {
    const a = this.byName.get(name);
    if (a === undefined) return undefined;
    if (a.type !== type && a.type !== AT.UNDEFINED) {
      throw new OnnxtxtError(`attribute '${name}' has type ${AT[a.type]}, expected ${AT[type]}`);
    }
    return a;
  }

  int(name: string, dflt: number): number;
  int(name: string): number | undefined;
  int(name: string, dflt?: number): number | undefined {
    const a = this.get(name, AT.INT);
    return a ? Number(a.i) : dflt;
  }

  bigint(name: string): bigint | undefined {
    return this.get(name, AT.INT)?.i;
  }

  float(name: string, dflt: number): number;
  float(name: string): number | undefined;
  float(name: string, dflt?: number): number | undefined {
    const a = this.get(name, AT.FLOAT);
    return a ? a.f : dflt;
  }

  string(name: string, dflt: string): string;
  string(name: string): string | undefined;
  string(name: string, dflt?: string): string | undefined {
    const a = this.get(name, AT.STRING);
    return a ? utf8.decode(a.s) : dflt;
  }

  ints(name: string): number[] | undefined {
    const a = this.get(name, AT.INTS);
    return a ? a.ints.map(Number) : undefined;
  }

  floats(name: string): number[] | undefined {
    return this.get(name, AT.FLOATS)?.floats.slice();
  }

  strings(name: string): string[] | undefined {
    return this.get(name, AT.STRINGS)?.strings.map((s) => utf8.decode(s));
  }

  tensor(name: string): Tensor | undefined {
    const cached = this.tensors?.get(name);
    if (cached) return cached;
    const a = this.byName.get(name);
    if (!a) return undefined;
    let t: Tensor;
    if (a.type === AT.SPARSE_TENSOR && a.sparseTensor) t = sparseToDense(a.sparseTensor);
    else {
      const p = this.get(name, AT.TENSOR)?.t;
      if (!p) return undefined;
      t = tensorFromProto(p);
    }
    (this.tensors ??= new Map()).set(name, t);
    return t;
  }

  graph(name: string): GraphProto | undefined {
    return this.get(name, AT.GRAPH)?.g;
  }

  requireGraph(name: string): GraphProto {
    const g = this.graph(name);
    if (!g) throw new OnnxtxtError(`missing graph attribute '${name}'`);
    return g;
  }

  raw(name: string): AttributeProto | undefined {
    return this.byName.get(name);
  }
}
