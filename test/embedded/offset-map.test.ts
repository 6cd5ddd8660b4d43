// The offset maps of every region of every fixture, over every character: text -> host ->
// text round trips, each text unit sits on its own host character (or on the escape that
// stands for it), and host characters outside the text are only quotes and white space.
import { strict as assert } from "node:assert";
import { findRegions, type EmbeddedRegion } from "../../core/src/embedded/index.js";
import { CLEAN } from "./fixtures.js";

/** Whether host text at `h` is an escape (a backslash, or an f-string's doubled brace). */
function escapeAt(host: string, h: number): boolean {
  const c = host[h];
  return c === "\\" || ((c === "{" || c === "}") && host[h + 1] === c);
}

function checkMap(host: string, r: EmbeddedRegion): void {
  const { text, map } = r;
  let previous = -1;
  for (let t = 0; t < text.length; t++) {
    const h = map.toHost(t);
    assert.ok(h > previous, `text ${t}: host ${h} does not follow ${previous}`);
    previous = h;
    assert.ok(h >= r.literal.content.start && h < r.literal.content.end, `text ${t}: host ${h} outside the literal's content`);
    if (host[h] !== text[t]) assert.ok(escapeAt(host, h), `text ${t} ${JSON.stringify(text[t])} sits on host ${JSON.stringify(host.slice(h, h + 4))}`);
    assert.equal(map.toText(h), t, `round trip of text ${t}`);
    assert.ok(map.toHostEnd(t + 1) > h, `the end of unit ${t} is after its start`);
  }
  assert.equal(map.toText(map.toHost(text.length)), text.length, "the end of the text");
  for (let h = r.literal.content.start; h < r.literal.content.end; h++) {
    const t = map.toText(h);
    if (t === undefined) assert.match(host[h]!, /[\s"'`]/, `host ${h} ${JSON.stringify(host[h])} maps to no text`);
    else if (map.toHost(t) > h)
      // what maps to no unit of its own (a line continuation, stripped fence indentation, the quotes between
      // adjacent literals) maps to the unit after it
      assert.match(host.slice(h, map.toHost(t)), /^(?:\\?\r?\n|[\s"']+)$/, `host ${h} -> text ${t} -> host ${map.toHost(t)}`);
    else assert.ok(t === text.length || map.toHostEnd(t + 1) > h, `host ${h} -> text ${t} -> host ${map.toHost(t)}`);
  }
}

describe("embedded: offset maps round trip over every character", () => {
  for (const f of CLEAN)
    it(f.name, () => {
      const scan = findRegions(f.text, f.language);
      assert.ok(scan.regions.length > 0);
      for (const r of scan.regions) checkMap(f.text, r);
    });

  it("escapes: `\\x41` is one text unit over four host characters, a line continuation none", () => {
    const host = 'parser.parse_graph("a (float \\x41) => (float y) \\\n{ y = Relu(\\x41) }")';
    const [r] = findRegions(host, "python").regions;
    assert.ok(r);
    assert.equal(r.text, "a (float A) => (float y) { y = Relu(A) }");
    const a = r.text.indexOf("A");
    const x41 = host.indexOf("\\x41");
    assert.equal(r.map.toHost(a), x41);
    assert.equal(r.map.toHostEnd(a + 1), x41 + 4);
    for (let k = 0; k < 4; k++) assert.equal(r.map.toText(x41 + k), a);
    const brace = r.text.indexOf("{");
    assert.equal(host[r.map.toHost(brace)], "{");
    assert.equal(r.map.toText(host.indexOf("\\\n")), brace - 1 + 1, "the continuation maps to the unit after it");
  });
});
