import * as assert from "node:assert/strict";
import { LineIndex } from "../../grammar/src/line-index.js";

describe("grammar: line index", () => {
  it("finds by walking forward the same positions a search finds, with every line ending", () => {
    const text = "ab\r\ncd\n\nef\rgh\r\n\r\nij";
    const lines = new LineIndex(text);
    let line = 0;
    for (let o = 0; o <= text.length + 1; o++) {
      const p = lines.positionFrom(o, line);
      assert.deepEqual(p, lines.position(o), `offset ${o}`);
      line = p.line;
    }
    // A line after the offset, or out of range, falls back to the search.
    assert.deepEqual(lines.positionFrom(1, 3), lines.position(1));
    assert.deepEqual(lines.positionFrom(5, -1), lines.position(5));
  });
});
