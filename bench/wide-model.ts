// A binary ModelProto with one long chain of nodes, written straight as protobuf wire bytes
// (making a million NodeProto messages first would take longer than what is measured).
// x -> Neg -> Abs -> LeakyRelu<alpha = 0.5> -> Neg -> ... -> y, on float[1]; node i is named n<i>.

class Wire {
  private buf = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  varint(v: number): this {
    this.room(10);
    while (v > 0x7f) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }

  bytes(field: number, b: Uint8Array): this {
    this.tag(field, 2).varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  message(field: number, m: Wire): this {
    return this.bytes(field, m.done());
  }

  float(field: number, f: number): this {
    this.tag(field, 5);
    this.room(4);
    new DataView(this.buf.buffer).setFloat32(this.length, f, true);
    this.length += 4;
    return this;
  }

  done(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

function valueInfo(name: string): Wire {
  const dim = new Wire().tag(1, 0).varint(1);
  const shape = new Wire().message(1, dim);
  const tensor = new Wire().tag(1, 0).varint(1).message(2, shape);
  const type = new Wire().message(1, tensor);
  return new Wire().string(1, name).message(2, type);
}

const OPS = ["Neg", "Abs", "LeakyRelu"];

/** The model's bytes: `nodes` nodes in one chain; `alpha` gives each LeakyRelu's alpha (default 0.5). */
export function chainModelBytes(nodes: number, alpha: (i: number) => number = () => 0.5): Uint8Array {
  const graph = new Wire();
  for (let i = 0; i < nodes; i++) {
    const op = OPS[i % OPS.length]!;
    const node = new Wire()
      .string(1, i === 0 ? "x" : `v${i - 1}`)
      .string(2, i === nodes - 1 ? "y" : `v${i}`)
      .string(3, `n${i}`)
      .string(4, op);
    if (op === "LeakyRelu") node.message(5, new Wire().string(1, "alpha").float(2, alpha(i)).tag(20, 0).varint(1));
    graph.message(1, node);
  }
  graph.string(2, "chain").message(11, valueInfo("x")).message(12, valueInfo("y"));
  const opset = new Wire().string(1, "").tag(2, 0).varint(18);
  return new Wire().tag(1, 0).varint(8).message(8, opset).message(7, graph).done();
}

/** What the chain computes for x (no -0 or rounding on the way: |x| stays as it is). */
export function chainResult(nodes: number, x: number): number {
  let v = x;
  for (let i = 0; i < nodes; i++) {
    const op = OPS[i % OPS.length]!;
    v = op === "Abs" ? Math.abs(v) : op === "Neg" ? -v : v < 0 ? v * 0.5 : v;
  }
  return v;
}
