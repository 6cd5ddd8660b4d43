// The package as a user gets it: `npm pack` the built repository, install the tarball into an
// empty folder offline with an empty npm cache (so everything must come from the tarball, the
// runtime dependencies included), then run the installed CLI and import the API from plain ESM.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareValues, runWithOrt } from "../../core/src/interp/index.js";
import { encodeModel } from "../../core/src/io/index.js";
import { decodeModel } from "../../core/src/io/binary.js";
import { saveModel } from "../../core/src/node/index.js";
import { modelFromText } from "../../core/src/text.js";
import { LIGHT, REPO } from "../helpers/paths.js";
import { LspClient } from "../server/lsp-client.js";

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
      "dist/core/src/node/index.js",
      "dist/core/src/node/index.d.ts",
      "dist/cli/src/main.bundle.cjs",
      "dist/cli/src/bundle-loader.js",
      "dist/core/src/node/code-cache.js",
      "dist/server/src/main.js",
      "dist/server/src/main.bundle.cjs",
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

  it("runs the language server from its bundle (`onnxtxt-ls --stdio`)", async () => {
    const bin = path.join(installed, "node_modules/onnxtxt/bin/onnxtxt-ls.js");
    // The bundle writes its code cache here when the session ends (the modules write none).
    const cache = path.join(tmp, "ls-cache");
    const client = new LspClient(["--stdio"], bin, [], { ...process.env, ONNXTXT_COMPILE_CACHE: cache });
    try {
      const init = await client.initialize();
      assert.ok(init.capabilities.hoverProvider, "no hover");
      const uri = "file:///tmp/onnxtxt-pack/m.onnxtxt";
      // (the parse's diagnostics come first: none)
      const published = client.waitFor("textDocument/publishDiagnostics", (p) => (p as { diagnostics: unknown[] }).diagnostics.length > 0);
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: MODEL.replace("Relu", "Relux") } });
      const { diagnostics } = (await published) as { diagnostics: { code?: string }[] };
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ["unknown-op"],
      );
    } finally {
      await client.shutdown();
    }
    assert.equal(client.exitCode, 0, client.stderr);
    assert.equal(fs.readdirSync(cache).filter((f) => f.endsWith("-language-server.cache")).length, 1, "not run from the bundle");
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
      const y = await run(back);
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

  it("runs a strict TypeScript user of onnxtxt and onnxtxt/node on ResNet-50 with external data (#32)", async function () {
    this.timeout(180_000);
    // ResNet-50 with its tensors over 64 bytes in a data file beside it, as onnx saves external data
    const dir = path.join(installed, "resnet");
    fs.mkdirSync(dir);
    const original = decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx")));
    saveModel(original, path.join(dir, "resnet50.onnx"), { externalData: 64 });
    assert.equal(fs.readdirSync(dir).length, 2, "the model and its data file");
    const script = `import { checkModel, cloneModel, composeModels, extractModel, type ModelProto } from "onnxtxt";
import { loadModel, run, saveModel } from "onnxtxt/node";

const model: ModelProto = loadModel("resnet/resnet50.onnx");
const graph = model.graph!;
const output = graph.output[0]!.name;

// a copy edited without touching the original
const edited = cloneModel(model);
const epsilonOf = (m: ModelProto) => m.graph!.node.find((n) => n.opType === "BatchNormalization")!.attribute.find((a) => a.name === "epsilon")!;
epsilonOf(edited).f = 0.001;
const editedErrors = checkModel(edited).filter((d) => d.severity === "error");
const editedEpsilon = epsilonOf(edited).f;
const originalEpsilon = epsilonOf(model).f;

// the network cut after its first residual block, and joined again
const block1 = graph.node.filter((n) => n.opType === "Relu")[3]!.output[0]!;
const head = extractModel(model, ["gpu_0/data_0"], [block1]);
const tail = extractModel(model, [block1], [output]);
head.irVersion = 7n; // IR 3 lists every initializer among the inputs; the parts do not
tail.irVersion = 7n;
const joined = composeModels(head, tail, [[block1, block1]], { prefix1: "head/", prefix2: "tail/" });
const joinedErrors = checkModel(joined).filter((d) => d.severity === "error");

// the fast kernels (onnxtxt/node's run) on a fixed image
const image = Float32Array.from({ length: 3 * 224 * 224 }, (_, i) => Math.sin(i / 97));
const input = joined.graph!.input.find((v) => !joined.graph!.initializer.some((t) => t.name === v.name))!.name;
const outputs = await run(joined, { [input]: { kind: "tensor", dtype: 1, dims: [1, 3, 224, 224], data: image } });
const y = outputs.get("tail/" + output);
if (!y || y.kind !== "tensor") throw new Error("no output");
saveModel(joined, "out/joined.onnx", { externalData: 64 });
saveModel(edited, "out/edited.onnxtxt");
console.log(JSON.stringify({
  editedErrors: editedErrors.map((d) => d.message),
  editedEpsilon,
  originalEpsilon,
  headNodes: head.graph!.node.length,
  tailNodes: tail.graph!.node.length,
  joinedNodes: joined.graph!.node.length,
  joinedErrors: joinedErrors.map((d) => d.message),
  dims: y.dims,
  values: Array.from(y.data as Float32Array),
}));
`;
    fs.writeFileSync(path.join(installed, "resnet.ts"), script);
    fs.mkdirSync(path.join(installed, "out"));
    const tsc = path.join(REPO, "node_modules/typescript/bin/tsc");
    const flags = ["--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"];
    const compiled = node([tsc, ...flags, "resnet.ts"], installed);
    assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);
    const r = node(["resnet.js"], installed);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      editedErrors: string[];
      editedEpsilon: number;
      originalEpsilon: number;
      headNodes: number;
      tailNodes: number;
      joinedNodes: number;
      joinedErrors: string[];
      dims: number[];
      values: number[];
    };
    assert.deepEqual(out.editedErrors, []);
    assert.equal(out.editedEpsilon, 0.001);
    const epsilon = original.graph!.node.find((n) => n.opType === "BatchNormalization")!.attribute.find((a) => a.name === "epsilon")!.f;
    assert.equal(out.originalEpsilon, epsilon, "the original keeps its value");
    assert.equal(out.joinedNodes, out.headNodes + out.tailNodes);
    assert.equal(out.joinedNodes, original.graph!.node.length, "the two halves hold every node");
    assert.deepEqual(out.joinedErrors, []);
    // the joined network run with the fast kernels gives onnxruntime's output of the whole one
    const image = Float32Array.from({ length: 3 * 224 * 224 }, (_, i) => Math.sin(i / 97));
    const feeds = new Map([
      [
        original.graph!.input.find((v) => !original.graph!.initializer.some((t) => t.name === v.name))!.name,
        { kind: "tensor" as const, dtype: 1, dims: [1, 3, 224, 224], data: image },
      ],
    ]);
    const theirs = (await runWithOrt(original, feeds)).get(original.graph!.output[0]!.name);
    const got = { kind: "tensor" as const, dtype: 1, dims: out.dims, data: Float32Array.from(out.values) };
    assert.equal(compareValues(got, theirs, { rtol: 1e-3, atol: 1e-5 }), undefined);
    const saved = fs.readdirSync(path.join(installed, "out")).sort();
    assert.equal(saved.length, 3, saved.join(", "));
    assert.ok(saved.includes("joined.onnx") && saved.includes("edited.onnxtxt"));
  });
});
