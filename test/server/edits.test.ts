// A burst of keystrokes with requests in between: the server stays up, answers every request,
// and its last diagnostics equal those of the final text opened afresh.
import * as assert from "node:assert/strict";
import { positionOf } from "../helpers/markers.js";
import { LspClient, RpcError } from "./lsp-client.js";
import { close, open, useServer, type LspDiagnostic } from "./lsp-helpers.js";

const TEXT = `<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x) => (float[N, 4] y) {
  a = Relu (x)
  b = Add (a, x)
  y = Mul (b, a)
}
`;

/** A deterministic pseudo-random sequence, so a failure repeats. */
function* randoms(seed: number): Generator<number> {
  let s = seed;
  for (;;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    yield s / 2147483648;
  }
}

/**
 * The diagnostics of the full analysis of a version. An inlay-hint request waits for that
 * analysis, and its answer comes after the analysis's publication.
 */
async function fullDiagnostics(client: LspClient, uri: string, version: number): Promise<LspDiagnostic[]> {
  await client.request("textDocument/inlayHint", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } } });
  const mine = client.notifications.filter((n) => {
    const p = n.params as { uri: string; version?: number };
    return p.uri === uri && p.version === version;
  });
  return (mine.at(-1)!.params as { diagnostics: LspDiagnostic[] }).diagnostics;
}

describe("language server: edits under load", function () {
  let client: LspClient;
  useServer((c) => (client = c));
  after(() => {
    const errors = client.notifications.filter((n) => n.method === "window/logMessage" && (n.params as { type: number }).type === 1);
    assert.deepEqual(
      errors.map((n) => (n.params as { message: string }).message),
      [],
      "the server logged errors",
    );
  });

  it("answers a hover at once after an edit, from the new text", async () => {
    const { uri } = await open(client, TEXT);
    const next = TEXT.replaceAll("a = Relu", "alpha = Relu").replace("Add (a, x)", "Add (alpha, x)");
    client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: next }] });
    const h = await client.request<{ contents: { value: string } }>("textDocument/hover", {
      textDocument: { uri },
      position: positionOf(next, next.indexOf("alpha, x")),
    });
    assert.ok(h.contents.value.includes("float[N, 4] alpha"), h.contents.value);
    close(client, uri);
  });

  for (const seed of [7, 11, 23, 42, 99])
    it(`survives random keystrokes (seed ${seed}) and ends with the diagnostics of the final text`, async () => {
      const { uri } = await open(client, TEXT);
      let text = TEXT;
      const rnd = randoms(seed);
      const pick = (): number => rnd.next().value as number;
      const requests: Promise<unknown>[] = [];
      const chars = ["(", ")", "<", ">", ",", "=", "x", "1", " ", "\n", '"', "#", "a"];
      for (let version = 2; version < 60; version++) {
        const at = Math.floor(pick() * text.length);
        const del = pick() < 0.4 ? 1 : 0;
        const ins = del && pick() < 0.5 ? "" : chars[Math.floor(pick() * chars.length)]!;
        const range = { start: positionOf(text, at), end: positionOf(text, at + del) };
        text = text.slice(0, at) + ins + text.slice(at + del);
        client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ range, text: ins }] });
        const position = positionOf(text, Math.floor(pick() * text.length));
        const method = ["textDocument/hover", "textDocument/completion", "textDocument/semanticTokens/full", "textDocument/documentSymbol"][version % 4]!;
        const params = method.endsWith("full") || method.endsWith("Symbol") ? { textDocument: { uri } } : { textDocument: { uri }, position };
        // A request may fail (e.g. formatting broken text) but must be answered.
        requests.push(client.request(method, params).catch((e: unknown) => assert.ok(e instanceof RpcError, String(e))));
        if (version % 10 === 0) await new Promise((r) => setTimeout(r, 30));
      }
      await Promise.all(requests);
      const final = await fullDiagnostics(client, uri, 59);
      const fresh = await open(client, text);
      const freshFull = await fullDiagnostics(client, fresh.uri, 1);
      const summary = (ds: LspDiagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`);
      assert.deepEqual(summary(final), summary(freshFull));
      close(client, uri);
      close(client, fresh.uri);
    });

  it("gives one-statement edits (analysed incrementally) the diagnostics of the text opened afresh", async () => {
    const lines = ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[N, 4] x) => (float[N, 4] y)", "<float[4] w = {1, 2, 3, 4}>", "{"];
    for (let i = 0; i < 40; i++) lines.push(`  v${i} = ${["Add", "Mul", "Relu"][i % 3]} (${i === 0 ? "x" : `v${i - 1}`}${i % 3 === 2 ? "" : ", w"})`);
    lines.push("  y = Identity (v39)", "}", "");
    let text = lines.join("\n");
    const { uri } = await open(client, text);
    await fullDiagnostics(client, uri, 1);
    // Rename an input (undefined name), misspell an op, restore both, rename an output.
    const edits: [string, string][] = [
      ["(v20", "(w20"],
      ["v22 = Mul", "v22 = Mux"],
      ["(w20", "(v20"],
      ["= Mux", "= Mul"],
      ["v30 =", "v3x ="],
    ];
    let version = 1;
    for (const [from, to] of edits) {
      const at = text.indexOf(from);
      assert.ok(at >= 0, from);
      const diff = [...from].findIndex((c, i) => c !== to[i]);
      const range = { start: positionOf(text, at + diff), end: positionOf(text, at + diff + 1) };
      text = text.slice(0, at) + to + text.slice(at + from.length);
      client.notify("textDocument/didChange", { textDocument: { uri, version: ++version }, contentChanges: [{ range, text: to[diff]! }] });
      const got = await fullDiagnostics(client, uri, version);
      const fresh = await open(client, text);
      const expected = await fullDiagnostics(client, fresh.uri, 1);
      close(client, fresh.uri);
      const summary = (ds: LspDiagnostic[]) =>
        ds.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code} ${d.message}`);
      assert.deepEqual(summary(got), summary(expected), `after ${from} -> ${to}`);
      if (to !== "(v20" && to !== "= Mul") assert.ok(got.length > 0, `no diagnostics after ${from} -> ${to}`);
    }
    close(client, uri);
  });

  it("publishes an incremental analysis's checks before its inference: a typo's squiggle does not wait for the chain below", async () => {
    const lines = ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[N, 4] x) => (float[N, 4] y) {"];
    for (let i = 0; i < 40; i++) lines.push(`  v${i} = Relu (${i === 0 ? "x" : `v${i - 1}`})`);
    lines.push("  y = Identity (v39)", "}", "");
    const text = lines.join("\n");
    const { uri } = await open(client, text);
    await fullDiagnostics(client, uri, 1);
    const at = text.indexOf("v10 = Relu") + 9;
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: positionOf(text, at), end: positionOf(text, at + 1) }, text: "x" }],
    });
    const final = await fullDiagnostics(client, uri, 2);
    const published = client.notifications
      .map((n) => n.params as { uri: string; version?: number; diagnostics: LspDiagnostic[] })
      .filter((p) => p.uri === uri && p.version === 2)
      .map((p) => p.diagnostics.map((d) => d.code));
    // Right after the edit and after the parse: what was carried (nothing); then the checks,
    // then everything (every node below the typo lost its type: the whole chain was re-inferred).
    assert.deepEqual(published, [[], [], ["unknown-op"], ["unknown-op"]]);
    assert.deepEqual(
      final.map((d) => d.code),
      ["unknown-op"],
    );
    close(client, uri);
  });
});
