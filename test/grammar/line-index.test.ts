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

  it("after an edit, gives what an index built from the new text gives, line breaks made and unmade across the edit", () => {
    const pieces = ["a", "b", "\r", "\n", "\r\n", "xy"];
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const textOf = (n: number): string => Array.from({ length: n }, () => pieces[random(pieces.length)]).join("");
    for (let round = 0; round < 3000; round++) {
      const before = textOf(random(12));
      const start = random(before.length + 1);
      const end = start + random(before.length - start + 1);
      const inserted = textOf(random(4));
      const after = before.slice(0, start) + inserted + before.slice(end);
      const edited = new LineIndex(before).edited(after, { start, end, newLength: inserted.length });
      const fresh = new LineIndex(after);
      const what = JSON.stringify({ before, start, end, inserted });
      assert.equal(edited.lineCount, fresh.lineCount, what);
      for (let o = 0; o <= after.length; o++) assert.deepEqual(edited.position(o), fresh.position(o), `${what} at ${o}`);
    }
  });
});
