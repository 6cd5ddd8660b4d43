// Python fixtures against what Python itself does: each call's region holds exactly the string
// Python passes to the parser, and onnx 1.12's parser accepts it exactly when we find no
// syntax error (in the clean fixture, and with a syntax error seeded in each call's string).
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkEmbedded, findRegions } from "../../core/src/embedded/index.js";
import { fixture, opCalls, splice } from "./fixtures.js";
import { oracleMissing, recordParserCalls, type Recorded } from "./oracle.js";

describe("embedded: Python regions against Python and onnx 1.12's parser", function () {
  const f = fixture("clean.py", "python");
  const calls = findRegions(f.text, "python").regions.filter((r) => r.kindSource === "call");
  let dir = "";
  let recorded: Recorded[][] = [];

  before(function () {
    const missing = oracleMissing();
    if (missing) {
      console.log(`    skipped: the Python oracle cannot run: ${missing}`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-oracle-"));
    const files = [path.join(dir, "clean.py")];
    fs.writeFileSync(files[0]!, f.text);
    // one copy per call with a `$` seeded inside its first op's parentheses
    for (const [i, r] of calls.entries()) {
      const call = opCalls(f.text, r.literal.content.start, r.literal.content.end)[0]!;
      const file = path.join(dir, `damaged${i}.py`);
      fs.writeFileSync(file, splice(f.text, call.paren + 1, 0, "$"));
      files.push(file);
    }
    recorded = recordParserCalls(files);
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("every call's region holds exactly the string Python passes (before textwrap.dedent), with the call's kind", () => {
    const seen = recorded[0]!;
    assert.equal(seen.length, calls.length);
    for (const [i, r] of calls.entries()) {
      const py = seen[i]!;
      assert.equal(r.kind, py.kind, `call ${i}`);
      assert.equal(r.text, py.dedentedFrom ?? py.text, `call ${i}`);
    }
    assert.equal(seen.filter((s) => s.dedentedFrom !== undefined).length, 1, "the dedent call is recognised as one");
  });

  it("onnx 1.12 accepts every clean string, and we find no syntax error in any", () => {
    assert.deepEqual(
      recorded[0]!.filter((s) => s.error).map((s) => s.error),
      [],
    );
    assert.deepEqual(
      checkEmbedded(f.text, "python").diagnostics.filter((d) => d.code === "syntax"),
      [],
    );
  });

  it("a syntax error seeded in each call: onnx 1.12 rejects that string and we report a syntax error in that region", () => {
    for (const [i, r] of calls.entries()) {
      const damaged = fs.readFileSync(path.join(dir, `damaged${i}.py`), "utf8");
      const seen = recorded[i + 1]!;
      assert.deepEqual(
        seen.map((s, k) => (s.error === undefined ? "ok" : k)),
        seen.map((_, k) => (k === i ? k : "ok")),
        `damaged call ${i}: onnx 1.12 rejects exactly it`,
      );
      const region = findRegions(damaged, "python").regions.filter((x) => x.kindSource === "call")[i]!;
      const syntax = checkEmbedded(damaged, "python").diagnostics.filter((d) => d.code === "syntax");
      assert.equal(syntax.length > 0, true, `call ${i}`);
      assert.ok(
        syntax.every((d) => d.span!.start >= region.literal.content.start && d.span!.start <= region.literal.content.end),
        `call ${i}: the syntax errors are in its region (${r.origin})`,
      );
    }
  });
});
