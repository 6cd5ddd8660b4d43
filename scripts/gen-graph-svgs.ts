// Writes docs/graphs/<example>.svg, the `onnxtxt graph` drawing of each model in examples/
// (shown in the README), or with --check fails when one is stale.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { drawModel } from "../cli/src/commands/graph.js";
import { modelFromText } from "../core/src/text.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const EXAMPLES_DIR = path.join(REPO, "examples");
export const GRAPHS_DIR = path.join(REPO, "docs/graphs");
/** Two levels, so the Loop inside control-flow's If shows its body. */
const DEPTH = 2;

export function exampleNames(): string[] {
  return fs
    .readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".onnxtxt"))
    .map((f) => path.basename(f, ".onnxtxt"))
    .sort();
}

export async function exampleSvg(name: string): Promise<string> {
  const { model } = modelFromText(fs.readFileSync(path.join(EXAMPLES_DIR, `${name}.onnxtxt`), "utf8"));
  if (!model) throw new Error(`examples/${name}.onnxtxt does not lower`);
  return (await drawModel(model, "svg", DEPTH)).text;
}

async function main(): Promise<number> {
  fs.mkdirSync(GRAPHS_DIR, { recursive: true });
  let code = 0;
  for (const name of exampleNames()) {
    code = Math.max(code, writeOrCheck(process.argv, path.join(GRAPHS_DIR, `${name}.svg`), await exampleSvg(name), "node dist/scripts/gen-graph-svgs.js"));
  }
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
