// Language-server latency on a large document, measured as an editor sees it: the server
// runs as a child process over stdio. Targets (on 2 cores): open -> first diagnostics <= 2 s,
// hover <= 100 ms, a one-character edit -> fresh diagnostics <= 500 ms.
// Usage: node dist/bench/lsp-latency.js [--nodes 50000] [--repeat 5]
import { LspClient } from "../test/server/lsp-client.js";
import { largeDocument } from "./lsp-document.js";

const TARGETS = { open: 2000, hover: 100, edit: 500 };

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

interface Published {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

async function main(): Promise<void> {
  const nodes = arg("nodes", 50000);
  const repeat = arg("repeat", 5);
  const text = largeDocument(nodes);
  const lines = text.split("\n");
  const client = new LspClient();
  await client.initialize();
  const opens: number[] = [];
  const hovers: number[] = [];
  const edits: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const uri = `file:///bench/big${r}.onnxtxt`;
    let t = performance.now();
    const first = client.waitFor("textDocument/publishDiagnostics", (p) => (p as Published).uri === uri, 120000);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
    await first;
    opens.push(performance.now() - t);
    for (let h = 0; h < 10; h++) {
      const line = 4 + Math.floor(((h + 1) * (nodes - 2)) / 11);
      t = performance.now();
      const res = await client.request<{ contents: { value: string } } | null>("textDocument/hover", { textDocument: { uri }, position: { line, character: 3 } });
      hovers.push(performance.now() - t);
      if (!res || !res.contents.value.includes("float[N, 16]")) throw new Error(`hover on line ${line} gave ${JSON.stringify(res)}`);
    }
    // One character: `Add` -> `Adx` in the middle of the graph, then back, each awaited.
    const line = 4 + Math.floor(nodes / 2) - (Math.floor(nodes / 2) % 4) + 0;
    const col = lines[line]!.indexOf("Add") + 2;
    for (const [version, ch] of [[2, "x"], [3, "d"]] as const) {
      t = performance.now();
      const fresh = client.waitFor("textDocument/publishDiagnostics", (p) => (p as Published).uri === uri && (p as Published).version === version, 120000);
      client.notify("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character: col }, end: { line, character: col + 1 } }, text: ch }],
      });
      const d = (await fresh) as Published;
      edits.push(performance.now() - t);
      if ((version === 2) !== d.diagnostics.length > 0) throw new Error(`version ${version}: unexpected diagnostics ${JSON.stringify(d.diagnostics).slice(0, 200)}`);
    }
    client.notify("textDocument/didClose", { textDocument: { uri } });
  }
  await client.shutdown();
  const row = (name: string, xs: number[], target: number) =>
    `${name.padEnd(28)} median ${median(xs).toFixed(0).padStart(6)} ms   max ${Math.max(...xs).toFixed(0).padStart(6)} ms   target ${target} ms   ${median(xs) <= target ? "ok" : "SLOW"}`;
  console.log(`language server latency, ${nodes} nodes (${(text.length / 1e6).toFixed(1)} MB), ${repeat} rounds`);
  console.log(row("open -> first diagnostics", opens, TARGETS.open));
  console.log(row("hover", hovers, TARGETS.hover));
  console.log(row("edit -> fresh diagnostics", edits, TARGETS.edit));
}

await main();
