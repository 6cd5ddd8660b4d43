// The language server under 10k random edits: incremental changes with out-of-range and
// reversed ranges, positions inside surrogate pairs, requests at random (and invalid)
// positions in between. It must stay alive, never fail a request internally, and end up
// answering exactly as it does for a fresh document with the same text.
import * as assert from "node:assert/strict";
import { LineIndex } from "../../grammar/src/line-index.js";
import { LspClient, RpcError } from "../server/lsp-client.js";
import { close, open, useServer } from "../server/lsp-helpers.js";
import { textCorpus } from "./harness/corpus.js";
import { mutateText } from "./harness/mutate-text.js";
import { Rng } from "./harness/rng.js";

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}

const EDITS = 10_000;
/** A burst of requests after every this many edits. */
const REQUEST_EVERY = 100;
const INTERNAL_ERROR = -32603;

/** Applies an LSP incremental change the way the protocol defines it (clamped, reversed ranges swapped). */
function applyChange(text: string, range: Range | undefined, insert: string): string {
  if (!range) return insert;
  const lines = new LineIndex(text);
  let a = lines.offset(range.start);
  let b = lines.offset(range.end);
  const reversed = range.start.line > range.end.line || (range.start.line === range.end.line && range.start.character > range.end.character);
  if (reversed) [a, b] = [b, a];
  return text.slice(0, a) + insert + text.slice(Math.max(a, b));
}

function randomPosition(rng: Rng, text: string): Position {
  const lines = text.split(/\r\n|\r|\n/);
  if (rng.chance(0.05))
    return rng.pick([
      { line: 1e9, character: 0 },
      { line: 0, character: 1e9 },
      { line: lines.length, character: 3 },
      { line: 2 ** 31 - 1, character: 2 ** 31 - 1 },
    ]);
  const line = rng.int(lines.length);
  return { line, character: rng.int(lines[line]!.length + (rng.chance(0.1) ? 20 : 1)) };
}

const INSERTS = [
  "",
  "x",
  " ",
  "\n",
  "\r\n",
  ")",
  "(",
  "{",
  "}",
  "<",
  ">",
  ",",
  "=",
  '"',
  "#",
  "Add",
  "float[2]",
  "😀",
  "\ud83d",
  "\ude00",
  "y = Relu(x)\n",
  "<axis = 1>",
  "=> (",
];

function randomEdit(rng: Rng, text: string, corpus: readonly string[]): { range?: Range; text: string } {
  if (rng.chance(0.002)) return { text: mutateText(rng.pick(corpus).slice(0, 3000), rng, corpus) };
  const start = randomPosition(rng, text);
  const roll = rng.next();
  if (roll < 0.5) return { range: { start, end: start }, text: rng.pick(INSERTS) };
  if (roll < 0.85) {
    // A few characters on one line, sometimes written backwards (end before start).
    const end = { line: start.line, character: start.character + rng.int(6) };
    return { range: rng.chance(0.1) ? { start: end, end: start } : { start, end }, text: rng.chance(0.6) ? "" : rng.pick(INSERTS) };
  }
  // A span across lines replaced by a piece of another file, which keeps the size steady.
  const other = rng.pick(corpus);
  const from = rng.int(other.length);
  return { range: { start, end: randomPosition(rng, text) }, text: other.slice(from, from + rng.int(400)) };
}

describe("language server soak: 10k random edits", function () {
  let client: LspClient;
  useServer((c) => (client = c), { cleanExit: true });

  it("stays alive, never fails internally, and agrees with a fresh document afterwards", async () => {
    const corpus = textCorpus(60).filter((t) => t.length < 4000);
    const rng = new Rng(2024);
    let text = corpus.find((t) => t.includes("graph") || t.length > 600) ?? corpus[0]!;
    const { uri } = await open(client, text);
    const internal: string[] = [];
    let answered = 0;
    /** A malformed request may fail any way it likes, as long as it is answered. */
    const ask = async (method: string, params: unknown, malformed = false): Promise<void> => {
      try {
        await client.request(method, params);
        answered++;
      } catch (e) {
        assert.ok(e instanceof RpcError, String(e));
        if (e.code === INTERNAL_ERROR && !malformed) internal.push(`${method} ${JSON.stringify(params).slice(0, 200)}: ${e.message}`);
        else answered++;
      }
    };
    for (let version = 2; version <= EDITS + 1; version++) {
      const edit = randomEdit(rng, text, corpus);
      text = applyChange(text, edit.range, edit.text);
      client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [edit] });
      if (version % REQUEST_EVERY !== 0) continue;
      const doc = { textDocument: { uri } };
      const position = randomPosition(rng, text);
      const range = { start: randomPosition(rng, text), end: randomPosition(rng, text) };
      await Promise.all([
        ask("textDocument/hover", { ...doc, position }),
        ask("textDocument/completion", { ...doc, position }),
        ask("textDocument/definition", { ...doc, position }),
        ask("textDocument/references", { ...doc, position, context: { includeDeclaration: true } }),
        ask("textDocument/documentHighlight", { ...doc, position }),
        ask("textDocument/prepareRename", { ...doc, position }),
        ask("textDocument/rename", { ...doc, position, newName: "renamed" }),
        ask("textDocument/signatureHelp", { ...doc, position }),
        ask("textDocument/documentSymbol", doc),
        ask("textDocument/semanticTokens/full", doc),
        ask("textDocument/foldingRange", doc),
        ask("textDocument/formatting", { ...doc, options: { tabSize: 2, insertSpaces: true } }),
        ask("textDocument/rangeFormatting", { ...doc, range, options: { tabSize: 2, insertSpaces: true } }),
        ask("textDocument/inlayHint", { ...doc, range }),
        ask("textDocument/codeAction", { ...doc, range, context: { diagnostics: [] } }),
        ask("textDocument/codeLens", doc),
        ask("workspace/symbol", { query: "" }),
        // Malformed requests: an error answer, not a crash.
        ask("textDocument/hover", { ...doc }, true),
        ask("textDocument/hover", { textDocument: {}, position }, true),
        ask("textDocument/definition", { ...doc, position: { line: "x", character: null } }, true),
      ]);
    }
    assert.deepEqual(internal, []);
    assert.ok(answered >= (EDITS / REQUEST_EVERY) * 17, `only ${answered} requests answered`);

    // The edited document and a fresh one with the shadow text must look the same.
    const finalDiagnostics = client.waitFor("textDocument/publishDiagnostics", (p) => {
      const d = p as { uri: string; version?: number };
      return d.uri === uri && d.version === EDITS + 1;
    });
    const fresh = await open(client, text);
    const edited = (await finalDiagnostics) as { diagnostics: unknown[] };
    assert.ok(text.length > 100 && fresh.diagnostics.length > 0, "the edits left something to compare");
    assert.deepEqual(edited.diagnostics, fresh.diagnostics);
    for (const method of ["textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/foldingRange"]) {
      // Semantic tokens carry a result id per answer (for full/delta): the data must agree.
      const strip = (r: unknown) => (r && typeof r === "object" && "resultId" in r ? { ...r, resultId: undefined } : r);
      const a = strip(await client.request(method, { textDocument: { uri } }));
      const b = strip(await client.request(method, { textDocument: { uri: fresh.uri } }));
      assert.deepEqual(a, b, method);
    }
    const options = { tabSize: 2, insertSpaces: true };
    const fa = await client.request("textDocument/formatting", { textDocument: { uri }, options }).catch((e: RpcError) => e.message);
    const fb = await client.request("textDocument/formatting", { textDocument: { uri: fresh.uri }, options }).catch((e: RpcError) => e.message);
    assert.deepEqual(fa, fb);
    close(client, uri);
    close(client, fresh.uri);
  });
});
