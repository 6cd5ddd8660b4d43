import * as assert from "node:assert/strict";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { shiftDiagnostics } from "../../core/src/ide/shift-diagnostics.js";

const at = (start: number, end: number): Diagnostic => ({ severity: "error", code: "x", message: `${start}`, span: { start, end } });

describe("ide: carrying diagnostics across edits", () => {
  it("keeps spans before an edit, moves spans after it and drops spans it touches", () => {
    const out = shiftDiagnostics([at(0, 2), at(5, 7), at(20, 25)], [{ start: 6, end: 10, newLength: 1 }]);
    assert.deepEqual(out.map((d) => [d.message, d.span!.start, d.span!.end]), [["0", 0, 2], ["20", 17, 22]]);
  });

  it("applies several edits in order", () => {
    const out = shiftDiagnostics([at(30, 31)], [{ start: 0, end: 0, newLength: 5 }, { start: 10, end: 12, newLength: 0 }]);
    assert.deepEqual(out.map((d) => [d.span!.start, d.span!.end]), [[33, 34]]);
  });
});
