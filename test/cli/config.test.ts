// `check` and `format` under a configuration found by walking up from each file (onnxtxt.toml,
// pyproject.toml's [tool.onnxtxt]), `--config`, `--isolated`, the mistakes of a configuration
// file, and `check --format github`.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";
import { escapeData, escapeProperty } from "../../cli/src/github-annotations.js";

// examples/mlp.onnxtxt with an unused graph input: one `unused-input` warning from the checker
const MLP = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8").replace("(float[N, 4] x)", "(float[N, 4] x, float[N] spare)");

function codes(stderr: string): string[] {
  return [...stderr.matchAll(/^.*:\d+:\d+: (\w+): .* \[([a-z-]+)\]$/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe("onnxtxt check / format with a configuration", () => {
  let dir = "";
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-config-"));
    write("models/a.onnxtxt", MLP);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("without a configuration reports the checker's warning", () => {
    const r = runCli(["check", "models/a.onnxtxt"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(codes(r.stderr), ["warning unused-input"]);
  });

  it("the nearest onnxtxt.toml wins over a pyproject.toml further up; [severity] raises the warning to an error", () => {
    write("pyproject.toml", '[project]\nname = "p"\n[tool.onnxtxt]\nignore = ["warnings"]\n');
    assert.deepEqual(codes(runCli(["check", "models/a.onnxtxt"], dir).stderr), []);
    write("models/onnxtxt.toml", '[severity]\nunused-input = "error"\n');
    const r = runCli(["check", "models/a.onnxtxt"], dir);
    assert.equal(r.code, 1);
    assert.deepEqual(codes(r.stderr), ["error unused-input"]);
    // the command-line flags apply after the configuration
    assert.equal(runCli(["check", "--ignore", "unused-input", "models/a.onnxtxt"], dir).code, 0);
    // --isolated reads none; --config reads the one given
    assert.deepEqual(codes(runCli(["check", "--isolated", "models/a.onnxtxt"], dir).stderr), ["warning unused-input"]);
    assert.deepEqual(codes(runCli(["check", "--config", "pyproject.toml", "models/a.onnxtxt"], dir).stderr), []);
  });

  it("min-opset warns at the opset_import entry of an older model (opset-below-minimum), and not at or above it", () => {
    // examples/mlp.onnxtxt imports opset 21 of the default domain (a comment above it mentions none)
    write("onnxtxt.toml", 'min-opset = 22\nignore = ["unused-input"]\n');
    const r = runCli(["check", "models/a.onnxtxt"], dir);
    assert.equal(r.code, 0, r.stderr);
    const line = MLP.split("\n").findIndex((l) => l.includes('opset_import: ["" : 21]')) + 1;
    const col = MLP.split("\n")[line - 1]!.indexOf('"" : 21') + 1;
    assert.match(
      r.stderr,
      new RegExp(
        `a\\.onnxtxt:${line}:${col}: warning: the model imports opset 21 of the default domain; the configuration asks for 22 or newer \\(min-opset\\); 'onnxtxt upgrade --opset 22 IN OUT' converts it \\[opset-below-minimum\\]`,
      ),
    );
    write("onnxtxt.toml", 'min-opset = 21\nignore = ["unused-input"]\n');
    assert.deepEqual(codes(runCli(["check", "models/a.onnxtxt"], dir).stderr), []);
    // a rule like the others: its severity can be raised
    write("onnxtxt.toml", 'min-opset = 30\nignore = ["unused-input"]\n[severity]\nopset-below-minimum = "error"\n');
    assert.deepEqual(codes(runCli(["check", "models/a.onnxtxt"], dir).stderr), ["error opset-below-minimum"]);
    write("onnxtxt.toml", 'min-opset = "21"\n');
    assert.match(runCli(["check", "models/a.onnxtxt"], dir).stderr, /onnxtxt\.toml:1:13: error: 'min-opset' must be an integer/);
  });

  it("a pyproject.toml without [tool.onnxtxt] is passed over", () => {
    write("models/pyproject.toml", '[project]\nname = "p"\n');
    write("onnxtxt.toml", 'select = ["structure"]\n');
    assert.deepEqual(codes(runCli(["check", "models/a.onnxtxt"], dir).stderr), []);
  });

  it("select, extend-select and per-file-ignores choose the rules for each file", () => {
    write("models/b.onnxtxt", MLP);
    write("onnxtxt.toml", 'select = ["structure"]\nextend-select = ["unused-input"]\n[per-file-ignores]\n"models/b.*" = ["unused-input"]\n');
    const r = runCli(["check", "models/a.onnxtxt", "models/b.onnxtxt"], dir);
    assert.deepEqual(
      [...r.stderr.matchAll(/^(.*?):\d+:\d+: .*\[([a-z-]+)\]$/gm)].map((m) => `${m[1]} ${m[2]}`),
      ["models/a.onnxtxt unused-input"],
    );
  });

  it("exclude skips a folder for check and format, with a note", () => {
    write("generated/bad.onnxtxt", "this is not a model");
    write("onnxtxt.toml", 'exclude = ["generated/"]\n');
    const r = runCli(["check", "generated/bad.onnxtxt"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /generated\/bad\.onnxtxt: skipped \(excluded by .*onnxtxt\.toml\)/);
    assert.equal(runCli(["format", "--check", "generated/bad.onnxtxt"], dir).code, 0);
    assert.equal(runCli(["check", "--isolated", "generated/bad.onnxtxt"], dir).code, 1);
  });

  it("line-width sets the formatter's width", () => {
    const long = fs.readFileSync(path.join(REPO, "examples/convnet.onnxtxt"), "utf8");
    write("models/c.onnxtxt", long);
    const wide = runCli(["format", "--isolated", "models/c.onnxtxt"], dir);
    assert.equal(wide.code, 0, wide.stderr);
    assert.ok(wide.stdout.split("\n").some((l) => l.length > 40));
    write("onnxtxt.toml", "line-width = 40\n");
    const narrow = runCli(["format", "models/c.onnxtxt"], dir);
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.notEqual(narrow.stdout, wide.stdout);
    // the same model either way (only the layout differs)
    const a = path.join(dir, "wide.onnxtxt");
    const b = path.join(dir, "narrow.onnxtxt");
    fs.writeFileSync(a, wide.stdout);
    fs.writeFileSync(b, narrow.stdout);
    assert.equal(runCli(["diff", a, b]).code, 0);
    const over = narrow.stdout.split("\n").filter((l) => l.length > 40 && !l.trimStart().startsWith("#"));
    assert.ok(over.length < wide.stdout.split("\n").filter((l) => l.length > 40).length, over.join("\n"));
  });

  it("line-width applies to ONNX text inside a Python file too", () => {
    const model = fs.readFileSync(path.join(REPO, "examples/convnet.onnxtxt"), "utf8");
    write("models/build.py", `import onnx.parser\n\nmodel = onnx.parser.parse_model("""\n${model}""")\n`);
    write("models/c.onnxtxt", model);
    write("onnxtxt.toml", "line-width = 40\n");
    const inner = (py: string) => py.slice(py.indexOf('"""') + 4, py.lastIndexOf('"""'));
    const narrow = runCli(["format", "models/build.py"], dir);
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.notEqual(inner(narrow.stdout), inner(runCli(["format", "--isolated", "models/build.py"], dir).stdout));
    // the text in the string is laid out as the same text in its own file
    assert.equal(inner(narrow.stdout), runCli(["format", "models/c.onnxtxt"], dir).stdout);
  });

  it("a mistake in the configuration stops the run with FILE:LINE:COL", () => {
    write("onnxtxt.toml", 'select = ["structure"]\nignore = ["unused-inptu"]\nline-widht = 80\n');
    const r = runCli(["check", "models/a.onnxtxt"], dir);
    assert.equal(r.code, 2);
    const file = fs.realpathSync(path.join(dir, "onnxtxt.toml"));
    assert.equal(
      r.stderr.replace(path.join(dir, "onnxtxt.toml"), file),
      `${file}:2:11: error: unknown rule code or group 'unused-inptu' in 'ignore'\n` +
        `${file}:3:1: error: unknown key 'line-widht' (known: select, extend-select, ignore, exclude, line-width, min-opset, [severity], [per-file-ignores])\n`,
    );
    assert.equal(runCli(["format", "models/a.onnxtxt"], dir).code, 2);
    assert.match(runCli(["check", "--config", "missing.toml", "models/a.onnxtxt"], dir).stderr, /missing\.toml: no such configuration file/);
  });

  it("suppressions in the file, and their unused and unknown codes, through the CLI", () => {
    write("models/s.onnxtxt", MLP.replace("(float[N, 2] y) <", "(float[N, 2] y) < # onnxtxt: ignore[unused-input, unused-value, nope]"));
    const r = runCli(["check", "models/s.onnxtxt"], dir);
    assert.deepEqual(codes(r.stderr), ["warning unused-suppression", "warning unknown-suppression-code"]);
  });

  it("--format github writes one escaped workflow command per diagnostic", () => {
    write("models/odd, na:me.onnxtxt", MLP);
    const r = runCli(["check", "--format", "github", "models/a.onnxtxt", "models/odd, na:me.onnxtxt"], dir);
    assert.equal(r.code, 0, r.stderr);
    const col = MLP.split("\n")[2]!.indexOf("spare") + 1;
    assert.equal(col, 30);
    assert.equal(
      r.stdout,
      "::warning file=models/a.onnxtxt,line=3,col=30,endLine=3,endColumn=35,title=unused-input::graph input 'spare' is never used\n" +
        "::warning file=models/odd%2C na%3Ame.onnxtxt,line=3,col=30,endLine=3,endColumn=35,title=unused-input::graph input 'spare' is never used\n",
    );
    // GitHub's escaping (as @actions/core does it): %, CR, LF in the message; also : and , in properties
    assert.equal(escapeData("100% done\r\nnext: a, b"), "100%25 done%0D%0Anext: a, b");
    assert.equal(escapeProperty("a%b:c,d\n"), "a%25b%3Ac%2Cd%0A");
  });
});
