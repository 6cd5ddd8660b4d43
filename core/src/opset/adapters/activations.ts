// Gelu (new at 20) and Celu (new at 12) below their first version, as their formulas (onnx's
// bodies for them depend on the call, so there is no text body to inline).
import { tensor } from "../../infer/types.js";
import { floatAttr, stringAttr } from "../attrs.js";
import { elemOf, keep, makeNode, numberConstant, refuse, type Adapter, type StepContext } from "../context.js";
import type { NodeProto } from "../../../../proto/src/index.js";

/** Fresh names of `x`'s element type, and scalar constants of that type. */
function builder(node: NodeProto, ctx: StepContext, elem: number) {
  const base = node.output[0] || node.opType;
  const nodes: NodeProto[] = [];
  return {
    nodes,
    value(hint: string): string {
      const n = ctx.fresh(`${base}_${hint}`);
      ctx.setType(n, tensor(elem));
      return n;
    },
    scalar(hint: string, v: number): string {
      const c = numberConstant(ctx, `${base}_${hint}`, elem, [], [v]);
      nodes.push(c.node);
      return c.name;
    },
  };
}

/** Gelu: x/2 (1 + erf(x / sqrt 2)), or with approximate = "tanh": x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
export const geluBelow20: Adapter = (node, ctx) => {
  const x = node.input[0]!;
  const elem = elemOf(ctx, x);
  if (elem === undefined) return refuse(`the element type of '${x}' is unknown`);
  const b = builder(node, ctx, elem);
  const tanh = (stringAttr(node, "approximate") ?? "none") === "tanh";
  const [inner, curve, one] = [b.value("inner"), b.value("curve"), b.scalar("one", 1)];
  if (tanh) {
    const [cube, scaled, sum, arg] = [b.value("cube"), b.value("cube_scaled"), b.value("sum"), b.value("arg")];
    const three = b.scalar("three", 3);
    b.nodes.push(
      makeNode("Pow", [x, three], [cube]),
      makeNode("Mul", [cube, b.scalar("k", 0.044715)], [scaled]),
      makeNode("Add", [x, scaled], [sum]),
      makeNode("Mul", [sum, b.scalar("sqrt_2_over_pi", Math.sqrt(2 / Math.PI))], [arg]),
      makeNode("Tanh", [arg], [inner]),
    );
  } else {
    const arg = b.value("arg");
    b.nodes.push(makeNode("Div", [x, b.scalar("sqrt2", Math.SQRT2)], [arg]), makeNode("Erf", [arg], [inner]));
  }
  const [half, halfX] = [b.scalar("half", 0.5), b.value("half_x")];
  b.nodes.push(makeNode("Add", [inner, one], [curve]), makeNode("Mul", [x, half], [halfX]), makeNode("Mul", [halfX, curve], [node.output[0]!]));
  return keep(...b.nodes);
};

/** Celu: max(0, x) + min(0, alpha (exp(x / alpha) - 1)). */
export const celuBelow12: Adapter = (node, ctx) => {
  const x = node.input[0]!;
  const elem = elemOf(ctx, x);
  if (elem === undefined) return refuse(`the element type of '${x}' is unknown`);
  const alpha = floatAttr(node, "alpha") ?? 1;
  const b = builder(node, ctx, elem);
  const [zero, a, one] = [b.scalar("zero", 0), b.scalar("alpha", alpha), b.scalar("one", 1)];
  const [pos, ratio, e, em1, scaled, neg] = ["pos", "ratio", "exp", "exp_minus_1", "scaled", "neg"].map((h) => b.value(h));
  b.nodes.push(
    makeNode("Max", [x, zero], [pos!]),
    makeNode("Div", [x, a], [ratio!]),
    makeNode("Exp", [ratio!], [e!]),
    makeNode("Sub", [e!, one], [em1!]),
    makeNode("Mul", [em1!, a], [scaled!]),
    makeNode("Min", [scaled!, zero], [neg!]),
    makeNode("Add", [pos!, neg!], [node.output[0]!]),
  );
  return keep(...b.nodes);
};
