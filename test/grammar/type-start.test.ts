import * as assert from "node:assert/strict";
import { ELEMENT_TYPES, isTypeStart, TYPE_CONSTRUCTORS } from "../../grammar/src/keywords.js";
import { nameText } from "../../grammar/src/names.js";

describe("grammar: words that start a type", () => {
  it("are exactly the element types and type constructors, looked up by first character", () => {
    const words = [...ELEMENT_TYPES, ...TYPE_CONSTRUCTORS];
    for (const w of words) {
      assert.ok(isTypeStart(w), w);
      // Near misses: same first character, other lengths or case, a prefix, an extension.
      for (const near of [w.slice(0, -1), `${w}_`, `${w}1`, w.toUpperCase(), `_${w}`]) assert.equal(isTypeStart(near), words.includes(near), near);
    }
    for (const name of ["", "t", "t0", "t49999", "x", "float_1", "é", "😀", "f", "s"]) assert.equal(isTypeStart(name), false, name);
  });

  it("are quoted where a name is written, other names not", () => {
    assert.equal(nameText("float"), '"float"');
    assert.equal(nameText("seq"), '"seq"');
    assert.equal(nameText("tensor0"), "tensor0");
    assert.equal(nameText("t5"), "t5");
  });
});
