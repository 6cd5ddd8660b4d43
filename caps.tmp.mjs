import { modelFromText } from "./dist/core/src/text.js";
import { runModel, describeRunError, defaultValue, Rng } from "./dist/core/src/interp/index.js";
const H = `<ir_version: 8, opset_import: ["" : 18]>\n`;
const cases = {
  expand: `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {1000000, 1000000}> () \n y = Expand(x, s) }`,
  cos: `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {1000000, 1000000}> () \n y = ConstantOfShape(s) }`,
  tile: `${H}g (float[1] x) => (float y) { s = Constant <value = int64[1] {1000000000000}> () \n y = Tile(x, s) }`,
  range: `${H}g (float[1] x) => (float y) { a = Constant <value = float {0}> () \n b = Constant <value = float {1e12}> () \n c = Constant <value = float {1}> () \n y = Range(a, b, c) }`,
  pad: `${H}g (float[1] x) => (float y) { p = Constant <value = int64[2] {0, 1000000000000}> () \n y = Pad(x, p) }`,
  onehot: `${H}g (int64[1] x) => (float y) { d = Constant <value = int64 {1000000000000}> () \n v = Constant <value = float[2] {0, 1}> () \n y = OneHot(x, d, v) }`,
  resize: `${H}g (float[1,1,2,2] x) => (float y) { r = Constant <value = float[4] {1, 1, 1000000, 1000000}> () \n y = Resize <mode = "nearest"> (x, , r) }`,
  loop: `${H}g (float[1] x) => (float y, float z) { m = Constant <value = int64 {1000000000000000}> () \n c = Constant <value = bool {1}> () \n y, z = Loop (m, c, x) <body = b (int64 i, bool ci, float[1] v) => (bool co, float[1] vo, float[1] so) { co = Identity(ci) \n vo = Identity(v) \n so = Identity(v) }> }`,
  loopNoScan: `${H}g (float[1] x) => (float y) { m = Constant <value = int64 {1000000000000000}> () \n c = Constant <value = bool {1}> () \n y = Loop (m, c, x) <body = b (int64 i, bool ci, float[1] v) => (bool co, float[1] vo) { co = Identity(ci) \n vo = Add(v, v) }> }`,
  randn: `${H}g (float[1] x) => (float y) { y = RandomNormal <shape = [1000000, 1000000]> () }`,
  dft: `${H}g (float[1,4,1] x) => (float y) { n = Constant <value = int64 {1000000000000}> () \n y = DFT(x, n) }`,
  mel: `${H}g (float[1] x) => (float y) { a = Constant <value = int64 {1000000}> () \n b = Constant <value = int64 {2000000}> () \n c = Constant <value = int64 {16000}> () \n d = Constant <value = float {0}> () \n e = Constant <value = float {8000}> () \n y = MelWeightMatrix(a, b, c, d, e) }`,
  upsample: `${H}g (float[1,1,2,2] x) => (float y) { r = Constant <value = float[4] {1, 1, 1000000, 1000000}> () \n y = Resize <mode = "linear"> (x, , r) }`,
  convT: `${H}g (float[1,1,2,2] x, float[1,1,1,1] w) => (float y) { y = ConvTranspose <output_shape = [1000000, 1000000]> (x, w) }`,
  reshapeNeg: `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {-1, -1}> () \n y = Reshape(x, s) }`,
  concatSeq: `${H}g (float[1] x) => (float y) { s = Constant <value = int64[3] {100000, 100000, 100000}> () \n e = Expand(x, s) \n y = Identity(e) }`,
};
const only = process.argv[2];
for (const [k, t] of Object.entries(cases)) {
  if (only && k !== only) continue;
  const r = modelFromText(t);
  if (!r.model) { console.log(k, "parse", r.diagnostics.map(d=>d.message)); continue; }
  const g = r.model.graph;
  const feeds = new Map(g.input.map(i => [i.name, defaultValue(i.type, new Map(), new Rng(0), i.name)]));
  const t0 = Date.now();
  try { runModel(r.model, feeds, { maxLoopIterations: +(process.env.IT ?? 100000), timeoutMs: +(process.env.TO ?? 5000), maxMemoryBytes: +(process.env.MEM ?? 4e9) }); console.log(k, "ran OK", Date.now()-t0); }
  catch (e) { console.log(k, Date.now()-t0, "ms", e.constructor.name, describeRunError(e)); }
}
