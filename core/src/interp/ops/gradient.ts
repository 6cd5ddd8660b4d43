// Gradient (ai.onnx.preview.training): reverse-mode differentiation of the enclosing graph
// from `y` back to `xs`, for the elementwise arithmetic ops and 2-d MatMul.
import type { NodeProto } from "../../../../proto/src/index.js";
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, numbers, sizeOf, type Tensor, type Value, floats64 } from "../value.js";
import { at, broadcastIndex, fail, t } from "./util.js";

/** Sums a gradient of the broadcast shape back onto the operand's shape. */
function unbroadcast(g: Float64Array, outDims: readonly number[], dims: readonly number[]): Float64Array {
  if (sizeOf(dims) === g.length) return g;
  const map = broadcastIndex(outDims, dims);
  const r = floats64(sizeOf(dims));
  for (let i = 0; i < g.length; i++) r[at(map, i)]! += g[i]!;
  return r;
}

function gradient(_inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const graph = ctx.graph ?? fail("Gradient needs its enclosing graph");
  const xs = ctx.attrs.strings("xs") ?? fail("Gradient: no 'xs'");
  const y = ctx.attrs.string("y") ?? fail("Gradient: no 'y'");
  const value = (name: string): Tensor => t(graph.lookup(name), name);
  const grads = new Map<string, Float64Array>();
  const add = (name: string, g: Float64Array, outDims: readonly number[]) => {
    const dims = value(name).dims;
    const r = unbroadcast(g, outDims, dims);
    const cur = grads.get(name);
    if (!cur) grads.set(name, Float64Array.from(r));
    else for (let i = 0; i < cur.length; i++) cur[i]! += r[i]!;
  };
  grads.set(y, floats64(sizeOf(value(y).dims)).fill(1));
  const self = graph.nodes.indexOf(ctx.node);
  const before: NodeProto[] = graph.nodes.slice(0, self < 0 ? graph.nodes.length : self);
  for (let k = before.length - 1; k >= 0; k--) {
    const node = before[k]!;
    const out = node.output[0]!;
    const g = grads.get(out);
    if (!g) continue;
    const od = value(out).dims;
    const [a, b] = node.input;
    const av = a ? numbers(value(a)) : undefined;
    const bv = b ? numbers(value(b)) : undefined;
    const ov = numbers(value(out));
    const ia = a ? broadcastIndex(od, value(a).dims) : undefined;
    const ib = b ? broadcastIndex(od, value(b).dims) : undefined;
    const map = (f: (i: number) => number) => Float64Array.from(g, (_, i) => f(i));
    const A = (i: number) => av![at(ia!, i)]!;
    const B = (i: number) => bv![at(ib!, i)]!;
    switch (node.opType) {
      case "Add":
        add(a!, g, od);
        add(b!, g, od);
        break;
      case "Sub":
        add(a!, g, od);
        add(
          b!,
          map((i) => -g[i]!),
          od,
        );
        break;
      case "Mul":
        add(
          a!,
          map((i) => g[i]! * B(i)),
          od,
        );
        add(
          b!,
          map((i) => g[i]! * A(i)),
          od,
        );
        break;
      case "Div":
        add(
          a!,
          map((i) => g[i]! / B(i)),
          od,
        );
        add(
          b!,
          map((i) => (-g[i]! * A(i)) / (B(i) * B(i))),
          od,
        );
        break;
      case "Neg":
        add(
          a!,
          map((i) => -g[i]!),
          od,
        );
        break;
      case "Identity":
        add(a!, g, od);
        break;
      case "Relu":
        add(
          a!,
          map((i) => (A(i) > 0 ? g[i]! : 0)),
          od,
        );
        break;
      case "Exp":
        add(
          a!,
          map((i) => g[i]! * ov[i]!),
          od,
        );
        break;
      case "Log":
        add(
          a!,
          map((i) => g[i]! / A(i)),
          od,
        );
        break;
      case "Tanh":
        add(
          a!,
          map((i) => g[i]! * (1 - ov[i]! * ov[i]!)),
          od,
        );
        break;
      case "Sigmoid":
        add(
          a!,
          map((i) => g[i]! * ov[i]! * (1 - ov[i]!)),
          od,
        );
        break;
      case "MatMul": {
        const [m, kk] = value(a!).dims as [number, number];
        const n = value(b!).dims[1]!;
        const ga = floats64(m * kk);
        const gb = floats64(kk * n);
        for (let i = 0; i < m; i++)
          for (let j = 0; j < n; j++)
            for (let p = 0; p < kk; p++) {
              ga[i * kk + p]! += g[i * n + j]! * bv![p * n + j]!;
              gb[p * n + j]! += av![i * kk + p]! * g[i * n + j]!;
            }
        add(a!, ga, value(a!).dims);
        add(b!, gb, value(b!).dims);
        break;
      }
      default:
        fail(`Gradient: no derivative for ${node.opType}`);
    }
  }
  return xs.map((x) => {
    const v = value(x);
    return fromNumbers(v.dtype, v.dims, grads.get(x) ?? floats64(sizeOf(v.dims)));
  });
}

export function registerGradient(r: Registry): void {
  r.register("Gradient", gradient, { domain: "ai.onnx.preview.training" });
}
