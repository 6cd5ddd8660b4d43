// Long lists: texts whose lists are as long as data (opset imports, metadata entries, nodes,
// unused values that each draw a warning, node inputs, attribute lists), which break any
// stage that spreads a list into an argument list or recurses along it. They go through the
// command-line text targets; header and argument lists are drawn up to 100,000 entries, node
// lists up to 10,000, so that one input stays well inside the 10 s hang limit.
import type { Rng } from "./rng.js";

const H = `<ir_version: 10, opset_import: ["" : 21]>\n`;

function size(rng: Rng, max: number): number {
  return Math.min(max, rng.pick([1000, 20_000, 70_000, 150_000])) + rng.int(100);
}

function list(n: number, item: (i: number) => string, sep = ", "): string {
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = item(i);
  return parts.join(sep);
}

const LONG = 100_000;
const NODES = 10_000;

const TEMPLATES: [number, (rng: Rng, n: number) => string][] = [
  [LONG, (_, n) => `<ir_version: 10, opset_import: ["" : 21, ${list(n, (i) => `"d${i}" : 1`)}]>\ng (float[1] x) => (float[1] y) {\n  y = Relu (x)\n}\n`],
  [
    LONG,
    (_, n) =>
      `<ir_version: 10, opset_import: ["" : 21], metadata_props: [${list(n, (i) => `"k${i}" : "v"`)}]>\ng (float[1] x) => (float[1] y) {\n  y = Relu (x)\n}\n`,
  ],
  [NODES, (_, n) => `${H}g (float[1] x) => (float[1] y) {\n  y = Relu (x)\n${list(n, (i) => `  u${i} = Relu (x)`, "\n")}\n}\n`],
  [LONG, (_, n) => `${H}g (float[1] x) => (float[1] y) {\n  y = Sum (${list(n, () => "x")})\n}\n`],
  [LONG, (_, n) => `${H}g (float[1] x) => (float[1] y) {\n  y = Relu <junk = [${list(n, (i) => String(i))}]> (x)\n}\n`],
  [NODES, (_, n) => `${H}g (float[1] x) => (float[1] y) {\n  v0 = Relu (x)\n${list(n, (i) => `  v${i + 1} = Neg (v${i})`, "\n")}\n  y = Identity (v${n})\n}\n`],
];

/** A text with one data-sized list. */
export function longListText(rng: Rng): string {
  const [max, make] = rng.pick(TEMPLATES);
  return make(rng, size(rng, max));
}
