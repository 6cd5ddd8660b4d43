// No data loss: a failed run leaves no output (not even a partial or temp file), never
// changes its input, and never replaces an existing output with something broken.
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel } from "../../core/src/io/index.js";
import { runCli } from "../helpers/cli.js";
import { nodeTestDirs } from "../helpers/paths.js";
import { mutateBytes } from "./harness/mutate-bytes.js";
import { Rng } from "./harness/rng.js";

function digest(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Every file below `dir`, relative, sorted. */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

function decodes(bytes: Uint8Array): boolean {
  try {
    decodeModel(bytes);
    return true;
  } catch {
    return false;
  }
}

/** One line per failure: `onnxtxt: PATH: message`, no stack trace. */
function assertCleanErrors(stderr: string, failing: readonly string[]): void {
  assert.doesNotMatch(stderr, /^\s+at |Error:/m, stderr);
  // a damaged copy that still decodes may be a model check rejects: convert warns and writes it
  const lines = stderr.split("\n").filter((l) => l !== "" && !/^onnxtxt: .*: warning: 'onnxtxt check' would reject this model: /.test(l));
  assert.equal(lines.length, failing.length, stderr);
  for (const file of failing)
    assert.ok(
      lines.some((l) => l.startsWith(`onnxtxt: ${file}: not a valid ONNX model: `)),
      `${file}:\n${stderr}`,
    );
}

describe("no data loss", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-robust-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("truncated and corrupted copies of test models: a clean convert failure and no output file", () => {
    const rng = new Rng(7);
    const sources = nodeTestDirs().filter((_, i) => i % 90 === 0);
    const inputs: string[] = [];
    const failing: string[] = [];
    sources.forEach((src, i) => {
      const original = new Uint8Array(fs.readFileSync(path.join(src, "model.onnx")));
      for (const [kind, bytes] of [
        ["cut", original.subarray(0, Math.floor(original.length * rng.next()))],
        ["bad", mutateBytes(original, rng)],
      ] as const) {
        const file = path.join(dir, `${kind}${i}.onnx`);
        fs.writeFileSync(file, bytes);
        inputs.push(file);
        if (!decodes(bytes)) failing.push(file);
      }
    });
    assert.ok(failing.length >= inputs.length / 2, `only ${failing.length} of ${inputs.length} copies are damaged`);
    const before = new Map(inputs.map((f) => [f, digest(f)]));
    const out = path.join(dir, "out");
    const r = runCli(["convert", "--to", "onnx", "--out-dir", out, ...inputs]);
    assert.equal(r.code, 2);
    assertCleanErrors(r.stderr, failing);
    const expected = inputs
      .filter((f) => !failing.includes(f))
      .map((f) => path.basename(f))
      .sort();
    assert.deepEqual(listing(out), expected, "exactly the readable inputs are written, and no temp file is left");
    for (const [f, h] of before) assert.equal(digest(f), h, `${f} was changed`);
  });

  it("a failed single convert leaves an existing output untouched", () => {
    const good = path.join(nodeTestDirs()[0]!, "model.onnx");
    const bad = path.join(dir, "bad.onnx");
    fs.writeFileSync(bad, fs.readFileSync(good).subarray(0, 30));
    const out = path.join(dir, "out.onnx");
    fs.copyFileSync(good, out);
    const before = digest(out);
    const r = runCli(["convert", bad, out]);
    assert.equal(r.code, 2);
    assertCleanErrors(r.stderr, [bad]);
    assert.equal(digest(out), before);
    assert.deepEqual(listing(dir), ["bad.onnx", "out.onnx"]);
  });

  it("a text model with errors: exit 1, located errors, no output", () => {
    const src = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(src, `<ir_version: 8, opset_import: ["" : 18]>\nmain (float x) => (float y) {\n  y = Relu(x\n}\n`);
    const r = runCli(["convert", src, path.join(dir, "m.onnx")]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^${src.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: error: `, "m"));
    assert.deepEqual(listing(dir), ["m.onnxtxt"]);
  });

  it("a write that fails (the output is a folder, or under a file) leaves no temp file", () => {
    const good = path.join(nodeTestDirs()[0]!, "model.onnx");
    const folder = path.join(dir, "taken.onnx");
    fs.mkdirSync(folder);
    const r1 = runCli(["convert", good, folder]);
    assert.equal(r1.code, 2);
    assert.match(r1.stderr, /^onnxtxt: .*taken\.onnx: .+\n$/);
    const r2 = runCli(["convert", good, path.join(dir, "taken.onnx", "..", "a-file", "x.onnx")]);
    assert.equal(r2.code, 2);
    assert.deepEqual(listing(dir), []);
    assert.deepEqual(fs.readdirSync(dir), ["taken.onnx"]);
  });

  it("converting a model onto itself is refused (as cp does) and keeps it whole", () => {
    const file = path.join(dir, "self.onnx");
    fs.copyFileSync(path.join(nodeTestDirs()[0]!, "model.onnx"), file);
    const before = digest(file);
    const r = runCli(["convert", file, file]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `onnxtxt: ${file}: is the same file as the input '${file}'; not writing over it\n`);
    assert.equal(digest(file), before);
    assert.deepEqual(fs.readdirSync(dir), ["self.onnx"]);
  });

  it("damaged binaries converted to text: no .onnxtxt output", () => {
    const original = new Uint8Array(fs.readFileSync(path.join(nodeTestDirs()[0]!, "model.onnx")));
    const bad = path.join(dir, "bad.onnx");
    fs.writeFileSync(bad, original.subarray(0, original.length - 3));
    const r = runCli(["convert", bad, path.join(dir, "bad.onnxtxt")]);
    assert.equal(r.code, 2);
    assertCleanErrors(r.stderr, [bad]);
    assert.deepEqual(listing(dir), ["bad.onnx"]);
  });

  it("format --write: a file with syntax errors is left alone, a valid one is replaced whole", () => {
    const broken = path.join(dir, "broken.onnxtxt");
    const valid = path.join(dir, "valid.onnxtxt");
    const brokenText = `<ir_version: 8, opset_import: ["" : 18]>\nmain (float x) => (float y) {\n  y = Relu(x\n}\n`;
    fs.writeFileSync(broken, brokenText);
    fs.writeFileSync(valid, `<ir_version: 8, opset_import: ["" : 18]>\nmain (float x) => (float y) {   # keep me\ny=Relu(x)\n}\n`);
    const r = runCli(["format", "--write", broken, valid]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken\.onnxtxt:\d+:\d+: error: /);
    assert.equal(fs.readFileSync(broken, "utf8"), brokenText);
    const formatted = fs.readFileSync(valid, "utf8");
    assert.match(formatted, /# keep me/);
    assert.match(formatted, /y = Relu\s*\(x\)/);
    assert.deepEqual(listing(dir), ["broken.onnxtxt", "valid.onnxtxt"]);
  });

  describe("external data stays inside the model's folder", () => {
    const model = (location: string) =>
      `<ir_version: 8, opset_import: ["" : 18]>\ng (float[4] x) => (float[4] y)\n<float[4] w = ["location": "${location}", "offset": "0", "length": "16"]>\n{ y = Add(x, w) }\n`;

    it("a path with .. or an absolute path is refused by run", () => {
      fs.mkdirSync(path.join(dir, "m"));
      fs.writeFileSync(path.join(dir, "secret.bin"), Buffer.alloc(16, 1));
      for (const location of ["../secret.bin", path.join(dir, "secret.bin")]) {
        const file = path.join(dir, "m", "a.onnxtxt");
        fs.writeFileSync(file, model(location));
        const r = runCli(["run", file]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /leaves the model's folder|must be a relative path/);
      }
    });

    it("a symbolic link out of the folder is refused; one inside it is followed", () => {
      fs.mkdirSync(path.join(dir, "m"));
      fs.writeFileSync(path.join(dir, "secret.bin"), Buffer.alloc(16, 1));
      fs.writeFileSync(path.join(dir, "m", "inside.bin"), new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer));
      fs.symlinkSync(path.join(dir, "secret.bin"), path.join(dir, "m", "out.bin"));
      fs.symlinkSync("inside.bin", path.join(dir, "m", "in.bin"));
      const out = path.join(dir, "m", "out.onnxtxt");
      fs.writeFileSync(out, model("out.bin"));
      const refused = runCli(["run", out, "--input", "x=float[4] {0, 0, 0, 0}"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /out\.bin: external data is a link to a file outside the model's folder/);
      const inside = path.join(dir, "m", "in.onnxtxt");
      fs.writeFileSync(inside, model("in.bin"));
      const followed = runCli(["run", inside, "--input", "x=float[4] {0, 0, 0, 0}"]);
      assert.equal(followed.code, 0, followed.stderr);
      assert.match(followed.stdout, /\{1, 2, 3, 4\}/);
    });
  });
});
