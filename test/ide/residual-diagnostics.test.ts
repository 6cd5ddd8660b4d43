// The language server reports exactly what `onnxtxt check` reports, residual problems
// included: over every printed node-test model, each with one seeded random damage to its
// residual comments, the analysis the server publishes (core/src/ide/analyze.ts) gives the same
// FILE:LINE:COL lines as one `check` run over all the files.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { diagnosticLines } from "../../core/src/diagnostic-lines.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { decodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { runCli } from "../helpers/cli.js";
import { nodeTestDirs } from "../helpers/paths.js";
import { checkCodeAction } from "./check.js";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Inserts `line` before the first statement of the main graph's body. */
function beforeFirstNode(text: string, line: string): string {
  const lines = text.split("\n");
  const open = lines.findIndex((l) => /^\S.*\{$/.test(l));
  lines.splice(open + 1, 0, `  ${line}`);
  return lines.join("\n");
}

function onModelLine(text: string, edit: (line: string) => string): string {
  const lines = text.split("\n");
  if (!lines[0]!.startsWith("#@model ")) lines.unshift('#@model {"@node_domain":"unset"}');
  lines[0] = edit(lines[0]!);
  return lines.join("\n");
}

const DAMAGES: ((text: string) => string)[] = [
  (t) => t,
  (t) => onModelLine(t, (l) => l.slice(0, -1)), // broken JSON
  (t) => onModelLine(t, (l) => l.replace("#@model", "#@modle")), // misspelt kind
  (t) => onModelLine(t, (l) => l.replace("{", '{"@node_domain_except":["no_such_node"],')), // names a node the text lacks
  (t) => onModelLine(t, (l) => l.replace("{", '{"no_such_field":1,')),
  (t) => beforeFirstNode(t, '#@node {"doc_string": 5}'), // a value of the wrong type
  (t) => beforeFirstNode(t, '#@node {"@digest":"00000000","@clear":["domain"],"doc_string":"d"}'), // stale
  (t) => beforeFirstNode(t, "#@todo: an ordinary comment"),
  (t) => `${t}#@tensor {"doc_string":"orphan"}\n`, // nothing follows
  (t) => beforeFirstNode(t, '#@node {"@attr":{"7":{"doc_string":"x"}}}'), // an attribute the node lacks
  (t) => beforeFirstNode(t, "#@node"), // no JSON
];

describe("language server diagnostics equal `check` on damaged residuals", function () {
  this.timeout(600_000);

  it("every printed node-test model, each with a random residual damage", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-lsp-check-"));
    try {
      const random = rng(15);
      const files: { file: string; text: string }[] = [];
      const used = new Set<number>();
      for (const dir of nodeTestDirs()) {
        const k = Math.floor(random() * DAMAGES.length);
        used.add(k);
        const text = DAMAGES[k]!(printModel(decodeModel(fs.readFileSync(path.join(dir, "model.onnx")))));
        const file = path.join(work, `${path.basename(dir)}.onnxtxt`);
        fs.writeFileSync(file, text);
        files.push({ file, text });
      }
      assert.equal(used.size, DAMAGES.length, "every kind of damage is tried");
      const cli = runCli(["check", ...files.map((f) => f.file)]);
      const byFile = new Map<string, string[]>();
      for (const line of cli.stderr.split("\n").filter(Boolean)) {
        const file = line.slice(0, line.indexOf(".onnxtxt") + ".onnxtxt".length);
        byFile.set(file, [...(byFile.get(file) ?? []), line]);
      }
      const differ: string[] = [];
      let residualProblems = 0;
      for (const { file, text } of files) {
        const lsp = diagnosticLines(file, text, analyze(text).diagnostics).split("\n").filter(Boolean).sort();
        const check = (byFile.get(file) ?? []).sort();
        residualProblems += check.filter((l) => /\[(extension|residual-stale)\]$/.test(l)).length;
        if (JSON.stringify(lsp) !== JSON.stringify(check))
          differ.push(`${path.basename(file)}:\n  lsp:   ${lsp.join("\n         ")}\n  check: ${check.join("\n         ")}`);
      }
      assert.ok(residualProblems > 1000, `only ${residualProblems} residual problems reported`);
      assert.deepEqual(differ.slice(0, 5), []);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe("quick fix for a stale residual", () => {
  it("removes the residual line; the text then reads without a warning", () => {
    const before = `<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  $0#@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"}}
  float[3] w = {nan, 2.0, 3.0}
> {
  y = Add (x, w)
}
`;
    const after = before.replace('  $0#@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"}}\n', "");
    checkCodeAction(before, "Remove the stale residual comment", after);
    assert.deepEqual(
      analyze(after).diagnostics.filter((d) => d.code === "residual-stale"),
      [],
    );
  });
});
