// The package as a user gets it: `npm pack` the built repository, install the tarball into an
// empty folder offline with an empty npm cache (so everything must come from the tarball, the
// runtime dependencies included), then run the installed CLI and import the API from plain ESM.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { encodeModel } from "../../core/src/io/binary.js";
import { modelFromText } from "../../core/src/text.js";
import { REPO } from "../helpers/paths.js";

const MODEL = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) {
  y = Relu(x)
}
`;

function npm(args: readonly string[], cwd: string): string {
  // On Windows npm is a .cmd script, which only a shell runs.
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", shell: process.platform === "win32" });
  assert.equal(r.status, 0, `npm ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function node(args: readonly string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the npm package", function () {
  let tmp: string;
  let installed: string;
  const version = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

  before(function () {
    this.timeout(300_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-pack-"));
    // The build is current (pretest made it), so packing needs no prepack build.
    npm(["pack", "--ignore-scripts", "--pack-destination", tmp], REPO);
    const tarball = path.join(tmp, `onnxtxt-${version}.tgz`);
    assert.ok(fs.existsSync(tarball), "npm pack wrote no tarball");
    installed = path.join(tmp, "app");
    fs.mkdirSync(installed);
    fs.writeFileSync(path.join(installed, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    npm(["install", "--offline", "--cache", path.join(tmp, "empty-cache"), "--ignore-scripts", "--no-audit", "--no-fund", tarball], installed);
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("carries the build, the license and no tests, benchmarks or logs", () => {
    const root = path.join(installed, "node_modules/onnxtxt");
    for (const f of [
      "LICENSE",
      "README.md",
      "bin/onnxtxt.js",
      "dist/core/src/index.js",
      "dist/core/src/index.d.ts",
      "dist/cli/src/main.bundle.mjs",
      "dist/server/src/main.js",
    ]) {
      assert.ok(fs.existsSync(path.join(root, f)), `${f} missing from the package`);
    }
    for (const f of ["test", "bench", "dist/test", "dist/bench", "node_trace.1.log", "dist/.tsbuildinfo"]) {
      assert.ok(!fs.existsSync(path.join(root, f)), `${f} should not be in the package`);
    }
  });

  it("runs `onnxtxt --version`", () => {
    const r = node([path.join(installed, "node_modules/.bin/onnxtxt"), "--version"], installed);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), version);
  });

  it("converts text to the ModelProto bytes the library makes", () => {
    fs.writeFileSync(path.join(installed, "m.onnxtxt"), MODEL);
    const r = node([path.join(installed, "node_modules/.bin/onnxtxt"), "convert", "m.onnxtxt", "m.onnx"], installed);
    assert.equal(r.code, 0, r.stderr);
    const expected = encodeModel(modelFromText(MODEL).model!);
    assert.deepEqual(new Uint8Array(fs.readFileSync(path.join(installed, "m.onnx"))), expected);
  });

  it("is imported by name from an ESM script", () => {
    const script = `
      import { modelFromText, printModel, encodeModel, decodeModel, checkModel, run, hasErrors } from "onnxtxt";
      const { model, diagnostics } = modelFromText(${JSON.stringify(MODEL)});
      if (!model || hasErrors(diagnostics)) throw new Error("no model");
      const back = decodeModel(encodeModel(model));
      const y = run(back);
      console.log(JSON.stringify({ text: printModel(back), problems: checkModel(back).length, outputs: [...y.keys()] }));
    `;
    fs.writeFileSync(path.join(installed, "use.mjs"), script);
    const r = node(["use.mjs"], installed);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { text: string; problems: number; outputs: string[] };
    assert.equal(out.problems, 0);
    assert.deepEqual(out.outputs, ["y"]);
    assert.match(out.text, /y = Relu ?\(x\)/);
  });

  it("type-checks a TypeScript user of the API against the shipped declarations", () => {
    const use = `import { modelFromText, run, type Diagnostic, type ModelProto } from "onnxtxt";
const parsed = modelFromText("g () => () {}");
const diagnostics: Diagnostic[] = parsed.diagnostics;
const model: ModelProto | undefined = parsed.model;
if (model) run(model, {}, { seed: 1 });
export const count: number = diagnostics.length;
`;
    const tsc = path.join(REPO, "node_modules/typescript/bin/tsc");
    const flags = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"];
    fs.writeFileSync(path.join(installed, "use.ts"), use);
    const good = node([tsc, ...flags, "use.ts"], installed);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    // The declarations carry real types: a wrong annotation is an error.
    fs.writeFileSync(path.join(installed, "wrong.ts"), use.replace("const diagnostics: Diagnostic[]", "const diagnostics: number"));
    const wrong = node([tsc, ...flags, "wrong.ts"], installed);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stdout, /Type 'Diagnostic\[\]' is not assignable to type 'number'/);
  });
});
