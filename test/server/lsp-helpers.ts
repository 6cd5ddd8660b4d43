// One helper per feature: open a marker fixture, ask the server, compare with expectations.
import * as assert from "node:assert/strict";
import { applyEdits, fixture, offsetOf, positionOf, type Fixture } from "../helpers/markers.js";
import { LspClient } from "./lsp-client.js";

/**
 * One language server for the enclosing suite: started and initialized before its tests
 * (`onStart` gets it and the initialize result), shut down after them; with `cleanExit`, the
 * server must also exit with code 0.
 */
export function useServer(onStart: (client: LspClient, init: { capabilities: Record<string, unknown> }) => void, options: { cleanExit?: boolean } = {}): void {
  let client: LspClient | undefined;
  before(async () => {
    client = new LspClient();
    onStart(client, await client.initialize());
  });
  after(async () => {
    await client?.shutdown();
    if (options.cleanExit) assert.equal(client?.exitCode, 0);
  });
}

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface TextEdit {
  range: Range;
  newText: string;
}
export interface LspDiagnostic {
  range: Range;
  severity?: number;
  code?: string;
  message: string;
}

let docCounter = 0;

/** Opens a document with the fixture's text and waits for its first diagnostics. */
export async function open(client: LspClient, marked: string): Promise<{ uri: string; fx: Fixture; diagnostics: LspDiagnostic[] }> {
  const fx = marked.includes("$0") ? fixture(marked) : { text: marked, markers: [], cursor: 0 };
  const uri = `file:///tmp/onnxtxt-test/doc${++docCounter}.onnxtxt`;
  const published = client.waitFor("textDocument/publishDiagnostics", (p) => (p as { uri: string }).uri === uri);
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: fx.text } });
  const diags = (await published) as { diagnostics: LspDiagnostic[] };
  return { uri, fx, diagnostics: diags.diagnostics };
}

export function close(client: LspClient, uri: string): void {
  client.notify("textDocument/didClose", { textDocument: { uri } });
}

function at(uri: string, fx: Fixture, i = 0) {
  return { textDocument: { uri }, position: positionOf(fx.text, fx.markers[i]!) };
}

function rangeText(text: string, r: Range): string {
  return text.slice(offsetOf(text, r.start), offsetOf(text, r.end));
}

export async function expectDiagnostics(client: LspClient, text: string, expected: { line: number; code?: string }[]): Promise<LspDiagnostic[]> {
  const { uri, diagnostics } = await open(client, text);
  close(client, uri);
  const errors = diagnostics.filter((d) => d.severity === 1);
  assert.deepEqual(
    errors.map((d) => ({ line: d.range.start.line + 1, ...(expected.some((e) => e.code) ? { code: d.code } : {}) })).slice(0, expected.length),
    expected,
    JSON.stringify(diagnostics),
  );
  if (expected.length === 0) assert.equal(errors.length, 0, JSON.stringify(diagnostics));
  return diagnostics;
}

export async function expectHover(client: LspClient, marked: string, fragments: string[]): Promise<string> {
  const { uri, fx } = await open(client, marked);
  const h = await client.request<{ contents: { value: string } } | null>("textDocument/hover", at(uri, fx));
  close(client, uri);
  assert.ok(h, "no hover");
  for (const f of fragments) assert.ok(h.contents.value.includes(f), `hover lacks ${JSON.stringify(f)}:\n${h.contents.value}`);
  return h.contents.value;
}

/** Three markers: the cursor (the first or the last one) and the pair around the definition. */
export async function expectDefinition(client: LspClient, marked: string, cursor: "first" | "last"): Promise<void> {
  const { uri, fx } = await open(client, marked);
  const [c, s, e] = cursor === "first" ? [0, 1, 2] : [2, 0, 1];
  const locs = await client.request<{ uri: string; range: Range }[]>("textDocument/definition", at(uri, fx, c));
  close(client, uri);
  assert.equal(locs.length, 1, JSON.stringify(locs));
  assert.equal(locs[0]!.uri, uri);
  assert.deepEqual([offsetOf(fx.text, locs[0]!.range.start), offsetOf(fx.text, locs[0]!.range.end)], [fx.markers[s], fx.markers[e]]);
}

/** Every occurrence as `line:text`, sorted. */
export async function expectReferences(client: LspClient, marked: string, expected: string[]): Promise<void> {
  const { uri, fx } = await open(client, marked);
  const locs = await client.request<{ range: Range }[]>("textDocument/references", { ...at(uri, fx), context: { includeDeclaration: true } });
  close(client, uri);
  assert.deepEqual(
    locs.map((l) => `${l.range.start.line + 1}:${rangeText(fx.text, l.range)}`),
    expected,
  );
}

export async function expectHighlights(client: LspClient, marked: string, expectedCount: number): Promise<void> {
  const { uri, fx } = await open(client, marked);
  const hs = await client.request<{ range: Range }[]>("textDocument/documentHighlight", at(uri, fx));
  close(client, uri);
  assert.equal(hs.length, expectedCount, JSON.stringify(hs));
}

/** Renames at the cursor and compares the whole resulting text. */
export async function expectRename(client: LspClient, marked: string, newName: string, expected: string): Promise<void> {
  const { uri, fx } = await open(client, marked);
  const prep = await client.request<{ range: Range; placeholder: string }>("textDocument/prepareRename", at(uri, fx));
  assert.ok(prep.placeholder);
  const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", { ...at(uri, fx), newName });
  close(client, uri);
  const edits = edit.changes[uri]!.map((e) => ({ start: offsetOf(fx.text, e.range.start), end: offsetOf(fx.text, e.range.end), newText: e.newText }));
  assert.equal(applyEdits(fx.text, edits), expected);
}

export async function expectRenameRefused(client: LspClient, marked: string): Promise<void> {
  const { uri, fx } = await open(client, marked);
  await assert.rejects(client.request("textDocument/prepareRename", at(uri, fx)));
  close(client, uri);
}

export async function expectCompletion(
  client: LspClient,
  marked: string,
  labels: string[],
  absent: string[] = [],
): Promise<{ label: string; textEdit: TextEdit }[]> {
  const { uri, fx } = await open(client, marked);
  const r = await client.request<{ items: { label: string; textEdit: TextEdit }[] }>("textDocument/completion", at(uri, fx));
  close(client, uri);
  const got = new Set(r.items.map((i) => i.label));
  for (const l of labels) assert.ok(got.has(l), `completion lacks ${l}; got ${[...got].slice(0, 30).join(", ")}`);
  for (const l of absent) assert.ok(!got.has(l), `completion should not offer ${l}`);
  return r.items;
}

export async function expectSignature(client: LspClient, marked: string, activeLabel: string): Promise<void> {
  const { uri, fx } = await open(client, marked);
  const r = await client.request<{ signatures: { label: string; parameters: { label: [number, number] }[] }[]; activeParameter: number } | null>(
    "textDocument/signatureHelp",
    at(uri, fx),
  );
  close(client, uri);
  assert.ok(r, "no signature help");
  const sig = r.signatures[0]!;
  const [s, e] = sig.parameters[r.activeParameter]!.label;
  assert.equal(sig.label.slice(s, e), activeLabel);
}

/** Formats the document and compares the result. */
export async function expectFormatting(client: LspClient, text: string, expected: string): Promise<void> {
  const { uri } = await open(client, text);
  const edits = await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
  close(client, uri);
  const applied = applyEdits(
    text,
    edits.map((e) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), newText: e.newText })),
  );
  assert.equal(applied, expected);
}

/** Applies the code action titled `title` offered for the fixture's range and compares. */
export async function expectCodeAction(client: LspClient, marked: string, title: string, expected: string): Promise<void> {
  const { uri, fx, diagnostics } = await open(client, marked);
  const range = { start: positionOf(fx.text, fx.markers[0]!), end: positionOf(fx.text, fx.markers[1] ?? fx.markers[0]!) };
  const actions = await client.request<{ title: string; edit: { changes: Record<string, TextEdit[]> } }[]>("textDocument/codeAction", {
    textDocument: { uri },
    range,
    context: { diagnostics },
  });
  close(client, uri);
  const action = actions.find((a) => a.title === title);
  assert.ok(action, `no action ${title}; got ${JSON.stringify(actions.map((a) => a.title))}`);
  const edits = action.edit.changes[uri]!.map((e) => ({ start: offsetOf(fx.text, e.range.start), end: offsetOf(fx.text, e.range.end), newText: e.newText }));
  assert.equal(applyEdits(fx.text, edits), expected);
}

/** Inlay hints as `line:label`. */
export async function expectInlayHints(client: LspClient, text: string, expected: string[]): Promise<void> {
  const { uri } = await open(client, text);
  const end = positionOf(text, text.length);
  const hints = await client.request<{ position: { line: number }; label: string }[]>("textDocument/inlayHint", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end },
  });
  close(client, uri);
  assert.deepEqual(
    hints.map((h) => `${h.position.line + 1}${h.label}`),
    expected,
  );
}

/** Decodes the semantic tokens and checks that each `text:type` is among them. */
export async function expectSemanticTokens(client: LspClient, text: string, expected: string[]): Promise<void> {
  const { uri } = await open(client, text);
  const r = await client.request<{ data: number[] }>("textDocument/semanticTokens/full", { textDocument: { uri } });
  close(client, uri);
  const legend = TOKEN_LEGEND;
  const lines = text.split("\n");
  const got: string[] = [];
  let line = 0;
  let ch = 0;
  for (let i = 0; i < r.data.length; i += 5) {
    const [dl, dc, len, type] = r.data.slice(i, i + 4) as [number, number, number, number];
    line += dl;
    ch = dl === 0 ? ch + dc : dc;
    got.push(`${lines[line]!.slice(ch, ch + len)}:${legend[type]}`);
  }
  for (const e of expected) assert.ok(got.includes(e), `missing ${e} in ${got.join(" ")}`);
}

/** The token types the server announces (checked against its capabilities in the tests). */
export const TOKEN_LEGEND = [
  "namespace",
  "type",
  "typeParameter",
  "parameter",
  "variable",
  "property",
  "function",
  "keyword",
  "comment",
  "string",
  "number",
  "label",
];

export async function expectWorkspaceSymbols(client: LspClient, texts: string[], query: string, expected: string[]): Promise<void> {
  const opened = await Promise.all(texts.map((t) => open(client, t)));
  const syms = await client.request<{ name: string; containerName?: string }[]>("workspace/symbol", { query });
  for (const o of opened) close(client, o.uri);
  assert.deepEqual(syms.map((s) => `${s.containerName ?? ""}/${s.name}`).sort(), [...expected].sort());
}

export async function expectCodeLenses(client: LspClient, text: string, expected: { line: number; graph: string }[]): Promise<void> {
  const { uri } = await open(client, text);
  const lenses = await client.request<{ range: Range; command: { command: string; arguments: { uri: string; graph: string }[] } }[]>("textDocument/codeLens", {
    textDocument: { uri },
  });
  close(client, uri);
  assert.deepEqual(
    lenses.map((l) => ({ line: l.range.start.line + 1, graph: l.command.arguments[0]!.graph })),
    expected,
  );
  for (const l of lenses) assert.equal(l.command.command, "onnxtxt.run");
}

export async function expectFolding(client: LspClient, text: string, expected: string[]): Promise<void> {
  const { uri } = await open(client, text);
  const folds = await client.request<{ startLine: number; endLine: number; kind?: string }[]>("textDocument/foldingRange", { textDocument: { uri } });
  close(client, uri);
  const got = folds.map((f) => `${f.kind}:${f.startLine + 1}-${f.endLine + 1}`);
  for (const e of expected) assert.ok(got.includes(e), `missing fold ${e} in ${got.join(" ")}`);
}
