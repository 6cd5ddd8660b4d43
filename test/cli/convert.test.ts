// The CLI's convert command over real models: single and batch forms, exit codes, errors.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { libonnxModelDirs, LIBONNX_DATA } from "../helpers/paths.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-cli-"));
}

describe("onnxtxt convert", () => {
  it("re-encodes every libonnx-testdata model in one batch call", () => {
    const inputs = libonnxModelDirs().map((d) => path.join(d, "model.onnx"));
    const out = tempDir();
    try {
      const r = runCli(["convert", "--to", "onnx", "--out-dir", out, ...inputs]);
      assert.equal(r.code, 0, r.stderr);
      for (const input of inputs) {
        const rel = path.relative(LIBONNX_DATA, input);
        const written = fs.readFileSync(path.join(out, rel));
        assert.ok(Buffer.compare(written, fs.readFileSync(input)) === 0, `${rel} changed`);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("writes inputs from one folder as DIR/<stem>.onnx and refuses a shared stem", () => {
    const dir = tempDir();
    try {
      const src = path.join(libonnxModelDirs()[0]!, "model.onnx");
      fs.copyFileSync(src, path.join(dir, "a.onnx"));
      fs.copyFileSync(src, path.join(dir, "b.onnx"));
      const out = path.join(dir, "out");
      assert.equal(runCli(["convert", "--to", "onnx", "--out-dir", out, path.join(dir, "a.onnx"), path.join(dir, "b.onnx")]).code, 0);
      assert.deepEqual(fs.readdirSync(out).sort(), ["a.onnx", "b.onnx"]);
      fs.writeFileSync(path.join(dir, "a.onnxtxt"), "");
      const r = runCli(["convert", "--to", "onnx", "--out-dir", path.join(dir, "o2"), path.join(dir, "a.onnx"), path.join(dir, "a.onnxtxt")]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /share the stem 'a'/);
      assert.ok(!fs.existsSync(path.join(dir, "o2")), "nothing is written when the outputs collide");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a damaged model in one line and leaves no output", () => {
    const dir = tempDir();
    try {
      const bad = path.join(dir, "bad.onnx");
      const good = fs.readFileSync(path.join(libonnxModelDirs()[0]!, "model.onnx"));
      fs.writeFileSync(bad, good.subarray(0, Math.floor(good.length / 2)));
      const r = runCli(["convert", bad, path.join(dir, "out.onnx")]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^onnxtxt: .*bad\.onnx: not a valid ONNX model: .+\n$/);
      assert.ok(!fs.existsSync(path.join(dir, "out.onnx")));
      assert.deepEqual(fs.readdirSync(dir), ["bad.onnx"], "no temp file is left behind");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports usage errors and missing files with exit code 2", () => {
    assert.equal(runCli(["convert"]).code, 2);
    assert.equal(runCli(["convert", "--bogus", "a", "b"]).code, 2);
    const r = runCli(["convert", "/nonexistent/m.onnx", "/tmp/x.onnx"]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, "onnxtxt: /nonexistent/m.onnx: no such file or directory\n");
  });

  it("answers --help and --version", () => {
    const h = runCli(["--help"]);
    assert.equal(h.code, 0);
    assert.match(h.stdout, /convert/);
    assert.match(runCli(["--version"]).stdout, /^\d+\.\d+\.\d+\n$/);
  });
});
