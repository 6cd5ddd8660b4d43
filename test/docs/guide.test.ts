// Every example of docs/guide.md and docs/cheatsheet.md as a reader would use it: checked with
// `onnxtxt check`, run with the interpreter and onnxruntime (`run --compare ort`), and, where the
// page says onnx 1.12 reads it (the `onnx-1.12` mark), parsed by Debian's onnx 1.12 to the same
// model; where it does not say so, onnx 1.12 must refuse it (so the page's claims hold).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel } from "../../core/src/io/index.js";
import { printModelPlain } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import { parseNode } from "../../grammar/src/index.js";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";

interface Example {
  readonly page: string;
  readonly name: string;
  readonly flags: readonly string[];
  readonly text: string;
}

const PAGES = ["docs/guide.md", "docs/cheatsheet.md"];

function examplesOf(page: string): Example[] {
  const md = fs.readFileSync(path.join(REPO, page), "utf8");
  const fences = md.match(/^```onnx$/gm)?.length ?? 0;
  const found = [...md.matchAll(/<!-- example: (\S+)((?: \S+)*) -->\n```onnx\n([\s\S]*?)```/g)].map((m) => ({
    page,
    name: m[1]!,
    flags: m[2]!
      .trim()
      .split(" ")
      .filter((f) => f !== ""),
    text: m[3]!,
  }));
  assert.equal(found.length, fences, `${page}: every onnx fence has an <!-- example: NAME --> mark`);
  return found;
}

function parseWith112(texts: readonly string[]): ({ model: string } | { error: string })[] {
  const r = spawnSync("/usr/bin/python3", [path.join(REPO, "test/docs/py/parse_1_12.py")], { input: JSON.stringify(texts), encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe("the guide and the cheat sheet", function () {
  this.timeout(300_000);
  const examples = PAGES.flatMap(examplesOf);
  let dir = "";
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-guide-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("have examples from one node to functions, external data and residual comments", () => {
    const names = examples.map((e) => e.name);
    for (const n of ["one-node", "initializers", "attributes", "shapes", "if", "loop", "scan", "function", "external-data", "residual", "cheatsheet"])
      assert.ok(names.includes(n), `no '${n}' example`);
    assert.equal(new Set(names).size, names.length, "example names are unique");
  });

  for (const ex of examples) {
    it(`${ex.page} '${ex.name}' checks clean and runs as onnxruntime runs it`, () => {
      const file = path.join(dir, `${ex.name}.onnxtxt`);
      fs.writeFileSync(file, ex.text);
      for (const flag of ex.flags.filter((f) => f.startsWith("data="))) {
        const [name, values] = flag.slice(5).split(":") as [string, string];
        fs.writeFileSync(path.join(dir, name), new Uint8Array(Float32Array.from(values.split(",").map(Number)).buffer));
      }
      const checked = runCli(["check", file]);
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      assert.doesNotMatch(checked.stdout + checked.stderr, /: error: /);
      const ran = runCli(["run", file, "--compare", "ort"]);
      assert.equal(ran.code, 0, ran.stdout + ran.stderr);
      assert.match(ran.stdout, /all outputs agree with onnxruntime/);
    });
  }

  it("say rightly which examples onnx 1.12's parser reads, and it reads them as we do", () => {
    const verdicts = parseWith112(examples.map((e) => e.text));
    examples.forEach((ex, i) => {
      const v = verdicts[i]!;
      const ours = modelFromText(ex.text).model;
      assert.ok(ours, ex.name);
      if (!ex.flags.includes("onnx-1.12")) {
        assert.ok("error" in v, `${ex.name}: onnx 1.12 reads it: mark it onnx-1.12`);
        return;
      }
      assert.ok("model" in v, `${ex.name}: onnx 1.12 refuses it: ${"error" in v ? v.error : ""}`);
      const theirs = decodeModel(Buffer.from(v.model, "base64"));
      assert.equal(printModelPlain(theirs).text, printModelPlain(ours).text, ex.name);
    });
  });

  it("the residual example carries what the syntax cannot say", () => {
    const ex = examples.find((e) => e.name === "residual")!;
    const g = modelFromText(ex.text).model!.graph!;
    assert.equal(g.docString, "a graph with notes the syntax has no place for");
    assert.equal(g.node[0]!.docString, "clamps negatives");
  });

  it("every node form in the cheat sheet's table parses", () => {
    const md = fs.readFileSync(path.join(REPO, "docs/cheatsheet.md"), "utf8");
    const nodes = [...md.matchAll(/`((?:\[\w+\] )?[\w, ]+ = [\w.]+ (?:<[^`]*> )?\([^`]*\))`/g)].map((m) => m[1]!);
    assert.ok(nodes.length >= 6, `only ${nodes.length} node forms found`);
    for (const node of nodes) assert.deepEqual(parseNode(node).diagnostics, [], node);
  });
});
