import * as assert from "node:assert/strict";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { shiftDiagnostics } from "../../core/src/ide/shift-diagnostics.js";

const at = (start: number, end: number): Diagnostic => ({ severity: "error", code: "x", message: `${start}`, span: { start, end } });

describe("ide: carrying diagnostics across edits", () => {
  it("keeps spans before an edit, moves spans after it and drops spans it touches", () => {
    const out = shiftDiagnostics([at(0, 2), at(5, 7), at(20, 25)], [{ start: 6, end: 10, newLength: 1 }]);
    assert.deepEqual(
      out.map((d) => [d.message, d.span!.start, d.span!.end]),
      [
        ["0", 0, 2],
        ["20", 17, 22],
      ],
    );
  });

  it("moves related places with the diagnostic, and drops a diagnostic whose related place an edit touches", () => {
    const related = (start: number, end: number, r: number): Diagnostic => ({
      ...at(start, end),
      related: [{ message: "made here", span: { start: r, end: r + 1 } }],
    });
    const out = shiftDiagnostics([related(0, 2, 30), related(3, 4, 8)], [{ start: 6, end: 10, newLength: 1 }]);
    assert.deepEqual(
      out.map((d) => [d.message, d.span!.start, d.related?.map((r) => r.span.start)]),
      [["0", 0, [27]]],
    );
  });

  it("applies several edits in order", () => {
    const out = shiftDiagnostics(
      [at(30, 31)],
      [
        { start: 0, end: 0, newLength: 5 },
        { start: 10, end: 12, newLength: 0 },
      ],
    );
    assert.deepEqual(
      out.map((d) => [d.span!.start, d.span!.end]),
      [[33, 34]],
    );
  });
});

describe("ide: the edited statement's syntax check", () => {
  const TEXT = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) {
  t = Neg (x)
  y = Abs (t)
}
`;

  it("reports an edit that breaks the statement, at the statement's place", async () => {
    const { analyze } = await import("../../core/src/ide/analyze.js");
    const { statementSyntaxCheck } = await import("../../core/src/ide/statement-check.js");
    const before = analyze(TEXT);
    const paren = TEXT.indexOf("(t)");
    const after = TEXT.slice(0, paren) + TEXT.slice(paren + 1);
    const diags = statementSyntaxCheck(before, { start: paren, end: paren + 1, newLength: 0 }, after)!;
    assert.ok(diags.length > 0 && diags[0]!.span!.start >= after.indexOf("y = Abs") && diags[0]!.span!.start <= after.indexOf("}"), JSON.stringify(diags));
    // A harmless edit inside the statement: no syntax errors.
    const renamed = TEXT.replace("Abs (t)", "Abs (u)");
    assert.deepEqual(statementSyntaxCheck(before, { start: paren + 1, end: paren + 2, newLength: 1 }, renamed), []);
    // Outside any statement the shortcut does not apply.
    assert.equal(statementSyntaxCheck(before, { start: 0, end: 0, newLength: 1 }, " " + TEXT), undefined);
  });
});
