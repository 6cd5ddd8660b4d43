// Diagnostics as a person sees them on a terminal (a pseudo-terminal from util-linux's `script`):
// colour, the source line with a caret under the span, a cap with an "N more" line; and, piped,
// the same `FILE:LINE:COL: ...` lines as before, nothing added (#33).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { formatDiagnostics, modelFromText } from "../../core/src/index.js";
import { diagnosticLines } from "../../core/src/diagnostic-lines.js";
import { runCli } from "../helpers/cli.js";
import { CLI } from "../helpers/paths.js";

const TEXT = `<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] input_ids) => (float[2, 3] y) {
  a = Relu (input_id)
  b = Add (a, c1)
  d = Add (b, c2)
  y = Add (d, c3)
}
`;

const ESC = "\x1b";

/** The command run on a pseudo-terminal: what the terminal receives (line ends as \r\n there). */
function onTerminal(args: readonly string[], env: Record<string, string> = {}): string {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { encoding: "utf8", env: { ...base, TERM: "xterm", ...env } });
  assert.equal(r.error, undefined);
  return r.stdout.replace(/\r\n/g, "\n");
}

describe("diagnostics on a terminal (#33)", () => {
  let dir = "";
  let file = "";
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-tty-"));
    file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, TEXT);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("shows colour, the source line and a caret under the misspelt name", () => {
    const seen = onTerminal(["check", file]);
    assert.ok(seen.includes(`${ESC}[1;31merror:${ESC}[0m`), JSON.stringify(seen));
    const plain = seen.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "");
    const lines = plain.split("\n");
    const at = lines.findIndex((l) => l.startsWith(`${file}:3:13: error: 'input_id' is not defined`));
    assert.ok(at >= 0, plain);
    assert.deepEqual(lines.slice(at + 1, at + 4), ["  |", "3 |   a = Relu (input_id)", "  |             ^^^^^^^^"]);
  });

  it("NO_COLOR keeps the caret and drops the colour; --color never too", () => {
    for (const [args, env] of [
      [["check", file], { NO_COLOR: "1" }],
      [["check", "--color", "never", file], {}],
    ] as const) {
      const seen = onTerminal(args, env);
      assert.ok(!seen.includes(ESC), JSON.stringify(seen));
      assert.ok(seen.includes("3 |   a = Relu (input_id)\n  |             ^^^^^^^^\n"), seen);
    }
  });

  it("--max-errors caps the count with an 'N more' line", () => {
    const seen = onTerminal(["check", "--color=never", "--max-errors", "2", file]).split("\n");
    assert.equal(seen.filter((l) => l.startsWith(`${file}:`)).length, 2);
    assert.ok(seen.includes("... and 2 more diagnostics (use --max-errors to see more)"), seen.join("\n"));
  });

  it("piped, the lines are the machine-readable ones, every one, unchanged", () => {
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    const parsed = modelFromText(TEXT);
    assert.equal(r.stderr.split("\n").length, 5);
    for (const line of r.stderr.trimEnd().split("\n")) assert.match(line, /^.*m\.onnxtxt:\d+:\d+: error: .+ \[undefined-value\]$/);
    assert.ok(!r.stderr.includes(ESC) && !r.stderr.includes("^"));
    assert.equal(parsed.diagnostics.length, 0);
    // --max-errors applies when asked, and --color always colours a pipe
    const capped = runCli(["check", "--max-errors", "1", file]).stderr.split("\n");
    assert.equal(capped[1], "... and 3 more diagnostics (use --max-errors to see more)");
    assert.ok(runCli(["check", "--color", "always", file]).stderr.includes(`${ESC}[1;31merror:`));
    assert.match(runCli(["check", "--color", "sometimes", file]).stderr, /--color must be auto, always or never, not 'sometimes'/);
  });

  it("formatDiagnostics with no options is the one-line form", () => {
    const diags = [
      { severity: "error" as const, code: "syntax", message: "bad", span: { start: TEXT.indexOf("input_id)"), end: TEXT.indexOf("input_id)") + 8 } },
      { severity: "warning" as const, code: "w", message: "no span", where: "graph 'g'" },
    ];
    assert.equal(formatDiagnostics(diags, { file: "f", text: TEXT }), diagnosticLines("f", TEXT, diags));
    assert.equal(
      formatDiagnostics(diags, { file: "f", text: TEXT, source: true, maxErrors: 1 }),
      "f:3:13: error: bad [syntax]\n  |\n3 |   a = Relu (input_id)\n  |             ^^^^^^^^\n... and 1 more diagnostic (use --max-errors to see more)\n",
    );
  });
});
