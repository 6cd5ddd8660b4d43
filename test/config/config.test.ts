// The configuration reader (the TOML subset, every key, every mistake with its line and column),
// rule selection and inline suppressions, in core, on a real example model's diagnostics.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  applyConfig,
  applySuppressions,
  CHECK_CODES,
  checkModel,
  modelFromText,
  CODE_GROUPS,
  enabledCodes,
  isExcluded,
  readConfig,
  type OnnxtxtConfig,
} from "../../core/src/index.js";
import { parseToml } from "../../core/src/config/toml.js";
import { globMatches } from "../../core/src/config/glob.js";
import { OTHER_RULE_CODES } from "../../core/src/config/config.js";
import type { Diagnostic } from "../../core/src/diagnostics.js";
import { REPO } from "../helpers/paths.js";

function config(text: string, pyproject = false): OnnxtxtConfig {
  const r = readConfig(text, pyproject);
  assert.ok(r.ok, JSON.stringify(r));
  return r.config;
}

function problems(text: string, pyproject = false): string[] {
  const r = readConfig(text, pyproject);
  assert.ok(!r.ok, "expected problems");
  return r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const diag = (code: string, start: number, end = start + 1, severity: Diagnostic["severity"] = "warning"): Diagnostic => ({
  severity,
  code,
  message: code,
  span: { start, end },
});

describe("configuration", () => {
  describe("TOML subset", () => {
    it("reads tables, quoted keys, strings with escapes, integers, booleans and multi-line arrays with comments", () => {
      const t = parseToml(`# top
a = "x\\ty\\u00e9" # trailing
b = 'C:\\path'
n = -1_000
yes = true
list = [
  "one", # first
  "two",
]
[t.sub]
"quoted key" = []
`);
      const get = (k: string) => t.entries.get(k)?.value;
      assert.deepEqual(get("a"), { kind: "string", value: "x\tyé", pos: { line: 2, col: 5 } });
      assert.equal((get("b") as { value: string }).value, "C:\\path");
      assert.equal((get("n") as { value: number }).value, -1000);
      assert.equal((get("yes") as { value: boolean }).value, true);
      const list = get("list");
      assert.ok(list?.kind === "array");
      assert.deepEqual(
        list.items.map((i) => (i.kind === "string" ? [i.value, i.pos.line] : undefined)),
        [
          ["one", 7],
          ["two", 8],
        ],
      );
      const sub = get("t");
      assert.ok(sub?.kind === "table");
      const inner = sub.entries.get("sub")?.value;
      assert.ok(inner?.kind === "table");
      assert.deepEqual(inner.entries.get("quoted key")?.keyPos, { line: 11, col: 1 });
    });

    it("reads only [tool.onnxtxt] of a pyproject.toml, whatever TOML the rest uses", () => {
      const c = config(
        `[project]
name = "x"
authors = [{ name = "A", email = "a@b" }]
version = 1.5
[[tool.other]]
x = """many
lines"""
[tool.onnxtxt]
line-width = 88
[tool.onnxtxt.severity]
unused-input = "error"
[tool.ruff]
line-length = 1e3
`,
        true,
      );
      assert.deepEqual(c, { lineWidth: 88, severity: { "unused-input": "error" } });
    });

    it("refuses what it does not read, at its line and column", () => {
      assert.deepEqual(problems('a = "open'), ["1:5: unterminated string"]);
      assert.deepEqual(problems('select = [\n  "x"\n  "y"]'), ["3:3: expected ',' or ']' in the array"]);
      assert.deepEqual(problems("line-width = 1.5"), ["1:14: expected a string, integer, boolean or array, found '1.5'"]);
      assert.deepEqual(problems("x = {a = 1}"), ["1:5: inline tables ({...}) are not supported here; use a [table] header"]);
      assert.deepEqual(problems("a.b = 1"), ["1:1: dotted keys are not supported here; use a [table] header"]);
      assert.deepEqual(problems("line-width = 80\nline-width = 90"), ["2:1: 'line-width' is set twice (first on line 1)"]);
      assert.deepEqual(problems("[severity]\n[severity]"), ["2:1: table [severity] is defined twice"]);
      assert.deepEqual(problems('line-width = 80 "x"'), ["1:17: expected the end of the line, found '\"'"]);
      assert.deepEqual(problems('a = "\\q"'), ["1:6: unknown escape \\q"]);
    });
  });

  describe("keys", () => {
    it("reads every key", () => {
      const c = config(`select = ["structure", "unused-input"]
extend-select = ["warnings"]
ignore = ["redefinition"]
exclude = ["generated/", "*.tmp.onnxtxt"]
line-width = 120
[severity]
unused-value = "error"
missing-shape = "off"
[per-file-ignores]
"tests/**" = ["unused-input"]
`);
      assert.deepEqual(c, {
        select: ["structure", "unused-input"],
        extendSelect: ["warnings"],
        ignore: ["redefinition"],
        exclude: ["generated/", "*.tmp.onnxtxt"],
        lineWidth: 120,
        severity: { "unused-value": "error", "missing-shape": "off" },
        perFileIgnores: [{ glob: "tests/**", codes: ["unused-input"] }],
      });
    });

    it("names each unknown key, wrong type and unknown code with its line and column", () => {
      assert.deepEqual(
        problems(`selct = ["x"]
select = "unused-input"
ignore = ["unused-inptu", 3]
line-width = "80"
exclude = [true]
[severity]
unknown-op = "loud"
not-a-code = "error"
[per-file-ignores]
"a/*" = "unused-input"
`),
        [
          "1:1: unknown key 'selct' (known: select, extend-select, ignore, exclude, line-width, min-opset, [severity], [per-file-ignores])",
          "2:10: 'select' must be an array of strings, not a string",
          "3:11: unknown rule code or group 'unused-inptu' in 'ignore'",
          "3:27: an item of 'ignore' must be a string, not an integer",
          "4:14: 'line-width' must be an integer, not a string",
          "5:12: an item of 'exclude' must be a string, not a boolean",
          '7:14: the severity of \'unknown-op\' must be one of "error", "warning", "info", "hint", "off"',
          "8:1: unknown rule code 'not-a-code' in [severity]",
          "10:9: 'per-file-ignores.\"a/*\"' must be an array of strings, not a string",
        ],
      );
      assert.deepEqual(problems("line-width = 5"), ["1:14: 'line-width' must be between 20 and 1000, not 5"]);
      assert.deepEqual(problems("[tool.onnxtxt]\nwidth = 1", true), [
        "2:1: unknown key 'width' (known: select, extend-select, ignore, exclude, line-width, min-opset, [severity], [per-file-ignores])",
      ]);
    });
  });

  describe("rule selection", () => {
    it("puts every checker code in exactly one group", () => {
      const grouped = Object.values(CODE_GROUPS).flat();
      assert.deepEqual([...grouped].sort(), Object.keys(CHECK_CODES).sort(), "put each code of CHECK_CODES in one CODE_GROUPS entry (core/src/check/codes.ts)");
    });

    it("select, extend-select and ignore by code and group; ignore wins; per-file ignores by glob", () => {
      const c = config(`select = ["structure"]
extend-select = ["unused-input"]
ignore = ["redefinition"]
[per-file-ignores]
"legacy/**" = ["structure"]
`);
      const on = enabledCodes(c, "models/a.onnxtxt");
      assert.ok(on.has("undefined-value") && on.has("unused-input"));
      assert.ok(!on.has("redefinition") && !on.has("unused-value") && !on.has("unknown-op"));
      const legacy = enabledCodes(c, "legacy/deep/b.onnxtxt");
      assert.deepEqual([...legacy], ["unused-input"]);
      assert.equal(enabledCodes({}).size, Object.keys(CHECK_CODES).length + OTHER_RULE_CODES.length);
    });

    it("changes severities, turns rules off, and lets codes no rule names (syntax) through", () => {
      const c = config('[severity]\nunused-input = "error"\nunused-value = "off"\n');
      const out = applyConfig([diag("unused-input", 0), diag("unused-value", 2), diag("syntax", 4, 5, "error")], c);
      assert.deepEqual(
        out.map((d) => [d.code, d.severity]),
        [
          ["unused-input", "error"],
          ["syntax", "error"],
        ],
      );
    });

    it("excludes by glob relative to the configuration's folder", () => {
      const c = config('exclude = ["generated", "build/**/*.onnxtxt", "./top.onnxtxt"]');
      assert.ok(isExcluded(c, "generated/a.onnxtxt"));
      assert.ok(isExcluded(c, "sub/generated/deep/a.onnxtxt"));
      assert.ok(isExcluded(c, "build/x/y/z.onnxtxt"));
      assert.ok(isExcluded(c, "top.onnxtxt"));
      assert.ok(!isExcluded(c, "sub/top.onnxtxt"));
      assert.ok(!isExcluded(c, "generated-not/a.onnxtxt"));
      assert.ok(globMatches("*.onnxtxt", "a/b/c.onnxtxt"));
      assert.ok(!globMatches("a/*.onnxtxt", "a/b/c.onnxtxt"));
    });
  });

  describe("suppressions", () => {
    // a real example model with an unused input added: the checker's own warnings
    const model = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8");

    const text = `line one  # onnxtxt: ignore[unused-value]
# onnxtxt: ignore[unused-input, unknown-op]
# a plain comment between
line four
other  # onnxtxt: ignore[no-such-code]
`;
    const at = (line: number) =>
      text
        .split("\n")
        .slice(0, line - 1)
        .join("\n").length + (line > 1 ? 1 : 0);

    it("silences a code on its own line and on the next statement's line; reports an unused one and an unknown code", () => {
      const out = applySuppressions(text, [diag("unused-value", at(1)), diag("unused-input", at(4) + 2), diag("unused-input", at(1) + 1)]);
      assert.deepEqual(
        out.map((d) => `${d.code}@${text.slice(0, d.span!.start).split("\n").length}: ${d.message}`),
        [
          "unused-input@1: unused-input",
          "unused-suppression@2: unused suppression: nothing on line 4 reports 'unknown-op'",
          "unknown-suppression-code@5: 'no-such-code' is not a rule code; this suppression silences nothing",
        ],
      );
      const unused = out[1]!;
      assert.equal(text.slice(unused.span!.start, unused.span!.end), "unknown-op");
    });

    it("file-ignore silences a code everywhere, and is unused when nothing reports it", () => {
      const t = `# onnxtxt: file-ignore[unused-value]\na\nb\n`;
      assert.deepEqual(applySuppressions(t, [diag("unused-value", t.indexOf("b"))]), []);
      assert.deepEqual(
        applySuppressions(t, []).map((d) => d.message),
        ["unused suppression: nothing in this file reports 'unused-value'"],
      );
    });

    it("ignores the directive inside a string", () => {
      const t = `a = Constant <value_string = "# onnxtxt: ignore[unused-value]"> ()\n`;
      assert.equal(applySuppressions(t, [diag("unused-value", 0)]).length, 1);
    });

    it("silences the checker's own warnings on a real example model", () => {
      // examples/mlp.onnxtxt with an unused input and an unused node output added
      const edited = model
        .replace("(float[N, 4] x)", "(float[N, 4] x,\n  # onnxtxt: ignore[unused-input]\n  float[N] spare)")
        .replace("  h = Relu (h1)\n", "  h = Relu (h1)\n  dead = Relu (h1)  # onnxtxt: ignore[unused-value, unused-input]\n");
      const r = modelFromText(edited);
      assert.deepEqual(r.diagnostics, []);
      const raw = checkModel(r.model!, { sourceMap: r.sourceMap! });
      assert.deepEqual(raw.map((d) => d.code).sort(), ["unused-input", "unused-value"]);
      const out = applySuppressions(edited, raw);
      assert.deepEqual(
        out.map((d) => [d.code, edited.slice(d.span!.start, d.span!.end)]),
        [["unused-suppression", "unused-input"]],
      );
      assert.equal(edited.slice(0, out[0]!.span!.start).split("\n").length, 14);
    });
  });

  describe("docs/lint.md", () => {
    const doc = fs.readFileSync(path.join(REPO, "docs/lint.md"), "utf8");
    const fences = (lang: string) => [...doc.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

    it("its onnxtxt.toml example reads without a problem, and means what its comments say", () => {
      const c = config(fences("toml")[0]!);
      assert.equal(c.lineWidth, 100);
      assert.ok(isExcluded(c, "generated/x.onnxtxt") && isExcluded(c, "third_party/a/b.onnxtxt"));
      const on = enabledCodes(c, "tests/t.onnxtxt");
      assert.ok(!on.has("unused-value") && !on.has("input-shadows-initializer") && on.has("unknown-op"));
    });

    it("its suppression example checks clean: both suppressions are used", () => {
      const body = doc
        .split("```")
        .find((part) => part.startsWith("\ng (float[N] x,"))!
        .slice(1);
      assert.match(body, /onnxtxt: ignore\[unused-input\]/);
      const text = `<ir_version: 8, opset_import: ["" : 18]>\n${body}`;
      const r = modelFromText(text);
      assert.deepEqual(r.diagnostics, []);
      const raw = checkModel(r.model!, { sourceMap: r.sourceMap! });
      assert.deepEqual(raw.map((d) => d.code).sort(), ["unused-input", "unused-value"]);
      assert.deepEqual(applySuppressions(text, raw), []);
    });
  });
});
