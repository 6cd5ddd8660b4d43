// Neovim 0.7 (Debian's, installed by .ci/run) as a second LSP client of the language server,
// over stdio, headless: what a user of that editor meets, driven by neovim-client.lua.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";
import { SERVER_BIN } from "../server/lsp-client.js";

const MODEL = `<ir_version: 10, opset_import: ["" : 21]>
mlp (float[2, 4] x) => (float[2, 2] y)
<float[4, 2] W = {1, 2, 3, 4, 5, 6, 7, 8}>
{
  h = MatMul (x, W)
  y = Relu (h)
}
`;

interface Seen {
  initialized: boolean;
  hover?: string;
  typo_shown: boolean;
  typo: { line: number; col: number; code: string; message: string }[];
  typo_fixed: boolean;
  declared_shown: boolean;
  declared: { line: number; col: number; code: string; message: string }[];
  declared_fixed: boolean;
  lens?: string;
  run_outputs?: { name: string; text: string }[];
  messages: string;
  formatted: string;
  stopped: boolean;
}

const PYTHON = `import onnx


def test_relu():
    return onnx.parser.parse_model(
        """
        <ir_version: 8, opset_import: ["" : 18]>
        agraph (float[N, 4] X) => (float[N, 4] Y)
        {
            T = Relu(X)
            Y = Sigmoidd(T)
        }
        """
    )
`;

function runNeovim(dir: string, model: string, script = "neovim-client.lua"): Promise<{ code: number | null; output: string }> {
  const env = {
    ...process.env,
    NODE: process.execPath,
    ONNXTXT_LS: SERVER_BIN,
    RESULT: path.join(dir, "result.json"),
    XDG_CONFIG_HOME: path.join(dir, "xdg"),
    XDG_DATA_HOME: path.join(dir, "xdg"),
    XDG_STATE_HOME: path.join(dir, "xdg"),
  };
  const scriptPath = path.join(REPO, "test/editor", script);
  const nvim = spawn("nvim", ["--headless", "-n", "-i", "NONE", "-u", scriptPath, model], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  nvim.stdout.on("data", (c: Buffer) => (output += c.toString()));
  nvim.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => nvim.kill(), 90000);
  return new Promise((resolve, reject) => {
    nvim.on("error", reject);
    nvim.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("Neovim 0.7 as a client of the language server", function () {
  this.timeout(120000);
  let seen: Seen;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-nvim-"));
    const model = path.join(dir, "model.onnxtxt");
    fs.writeFileSync(model, MODEL);
    const r = await runNeovim(dir, model);
    const result = path.join(dir, "result.json");
    assert.ok(fs.existsSync(result), `nvim exited with ${r.code} and wrote nothing:\n${r.output}`);
    seen = JSON.parse(fs.readFileSync(result, "utf8")) as Seen;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("starts the server and shows a hover with the inferred type", () => {
    assert.ok(seen.initialized);
    assert.match(seen.hover ?? "", /float\[2, 2\] h[\s\S]*inferred type/);
  });

  it("shows a typo's diagnostic at the op as the user types it, and clears it when fixed", () => {
    assert.ok(seen.typo_shown);
    assert.deepEqual(seen.typo, [{ line: 4, col: 6, code: "unknown-op", message: "ai.onnx has no operator 'MatMux'; did you mean 'MatMul'?" }]);
    assert.ok(seen.typo_fixed);
  });

  it("reports a contradicted output declaration at the declaration the user edited", () => {
    assert.ok(seen.declared_shown);
    assert.deepEqual(
      seen.declared.map((d) => [d.line, d.col, d.code]),
      [[1, 24, "declared-type-mismatch"]],
    );
    assert.match(seen.declared[0]!.message, /^'y' is declared as float\[2,3\] but the operator produces float\[2,2\]/);
    assert.ok(seen.declared_fixed);
  });

  it("runs from the code lens's command and shows the summary as a message, not a prompt", () => {
    assert.equal(seen.lens, "▶ Run");
    assert.deepEqual(
      seen.run_outputs?.map((o) => [o.name, o.text]),
      [["y", "float[2, 2] {0, 0, 0, 0}"]],
    );
    assert.match(seen.messages, /Run finished in \d+ ms\. y: float\[2, 2\] \{0, 0, 0, 0\}/);
  });

  it("formats the buffer as `onnxtxt format` formats the file, and stops the server cleanly", () => {
    const file = path.join(dir, "messy.onnxtxt");
    fs.writeFileSync(file, MODEL.replace("  y = Relu (h)", "    y=Relu(h)"));
    const cli = runCli(["format", file]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(seen.formatted, cli.stdout);
    assert.ok(seen.stopped);
  });
});

describe("Neovim 0.7 on a Python file with ONNX text in a string", function () {
  this.timeout(120000);

  it("shows the misspelt op's diagnostic at its place in the file, and a hover with the inferred type", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-nvim-py-"));
    try {
      const file = path.join(dir, "test_relu.py");
      fs.writeFileSync(file, PYTHON);
      const r = await runNeovim(dir, file, "neovim-host.lua");
      const result = path.join(dir, "result.json");
      assert.ok(fs.existsSync(result), `nvim exited with ${r.code} and wrote nothing:\n${r.output}`);
      const seen = JSON.parse(fs.readFileSync(result, "utf8")) as {
        filetype: string;
        initialized: boolean;
        shown: boolean;
        diagnostics: { line: number; col: number; code: string }[];
        hover?: string;
      };
      assert.equal(seen.filetype, "python");
      assert.ok(seen.initialized && seen.shown);
      const lines = PYTHON.split("\n");
      const line = lines.findIndex((l) => l.includes("Sigmoidd"));
      assert.deepEqual(seen.diagnostics, [{ line, col: lines[line]!.indexOf("Sigmoidd"), code: "unknown-op" }]);
      assert.match(seen.hover ?? "", /float\[N, 4\] T/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
