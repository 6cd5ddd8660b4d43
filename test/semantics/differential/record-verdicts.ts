// Regenerates test/semantics/data/onnx-verdicts.json: asks Debian's onnx (through
// test/semantics/py/onnx_verdicts.py) for its checker's verdict on every node-test model and its
// mutants, and for what its shape inference gives the originals' values.
// usage: npm run build && node dist/test/semantics/differential/record-verdicts.js
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel } from "../../../core/src/io/index.js";
import { NODE_TESTS, REPO } from "../../helpers/paths.js";
import { handMadeModels } from "./hand-made.js";
import { MUTATION_KINDS } from "./mutate.js";
import { libonnxModels, loadNodeTest, modelSet, producedNames, nodeTestNames, VERDICTS_FILE, type RecordedVerdicts } from "./verdicts.js";

interface Answer {
  verdict: "valid" | "invalid" | "unknown";
  why?: string;
  shapes?: Record<string, string>;
  shapesError?: string;
}

const LETTER = { valid: "V", invalid: "R", unknown: "?" } as const;

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnx-verdicts-"));
  const lines: string[] = [];
  const names = nodeTestNames();
  for (const name of names) {
    modelSet(loadNodeTest(name)).forEach((m, k) => {
      if (!m) return;
      const file = k === 0 ? path.join(NODE_TESTS, name, "model.onnx") : path.join(dir, `${name}.${k}.onnx`);
      if (k > 0) fs.writeFileSync(file, encodeModel(m));
      lines.push(`${name}.${k}\t${file}\t${k === 0 ? 1 : 0}`);
    });
  }
  const libonnx = libonnxModels();
  for (const [name, file] of libonnx) {
    modelSet(decodeModel(fs.readFileSync(file))).forEach((m, k) => {
      if (!m) return;
      const at = path.join(dir, `libonnx-${lines.length}.onnx`);
      fs.writeFileSync(at, encodeModel(m));
      lines.push(`libonnx:${name}.${k}\t${at}\t0`);
    });
  }
  const handMade = handMadeModels();
  for (const [id, h] of Object.entries(handMade)) {
    const file = path.join(dir, `${id}.onnx`);
    fs.writeFileSync(file, encodeModel(h.model));
    lines.push(`hand-made:${id}\t${file}\t0`);
  }
  const script = path.join(REPO, "test/semantics/py/onnx_verdicts.py");
  const r = spawnSync("/usr/bin/python3", [script], { input: lines.join("\n"), encoding: "utf8", maxBuffer: 1 << 30 });
  fs.rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`onnx_verdicts.py failed: ${r.stderr}`);
  const answers = JSON.parse(r.stdout) as Record<string, Answer> & { onnx: string };
  const out: RecordedVerdicts = {
    onnx: answers.onnx,
    kinds: ["original", ...MUTATION_KINDS],
    verdicts: {},
    libonnx: {},
    handMade: {},
    rejectedOriginals: {},
    shapes: {},
    shapeErrors: {},
  };
  for (const name of names) {
    let letters = "";
    for (let k = 0; k <= MUTATION_KINDS.length; k++) {
      const a = answers[`${name}.${k}`] as Answer | undefined;
      letters += a ? LETTER[a.verdict] : "-";
    }
    out.verdicts[name] = letters;
    const original = answers[`${name}.0`] as Answer;
    if (original.verdict === "invalid") out.rejectedOriginals[name] = original.why ?? "";
    const shapes = original.shapes;
    if (shapes && Object.keys(shapes).length > 0)
      out.shapes[name] = producedNames(loadNodeTest(name))
        .map((v) => shapes[v] ?? "")
        .join(";");
    if (original.shapesError) out.shapeErrors[name] = original.shapesError;
  }
  for (const name of libonnx.keys()) {
    let letters = "";
    for (let k = 0; k <= MUTATION_KINDS.length; k++) {
      const a = answers[`libonnx:${name}.${k}`] as Answer | undefined;
      letters += a ? LETTER[a.verdict] : "-";
    }
    out.libonnx[name] = letters;
  }
  for (const id of Object.keys(handMade)) {
    const a = answers[`hand-made:${id}`] as Answer;
    out.handMade[id] = a.verdict === "invalid" ? `R ${a.why ?? ""}` : LETTER[a.verdict];
  }
  fs.mkdirSync(path.dirname(VERDICTS_FILE), { recursive: true });
  fs.writeFileSync(VERDICTS_FILE, `${JSON.stringify(out, null, 0).replace(/,"(?=test_|[a-z-]+\/test_)/g, ',\n"')}\n`);
  process.stdout.write(`wrote ${path.relative(REPO, VERDICTS_FILE)}: ${names.length} models, onnx ${answers.onnx}\n`);
}

main();
