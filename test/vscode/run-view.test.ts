// The run output view: tensor text -> tables with shape and type, truncation, failures.
import * as assert from "node:assert/strict";
import { widenLimit } from "../../client-vscode/src/run-cell.js";
import { escapeHtml, renderRunView, tensorTables, type RunViewModel } from "../../client-vscode/src/run-view.js";
import { parseSequenceText, parseTensorText } from "../../client-vscode/src/tensor-text.js";

const count = (html: string, re: RegExp): number => html.match(re)?.length ?? 0;

describe("run output view", () => {
  describe("tensor text", () => {
    it("reads element type, dims and values", () => {
      assert.deepEqual(parseTensorText("float[2,3] {1, 2, 3, 4, 5.5, -inf}"), { elemType: "float", dims: [2, 3], values: ["1", "2", "3", "4", "5.5", "-inf"] });
      assert.deepEqual(parseTensorText("int64 {7}"), { elemType: "int64", dims: [], values: ["7"] });
      assert.deepEqual(parseTensorText("float[0] {}"), { elemType: "float", dims: [0], values: [] });
      assert.deepEqual(parseTensorText('string[2] {"a, {b}", "c\\"d"}'), { elemType: "string", dims: [2], values: ['"a, {b}"', '"c\\"d"'] });
      assert.deepEqual(parseTensorText("float[2] y = {1, 2}"), { elemType: "float", dims: [2], values: ["1", "2"] });
    });

    it("pairs complex parts and splits sequences into items", () => {
      assert.deepEqual(parseTensorText("complex64[2] {1, -2, 0.5, 3}")?.values, ["1-2i", "0.5+3i"]);
      assert.deepEqual(parseSequenceText('seq [float[2] {1, 2}, string {"a, ]"}]'), ["float[2] {1, 2}", 'string {"a, ]"}']);
      assert.deepEqual(parseSequenceText("seq []"), []);
      assert.equal(parseSequenceText("optional (float {1})"), undefined);
    });

    it("leaves what it cannot tabulate to the text view", () => {
      for (const text of [
        "float[N] {1, 2}",
        "float[] {1}",
        "float[3] {1, 2}",
        "seq(float[2]) [{1, 2}]",
        "float[2] {1, , 2}",
        "float[2] {1, 2} junk",
        "nonsense",
      ]) {
        assert.equal(parseTensorText(text), undefined, text);
      }
    });
  });

  describe("tables", () => {
    it("shows a matrix as rows and columns with index headers", () => {
      const t = parseTensorText("float[2,3] {1, 2, 3, 4, 5, 6}")!;
      const { html, shown } = tensorTables(t, 100);
      assert.equal(shown, 6);
      assert.equal(count(html, /<td>/g), 6);
      assert.equal(count(html, /<tr>/g), 3);
      assert.ok(html.indexOf("<td>4</td>") > html.indexOf("<th>1</th>"), "row 1 holds 4, 5, 6");
    });

    it("wraps one long row ([1, 1000] logits) into indexed cells instead of a sideways scroll", () => {
      const t = parseTensorText(`float[1,1000] {${Array.from({ length: 1000 }, (_, i) => i / 4).join(", ")}}`)!;
      const { html, shown } = tensorTables(t, 100);
      assert.equal(shown, 100);
      assert.equal(count(html, /<table class="wrapped">/g), 1);
      assert.ok(html.includes('<td><span class="index">99</span> 24.75</td>'), "each cell names its index");
      assert.ok(html.includes('<td class="more">…</td>'), "the truncation shows");
      assert.ok(renderRunView({ title: "t", outputs: [], limits: [] }, "n", "c").includes("table.wrapped tr { display: flex; flex-wrap: wrap; }"));
    });

    it("shows a rank-3 tensor as captioned slices", () => {
      const t = parseTensorText(`float[2,2,2] {${[...Array(8).keys()].join(", ")}}`)!;
      const { html, shown } = tensorTables(t, 100);
      assert.equal(shown, 8);
      assert.equal(count(html, /<table>/g), 2);
      assert.ok(html.includes("<caption>[0, :, :]</caption>") && html.includes("<caption>[1, :, :]</caption>"));
    });

    it("truncates at the limit, rows and columns alike", () => {
      const wide = parseTensorText(`float[1,50] {${[...Array(50).keys()].join(", ")}}`)!;
      const w = tensorTables(wide, 10);
      assert.equal(w.shown, 10);
      assert.equal(count(w.html, /<td>/g), 10);
      assert.ok(w.html.includes('<td class="more">…</td>'));
      const tall = parseTensorText(`float[40,2] {${[...Array(80).keys()].join(", ")}}`)!;
      assert.equal(tensorTables(tall, 10).shown, 10);
    });
  });

  describe("page", () => {
    const model: RunViewModel = {
      title: "main (m.onnxtxt)",
      outputs: [
        { name: "y", type: "float[3,40]", text: `float[3,40] {${[...Array(120).keys()].join(", ")}}` },
        { name: "s", type: "seq(float[2])", text: "<b>not a tensor</b>" },
      ],
      elapsedMs: 1.25,
      limits: [50, 50],
    };

    it("shows each output with name, type, shape and a way to see more", () => {
      const html = renderRunView(model, "NONCE", "vscode-resource:");
      assert.ok(html.includes('<span class="name">y</span> <span class="type">float[3,40]</span>'));
      assert.ok(html.includes("shape [3, 40], 120 elements of float"));
      assert.ok(html.includes("showing 40 of 120 elements"));
      assert.ok(html.includes('data-action="more" data-output="0"') && html.includes('data-action="all" data-output="0"'));
      assert.ok(html.includes("2 outputs in 1.3 ms"));
      assert.ok(html.includes("&#60;b&#62;not a tensor&#60;/b&#62;"), "text output is escaped");
      assert.ok(!html.includes("<b>not"), "no raw HTML from the server");
      assert.ok(html.includes("script-src 'nonce-NONCE'") && html.includes('<script nonce="NONCE">'));
    });

    it("shows where the inputs came from, and sequences as one table per item", () => {
      const html = renderRunView(
        {
          title: "t",
          outputs: [{ name: "s", type: "seq(float[3])", text: "seq [float[3] {1, 2, 3}, float[3] {4, 5, 6}]" }],
          inputSources: { x: "default", "<y>": "test_data_set_0" },
          limits: [4],
        },
        "N",
        "c",
      );
      assert.ok(html.includes("Inputs: <code>x</code> generated, <code>&#60;y&#62;</code> from test_data_set_0"));
      assert.ok(html.includes("sequence of 2 tensors") && html.includes("<h3>item 1</h3>"));
      assert.equal(count(html, /<td>/g), 4, "the limit spans the items");
      assert.ok(html.includes("showing 4 of 6 elements"));
    });

    it("says when a run is under way", () => {
      const html = renderRunView({ title: "t", outputs: [], limits: [], running: true }, "N", "c");
      assert.ok(html.includes("Running…") && !html.includes("0 outputs"));
    });

    it("shows everything after Show all", () => {
      const all = widenLimit(model, 0, true);
      const html = renderRunView(all, "N", "c");
      assert.ok(!html.includes("showing"));
      assert.equal(count(html, /<td>/g), 120);
      assert.equal(widenLimit(model, 0, false).limits[0], 500);
      assert.equal(widenLimit(model, 5, false), model, "an unknown output changes nothing");
    });

    it("shows a failure with the node and line", () => {
      const html = renderRunView(
        {
          title: "t",
          outputs: [],
          limits: [],
          failure: {
            message: "Gemm: shapes [2,3] and [4,5] do not agree",
            node: "fc1",
            range: { start: { line: 4, character: 2 }, end: { line: 4, character: 30 } },
          },
        },
        "N",
        "c",
      );
      assert.ok(html.includes("Run failed at node <code>fc1</code> (line 5)"));
      assert.ok(html.includes("Gemm: shapes [2,3] and [4,5] do not agree"));
      assert.ok(html.includes('data-action="reveal"'));
      assert.equal(escapeHtml(`<&>"'`), "&#60;&#38;&#62;&#34;&#39;");
    });
  });
});
