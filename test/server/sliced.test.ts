// Whole-document work in slices (server/src/slices.ts): the scheduler lets other work in between
// slices, stops when the text changes and waits for position requests; and the results the
// server sends when it pauses at every step (ONNXTXT_LS_SLICE_MS=0) equal those of the unsliced
// core functions, on a 50k-node document and a real network, on open and after edits (carried
// across an edit in one statement, or recomputed after one that breaks the syntax).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { largeDocument } from "../../bench/lsp-document.js";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { foldingRanges } from "../../core/src/ide/folding.js";
import { hover } from "../../core/src/ide/hover.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { semanticTokens } from "../../core/src/ide/semantic-tokens.js";
import { decodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { encodeSemanticTokens, toRange } from "../../server/src/convert.js";
import { outlineSymbols } from "../../server/src/outline-symbols.js";
import { DocumentFeatures } from "../../server/src/document-features.js";
import { runSliced, setSliceMs, Superseded } from "../../server/src/slices.js";
import { Workspace } from "../../server/src/workspace.js";
import { LIGHT } from "../helpers/paths.js";
import { LspClient } from "./lsp-client.js";

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Steps that count to `n`, noting each step in `log` under `name`. */
function* counting(name: string, n: number, log: string[]): Generator<void, number, void> {
  for (let i = 0; i < n; i++) {
    log.push(name);
    yield;
  }
  return n;
}

describe("server: whole-document work in slices", () => {
  afterEach(() => setSliceMs(6));

  it("runs two computations in turns, with other callbacks in between, to their results", async () => {
    setSliceMs(0);
    const log: string[] = [];
    const a = runSliced(counting("a", 5, log), { stale: () => false });
    const b = runSliced(counting("b", 5, log), { stale: () => false });
    setImmediate(() => log.push("other"));
    assert.deepEqual(await Promise.all([a, b]), [5, 5]);
    // Each pauses after a step: neither runs to its end before the other has started.
    assert.ok(log.indexOf("b") < log.lastIndexOf("a"), log.join(" "));
    assert.ok(log.indexOf("other") < log.lastIndexOf("a"), log.join(" "));
  });

  it("stops with Superseded at the next pause once its text is stale", async () => {
    setSliceMs(0);
    const log: string[] = [];
    let stale = false;
    const work = runSliced(counting("a", 100, log), { stale: () => stale });
    await turn();
    stale = true;
    await assert.rejects(work, Superseded);
    assert.ok(log.length < 100, `${log.length} steps ran`);
  });

  it("waits while position requests are being answered", async () => {
    setSliceMs(0);
    const log: string[] = [];
    let holding = true;
    const work = runSliced(counting("a", 3, log), { stale: () => false, hold: () => holding });
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(log.length, 1, "only the first step, before the first pause");
    holding = false;
    assert.equal(await work, 3);
  });

  it("takes a turn more after a message is read, so that the connection hands it over before the next slice", async () => {
    setSliceMs(0);
    const log: string[] = [];
    let arrived = 0;
    const work = runSliced(counting("a", 4, log), { stale: () => false, arrivals: () => arrived });
    // As the connection does it: the reader counts the message, which is handed over a turn later.
    setImmediate(() => {
      arrived++;
      setImmediate(() => log.push("handed over"));
    });
    assert.equal(await work, 4);
    assert.deepEqual(log, ["a", "a", "handed over", "a", "a"]);
  });

  it("lets position requests go first before a token response goes out, even one already computed", async () => {
    const uri = "file:///tmp/onnxtxt-test/gaps.onnxtxt";
    const workspace = new Workspace(
      () => undefined,
      (_, e) => assert.fail(String(e)),
    );
    workspace.open(uri, "onnxtxt", 1, largeDocument(2000));
    const a = (await workspace.fullAnalysis(uri))!;
    let holding = false;
    const features = new DocumentFeatures(workspace, { hold: () => holding });
    const computed = await features.full(uri, a, 1);
    // Megabytes of JSON on a big document, written in one block: a hover read meanwhile goes first.
    holding = true;
    let sent = false;
    const again = features.full(uri, a, 1).then((r) => {
      sent = true;
      return r;
    });
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(sent, false, "the response waits while a position request is answered");
    holding = false;
    assert.deepEqual(await again, computed);
    workspace.close(uri);
  });
});

interface Hover {
  contents: { value: string };
}

describe("language server: sliced results equal the unsliced ones", function () {
  this.timeout(300_000);
  let client: LspClient;
  before(async () => {
    // A pause at every step: as many interleavings as there can be.
    process.env.ONNXTXT_LS_SLICE_MS = "0";
    try {
      client = new LspClient();
    } finally {
      delete process.env.ONNXTXT_LS_SLICE_MS;
    }
    await client.initialize({}, { maxOutlineItems: 1_000_000 });
  });
  after(() => client.shutdown());

  /**
   * What the server sends, asked all at once with hovers in the same tick, and what the core
   * functions give for the text. After an edit a hover may be answered from the last complete
   * analysis (its types, before the new text's inference): then it must only be answered.
   */
  async function compare(uri: string, text: string, hovers: number[], exactHovers: boolean): Promise<void> {
    const doc = { textDocument: { uri } };
    const a = analyze(text);
    const position = (offset: number) => a.lines.position(offset);
    const [tokens, symbols, folds, ...hovered] = await Promise.all([
      client.request<{ data: number[] }>("textDocument/semanticTokens/full", doc),
      client.request("textDocument/documentSymbol", doc),
      client.request<{ startLine: number; endLine: number; kind: string }[]>("textDocument/foldingRange", doc),
      ...hovers.map((offset) => client.request<Hover | null>("textDocument/hover", { ...doc, position: position(offset) })),
    ]);
    assert.deepEqual(tokens.data, Array.from(encodeSemanticTokens(a.lines, semanticTokens(a), text)), "semantic tokens");
    assert.deepEqual(symbols, JSON.parse(JSON.stringify(outlineSymbols(a.lines, text, documentOutline(a)))), "document symbols");
    assert.deepEqual(folds, expectedFolds(a), "folding ranges");
    hovers.forEach((offset, i) => {
      const expected = hover(a, offset)?.markdown;
      if (exactHovers) assert.equal(hovered[i]?.contents.value, expected, `hover at ${offset}`);
      else assert.equal(typeof hovered[i]?.contents.value, typeof expected, `hover at ${offset}`);
    });
  }

  /** The folds as the handler converts them. */
  function expectedFolds(a: Analysis): { startLine: number; endLine: number; kind: string }[] {
    return foldingRanges(a).map((f) => {
      const r = toRange(a.lines, f.span);
      return { startLine: r.start.line, endLine: f.kind === "comment" ? r.end.line : Math.max(r.start.line, r.end.line - 1), kind: f.kind };
    });
  }

  let docs = 0;
  async function session(text: string, edits: [string, string][]): Promise<void> {
    const uri = `file:///tmp/onnxtxt-test/sliced${++docs}.onnxtxt`;
    let version = 1;
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version, text } });
    const names = (t: string): number[] => [0.3, 0.5, 0.8].map((f) => t.indexOf(" = ", Math.floor(t.length * f)) - 2);
    await compare(uri, text, names(text), true);
    for (const [find, replace] of edits) {
      const at = text.indexOf(find, Math.floor(text.length / 2));
      assert.ok(at >= 0, find);
      const start = position(text, at);
      const end = position(text, at + find.length);
      text = text.slice(0, at) + replace + text.slice(at + find.length);
      client.notify("textDocument/didChange", { textDocument: { uri, version: ++version }, contentChanges: [{ range: { start, end }, text: replace }] });
      await compare(uri, text, names(text), false);
    }
    client.notify("textDocument/didClose", { textDocument: { uri } });
  }

  it("on a 50k-node document", async () => {
    await session(largeDocument(50_000), [
      ["Relu (", "Relu ("], // nothing changes: the same results again
      [" = Mul (", " = Mul (\n    "], // a line more inside one statement: carried
      [" = Add (", " = Add "], // a syntax error: recomputed
      [" = Add v", " = Add (v"],
    ]);
  });

  it("on a real network (ResNet-50, printed)", async () => {
    const text = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"))));
    await session(text, [
      [" = Relu (", " = Relu (\n    "],
      [" = Conv <", " = Conv "],
    ]);
  });
});

function position(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}
