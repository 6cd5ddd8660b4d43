// Hostile runs: small models whose shapes, sizes and attributes are drawn from the values that
// break interpreters (0, negatives, 2^31, 2^53, 10^12, tiny or non-finite floats, long string
// chains), and a target that runs them under a small memory cap and a short deadline. A run
// may fail, but only with a one-line InterpError in ONNX terms, quickly, and it must never
// allocate past the cap (a JavaScript RangeError or an allocation failure is a violation).
import { defaultValue, describeRunError, InterpError, Interpreter, Rng as InterpRng, setAllocationLimit, type Value } from "../../../core/src/interp/index.js";
import { fastRegistry } from "../../../core/src/interp/fast/index.js";
import { modelFromText } from "../../../core/src/text.js";
import type { Rng } from "./rng.js";
import type { TextTarget } from "./targets.js";

const H = `<ir_version: 10, opset_import: ["" : 21]>\n`;
const INTS = [
  "0",
  "1",
  "-1",
  "2",
  "3",
  "7",
  "1000",
  "65536",
  "-65536",
  "2147483647",
  "2147483648",
  "-2147483648",
  "4294967297",
  "1000000000000",
  "9007199254740993",
  "9223372036854775807",
  "-9223372036854775808",
];
const FLOATS = ["0", "-0", "1", "-1", "0.5", "2e-9", "1e-30", "1e-320", "1e30", "3.4e38", "1e308", "inf", "-inf", "nan"];
/** What JavaScript says, never the interpreter. */
export const JS_MESSAGE =
  /Invalid (typed )?array length|Invalid string length|Maximum call stack|Cannot read prop|is not a function|is not iterable|Array buffer allocation|RangeError|TypeError|\bundefined\b/;

const RUN_MEMORY = 64 * 1024 * 1024;
const RUN_TIMEOUT_MS = 500;
/** A kernel that polls the deadline stops well within this. */
const RUN_SLACK_MS = 3000;

function ints(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => (rng.chance(0.5) ? String(rng.int(5)) : rng.pick(INTS))).join(", ");
}

function positives(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => (rng.chance(0.7) ? String(1 + rng.int(4)) : rng.pick(INTS))).join(", ");
}

const TEMPLATES: ((rng: Rng) => string)[] = [
  (r) => {
    const ty = r.pick(["float", "double", "int64", "int32"]);
    const v = () => (ty.startsWith("int") ? r.pick(INTS) : r.pick(FLOATS));
    return `${H}g (float[1] x) => (${ty} y) { a = Constant <value = ${ty} {${v()}}> ()\n b = Constant <value = ${ty} {${v()}}> ()\n c = Constant <value = ${ty} {${v()}}> ()\n y = Range(a, b, c) }`;
  },
  (r) =>
    `${H}g (float[${1 + r.int(6)}] x) => (float y, int64 i) { k = Constant <value = int64[1] {${r.pick(INTS)}}> ()\n y, i = TopK <largest = ${r.int(2)}> (x, k) }`,
  (r) => {
    const op = r.pick(["MaxPool", "AveragePool", "LpPool"]);
    return `${H}g (float[1, 2, 6, 6] x) => (float y) { y = ${op} <kernel_shape = [${positives(r, 2)}], pads = [${ints(r, 4)}], strides = [${positives(r, 2)}]${op === "MaxPool" && r.chance(0.5) ? `, dilations = [${positives(r, 2)}]` : ""}${r.chance(0.3) ? ", ceil_mode = 1" : ""}> (x) }`;
  },
  (r) => {
    const n = 1 + r.int(3);
    return `${H}g (float[1] x) => (float y) { s = Constant <value = int64[${n}] {${ints(r, n)}}> ()\n y = ConstantOfShape <value = float[1] {${r.pick(FLOATS)}}> (s) }`;
  },
  (r) => {
    const op = r.pick(["Expand", "Tile", "Pad", "Reshape"]);
    const n = op === "Pad" ? 4 : op === "Tile" ? 2 : 1 + r.int(3);
    return `${H}g (float[2, 1] x) => (float y) { s = Constant <value = int64[${n}] {${ints(r, n)}}> ()\n y = ${op}(x, s) }`;
  },
  (r) => {
    const n = r.pick(["1", "1000", "20000", "100000"]);
    const eq = r.pick(["i,j->ij", "i,j,k->ijk", "i,i->", "ij,jk->ik", "i->ii"]);
    const inputs = eq.split("->")[0]!.split(",");
    const decl = inputs.map((t, i) => `float[${[...t].map(() => n).join(", ")}] a${i}`).join(", ");
    return `${H}g (${decl}) => (float y) { y = Einsum <equation = "${eq}"> (${inputs.map((_, i) => `a${i}`).join(", ")}) }`;
  },
  (r) => {
    const depth = 20 + r.int(13);
    const lines = [`${H}g (float[1] x) => (string y) {`, `  s0 = Constant <value = string[1] {"ab"}> ()`];
    for (let i = 1; i <= depth; i++) lines.push(`  s${i} = StringConcat (s${i - 1}, s${i - 1})`);
    lines.push(`  y = Identity (s${depth})`, "}");
    return lines.join("\n");
  },
  (r) => {
    const [m, k, n] = [r.pick(["1", "64", "1500", "6000"]), r.pick(["1", "64", "1500"]), r.pick(["1", "64", "1500", "20000"])];
    return `${H}g (float[${m}, ${k}] a, float[${k}, ${n}] b) => (float y) { y = ${r.pick(["MatMul", "Gemm"])}(a, b) }`;
  },
  (r) =>
    `${H}g (float[1, 2, 8, 8] x, float[2, ${r.pick(["1", "2"])}, 3, 3] w) => (float y) { y = ${r.pick(["Conv", "ConvTranspose"])} <pads = [${ints(r, 4)}], strides = [${positives(r, 2)}], dilations = [${positives(r, 2)}], group = ${r.pick(["1", "2", "0", "-1", "3"])}> (x, w) }`,
  (r) =>
    `${H}g (int64[3] x) => (float y) { d = Constant <value = int64 {${r.pick(INTS)}}> ()\n v = Constant <value = float[2] {0, 1}> ()\n y = OneHot <axis = ${r.pick(["-1", "0", "1", "5", "-7"])}> (x, d, v) }`,
  (r) =>
    `${H}g (float[1, 1, 2, 2] x) => (float y) { s = Constant <value = float[4] {1, 1, ${r.pick(FLOATS)}, ${r.pick(FLOATS)}}> ()\n y = Resize <mode = "${r.pick(["nearest", "linear", "cubic"])}"> (x, , s) }`,
  (r) =>
    `${H}g (float[4, 3] x) => (float y) { i = Constant <value = int64[2] {${ints(r, 2)}}> ()\n y = ${r.pick(["Gather", "GatherElements"])} <axis = ${r.pick(["0", "1", "-1", "9"])}> (x, i) }`,
  (r) =>
    `${H}g (float[6] x) => (float y) { s = Constant <value = int64[1] {${ints(r, 1)}}> ()\n e = Constant <value = int64[1] {${ints(r, 1)}}> ()\n a = Constant <value = int64[1] {0}> ()\n p = Constant <value = int64[1] {${ints(r, 1)}}> ()\n y = Slice(x, s, e, a, p) }`,
  (r) => `${H}g (float[4, 4] x) => (float y) { k = Constant <value = int64 {${r.pick(INTS)}}> ()\n y = Trilu <upper = ${r.int(2)}> (x, k) }`,
  (r) => `${H}g (float[1] x) => (float y) { y = ${r.pick(["RandomNormal", "RandomUniform"])} <shape = [${ints(r, 1 + r.int(3))}]> () }`,
  (r) =>
    `${H}g (float[1, ${r.pick(["4", "16"])}, 1] x) => (float y) { n = Constant <value = int64 {${r.pick(INTS)}}> ()\n y = DFT <onesided = ${r.int(2)}> (x, n) }`,
  (r) => `${H}g (float[3, 4] x) => (float y) { s = Constant <value = int64[2] {${ints(r, 2)}}> ()\n y = Split <axis = ${r.pick(["0", "1", "-3"])}> (x, s) }`,
  (r) =>
    `${H}g (int32[4] x) => (int32 y) { d = Constant <value = int32[4] {${ints(r, 4)
      .split(", ")
      .map((v) => String(Number(v) | 0))
      .join(", ")}}> ()\n y = ${r.pick(["Div", "Mod"])}(x, d) }`,
];

/** A hostile model, drawn from the templates. */
export function hostileModel(rng: Rng): string {
  return rng.pick(TEMPLATES)(rng);
}

/** Runs a text model on default inputs under the fuzz caps; returns the violations. */
export function runProblems(text: string, fast: boolean): string[] {
  const r = modelFromText(text);
  if (!r.model || r.diagnostics.some((d) => d.severity === "error")) return [];
  let feeds: Map<string, Value>;
  // declared shapes may be huge: default inputs are held to the run's cap (as the CLI does)
  setAllocationLimit(RUN_MEMORY);
  try {
    feeds = new Map(r.model.graph!.input.map((i) => [i.name, defaultValue(i.type, new Map(), new InterpRng(0), i.name)]));
  } catch {
    return [];
  } finally {
    setAllocationLimit(Infinity);
  }
  const started = Date.now();
  try {
    new Interpreter(r.model, { maxMemoryBytes: RUN_MEMORY, timeoutMs: RUN_TIMEOUT_MS, ...(fast ? { registry: fastRegistry() } : {}) }).run(feeds);
  } catch (e) {
    const ms = Date.now() - started;
    const problems: string[] = [];
    if (!(e instanceof InterpError)) problems.push(`the run threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    const message = describeRunError(e);
    if (/[\r\n]/.test(message)) problems.push(`run error on more than one line: ${JSON.stringify(message)}`);
    if (JS_MESSAGE.test(message)) problems.push(`run error in JavaScript's words: ${message}`);
    if (ms > RUN_TIMEOUT_MS + RUN_SLACK_MS) problems.push(`the run stopped ${ms} ms after it started (deadline ${RUN_TIMEOUT_MS} ms): ${message}`);
    return problems;
  }
  const ms = Date.now() - started;
  return ms > RUN_TIMEOUT_MS + RUN_SLACK_MS ? [`the run went on for ${ms} ms (deadline ${RUN_TIMEOUT_MS} ms)`] : [];
}

/** The interpreter as a fuzz target, with the reference and the fast kernels. */
export const RUN_TARGET: TextTarget = {
  name: "run",
  run: (text) => [...runProblems(text, false), ...runProblems(text, true)],
};
