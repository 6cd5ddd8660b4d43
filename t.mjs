import { parseModel, parseNode, parseGraph, parseTypeExpr, parseTensorConstant, LineIndex } from "./dist/grammar/src/index.js";
const cases = [
  `g (float[N] x) => (y) {\n  y = Relu(x\n}`,
  `g (float[N] x) => (y) {\n  y = Relu(x)\n`,
  `<ir_version: 7,> g () => () {}`,
  `<> g () => () {}`,
  `<ir_version: "7"> g () => () {}`,
  `<opset_import: ['' : 15]> g () => () {}`,
  `g (float[N] x) => (y) {\n  y = Relu(x);\n  z = Add(y, y)\n}`,
  `g (float[N] x) => (y) {\n  y = Op <a = +1> (x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op <a = {1}> (x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op <> (x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op <a: foo = 1> (x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op <a = "unterminated> (x)\n}`,
  `g (float[N] x y) => (y) {\n  y = Op(x)\n}`,
  `g (float[N x) => (y) {\n  y = Op(x)\n}`,
  `g (float[N] x) => (y) <float[2] w = {1, - 2}> {\n  y = Op(x)\n}`,
  `g (float[N] x) => (y) <float[2] w = {1, 2,}> {\n  y = Op(x)\n}`,
  `g (float[N] x) (y) {\n  y = Op(x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op(x)\n}\ntrailing junk here`,
  `g (float[N] x) => (y) {\n  y = Op(x)\n} }`,
  `(float[N] x) => (y) {\n  y = Op(x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op(x)\n  y2 = Op2 (x) <a = 1> <b = 2>\n}`,
  `g (float[N] x) => (y) {\n  y = If (c) <then_branch = t () => (o) {\n    o = Bad(\n  }>\n  z = Add(x, x)\n}`,
  `g (float[N] x) => (y) {\n  y = Op(x) \u00a0\n}`,
  `g (float[N] x) => (y) {\n  1y = Op(x)\n}`,
  `g (map(float) x) => (y) {}`,
  ``,
  `   # only a comment`,
];
for (const c of cases) {
  const r = parseModel(c);
  const li = new LineIndex(c);
  console.log(JSON.stringify(c).slice(0, 70));
  for (const d of r.diagnostics) console.log("   ", li.lineCol(d.span.start), d.message);
}
