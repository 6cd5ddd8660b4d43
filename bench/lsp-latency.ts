// Language-server latency on a large document, measured as an editor sees it: the server
// runs as a child process over stdio. Targets (on 2 cores): open -> first diagnostics <= 2 s,
// hover <= 100 ms, a one-character edit -> fresh diagnostics <= 500 ms. "Fresh" is the first
// publication for the new version: the edited statement's syntax check plus the previous full
// analysis's semantic diagnostics carried across the edit. The whole-text parse diagnostics
// and the complete semantic set follow; both are timed too. "statement edit -> complete diags"
// is the goal of issue 7 for the common edit: a one-character edit inside a node statement of
// a clean text (misspelled op, renamed input, restored input) until the complete diagnostics.
// Usage: node dist/bench/lsp-latency.js [--nodes 50000] [--repeat 5]
import { LspClient } from "../test/server/lsp-client.js";
import { largeDocument } from "./lsp-document.js";
import { median, numberArg } from "./stats.js";

const TARGETS = { open: 2000, hover: 100, edit: 500 };

interface Published {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

async function main(): Promise<void> {
  const nodes = numberArg("nodes", 50000);
  const repeat = numberArg("repeat", 5);
  const text = largeDocument(nodes);
  const lines = text.split("\n");
  const client = new LspClient();
  await client.initialize();
  const opens: number[] = [];
  const fullOpens: number[] = [];
  const hovers: number[] = [];
  const edits: number[] = [];
  const parseEdits: number[] = [];
  const fullEdits: number[] = [];
  const statementEdits: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const uri = `file:///bench/big${r}.onnxtxt`;
    let t = performance.now();
    const openTimes: number[] = [];
    // A valid document gets two publications: syntax first, then the full analysis.
    const full = client.waitFor(
      "textDocument/publishDiagnostics",
      (p) => {
        if ((p as Published).uri !== uri) return false;
        openTimes.push(performance.now() - t);
        return openTimes.length === 2;
      },
      120000,
    );
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
    await full;
    opens.push(openTimes[0]!);
    fullOpens.push(openTimes[1]!);
    for (let h = 0; h < 10; h++) {
      const line = 4 + Math.floor(((h + 1) * (nodes - 2)) / 11);
      t = performance.now();
      const res = await client.request<{ contents: { value: string } } | null>("textDocument/hover", {
        textDocument: { uri },
        position: { line, character: 3 },
      });
      hovers.push(performance.now() - t);
      if (!res || !res.contents.value.includes("float[N, 16]")) throw new Error(`hover on line ${line} gave ${JSON.stringify(res)}`);
    }
    // One-character edits in the middle of the graph, each awaited: break the syntax (delete
    // the `(`), restore it, then misspell the op (`Add` -> `Adx`, an unknown-op error).
    const line = lines.findIndex((l, i) => i >= lines.length / 2 && l.includes(" = Add ("));
    const paren = lines[line]!.indexOf(" = Add (") + 7;
    const op = paren - 2;
    // Then, on another line, rename an input (`vN` -> `wN`: an undefined name that cuts the
    // chain of types) and restore it: edits inside one statement, analysed incrementally.
    const renameLine = lines.findIndex((l, i) => i >= (lines.length * 3) / 5 && l.includes(" = Add (v"));
    const rename = lines[renameLine]!.indexOf("(v") + 1;
    const cases: {
      version: number;
      line?: number;
      at: number;
      len: number;
      text: string;
      publications: number;
      parseAt: number;
      expectError: boolean;
      inStatement?: boolean;
      expectText?: string;
    }[] = [
      // Publications: the edited statement's check (when the text before parsed cleanly),
      // then the whole parse, then (for valid text) the full analysis.
      // `parseAt` is the publication that carries the whole-text parse.
      { version: 2, at: paren, len: 1, text: "", publications: 2, parseAt: 1, expectError: true },
      { version: 3, at: paren, len: 0, text: "(", publications: 2, parseAt: 0, expectError: false },
      { version: 4, at: op, len: 1, text: "x", publications: 3, parseAt: 1, expectError: true, inStatement: true },
      {
        version: 5,
        line: renameLine,
        at: rename,
        len: 1,
        text: "w",
        publications: 3,
        parseAt: 1,
        expectError: true,
        inStatement: true,
        expectText: "is not defined",
      },
      { version: 6, line: renameLine, at: rename, len: 1, text: "v", publications: 3, parseAt: 1, expectError: true, inStatement: true },
    ];
    for (const c of cases) {
      const seen: number[] = [];
      let last: Published | undefined;
      t = performance.now();
      const done = client.waitFor(
        "textDocument/publishDiagnostics",
        (p) => {
          const d = p as Published;
          if (d.uri !== uri || d.version !== c.version) return false;
          seen.push(performance.now() - t);
          last = d;
          return seen.length === c.publications;
        },
        120000,
      );
      client.notify("textDocument/didChange", {
        textDocument: { uri, version: c.version },
        contentChanges: [{ range: { start: { line: c.line ?? line, character: c.at }, end: { line: c.line ?? line, character: c.at + c.len } }, text: c.text }],
      });
      await done;
      edits.push(seen[0]!);
      parseEdits.push(seen[c.parseAt]!);
      fullEdits.push(seen[seen.length - 1]!);
      if (c.inStatement) statementEdits.push(seen[seen.length - 1]!);
      if (c.expectText && !JSON.stringify(last!.diagnostics).includes(c.expectText))
        throw new Error(`version ${c.version}: no '${c.expectText}' in ${JSON.stringify(last!.diagnostics).slice(0, 300)}`);
      if (c.expectError !== last!.diagnostics.length > 0)
        throw new Error(`version ${c.version}: unexpected diagnostics ${JSON.stringify(last!.diagnostics).slice(0, 200)}`);
    }
    client.notify("textDocument/didClose", { textDocument: { uri } });
  }
  await client.shutdown();
  const row = (name: string, xs: number[], target: number) =>
    `${name.padEnd(32)} median ${median(xs).toFixed(0).padStart(6)} ms   max ${Math.max(...xs)
      .toFixed(0)
      .padStart(6)} ms   target ${target} ms   ${median(xs) <= target ? "ok" : "SLOW"}`;
  console.log(`language server latency, ${nodes} nodes (${(text.length / 1e6).toFixed(1)} MB), ${repeat} rounds`);
  console.log(row("open -> first diagnostics", opens, TARGETS.open));
  console.log(row("open -> full semantic diags", fullOpens, TARGETS.open));
  console.log(row("hover", hovers, TARGETS.hover));
  console.log(row("edit -> fresh diagnostics", edits, TARGETS.edit));
  console.log(row("edit -> whole-text parse diags", parseEdits, TARGETS.edit));
  console.log(row("edit -> full semantic diags", fullEdits, TARGETS.open));
  console.log(row("statement edit -> complete diags", statementEdits, TARGETS.edit));
}

await main();
