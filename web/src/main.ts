// The playground's page script: Monaco driven by the onnxtxt language server in a worker, the
// extension's graph view beside it, a run worker, open/drop/download and share links.
import "./graph-host.js";
import "../../client-vscode/src/webview/graph-view.js";
import * as monaco from "monaco-editor";
import { editorWorker, languageServer, runWorker } from "playground:workers";
import { examples } from "playground:examples";
import type { GraphViewData } from "../../core/src/graph/view-data.js";
import { encodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { startWorker } from "./blob-worker.js";
import { graphHost } from "./graph-host.js";
import { LspChannel } from "./lsp-channel.js";
import { openModelFiles } from "./open-model.js";
import { showMessage, showOutputs } from "./run-output.js";
import type { RunResult } from "./run-protocol.js";
import { shareLink, sharedText } from "./share.js";

const LANGUAGE = "onnxtxt";
const DEFAULT_EXAMPLE = "mlp.onnxtxt";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const message = $<HTMLElement>("message");
const output = $<HTMLElement>("output");

function say(text: string, kind: "info" | "error" = "info"): void {
  message.textContent = text;
  message.className = kind;
}

(globalThis as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => startWorker(editorWorker, "editor"),
};

monaco.languages.register({ id: LANGUAGE, extensions: [".onnxtxt"], aliases: ["ONNX text"] });
monaco.languages.setLanguageConfiguration(LANGUAGE, {
  comments: { lineComment: "#" },
  brackets: [
    ["{", "}"],
    ["[", "]"],
    ["(", ")"],
    ["<", ">"],
  ],
  autoClosingPairs: [
    { open: "{", close: "}" },
    { open: "[", close: "]" },
    { open: "(", close: ")" },
    { open: '"', close: '"' },
  ],
});

const dark = (): boolean => document.documentElement.dataset["theme"] === "dark";
function applyTheme(theme: "light" | "dark"): void {
  document.documentElement.dataset["theme"] = theme;
  monaco.editor.setTheme(theme === "dark" ? "vs-dark" : "vs");
}

let fileName = DEFAULT_EXAMPLE;
const uri = monaco.Uri.parse("inmemory://playground/model.onnxtxt");
const editor = monaco.editor.create($("editor"), {
  model: null,
  automaticLayout: true,
  minimap: { enabled: false },
  "semanticHighlighting.enabled": true,
  inlayHints: { enabled: "on" },
  fontSize: 13,
});
applyTheme(matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");

// For scripts driving the page (the browser tests, the benchmark): the editor and Monaco's API.
(globalThis as unknown as { playground: unknown }).playground = { editor, monaco };

const lsp = new LspChannel(startWorker(languageServer, "onnxtxt-ls"));
lsp.startClient();
/** Made in start(), once the server is initialized: Monaco's client would otherwise ask about it (code actions at the cursor) before telling the server it is open. */
let model!: monaco.editor.ITextModel;

// The graph: asked of the server once the diagnostics of an edit are out, drawn by the graph view.
let graphAsked = 0;
async function refreshGraph(): Promise<void> {
  const ask = ++graphAsked;
  try {
    const data = await lsp.request<GraphViewData | null>("onnxtxt/graph", { uri: uri.toString() });
    if (ask !== graphAsked) return;
    window.postMessage({ type: "graph", ...(data ? { data } : {}) }, "*");
  } catch {
    // The text changed while the graph was made: the next diagnostics ask again.
  }
}
let firstDiagnostics = true;
lsp.onDiagnostics = (u, diagnostics) => {
  if (u !== uri.toString()) return;
  document.body.dataset["diagnostics"] = String(diagnostics.length);
  document.body.dataset["diagnosticsVersion"] = String(Number(document.body.dataset["diagnosticsVersion"] ?? "0") + 1);
  if (firstDiagnostics) {
    firstDiagnostics = false;
    performance.mark("first-diagnostics");
  }
  void refreshGraph();
};
editor.onDidChangeCursorPosition((e) => {
  window.postMessage({ type: "cursor", offset: model.getOffsetAt(e.position) }, "*");
});
graphHost.onReveal = (start, end) => {
  const a = model.getPositionAt(start),
    b = model.getPositionAt(end);
  const range = new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
  editor.setSelection(range);
  editor.revealRangeInCenterIfOutsideViewport(range);
};

function setText(name: string, text: string): void {
  fileName = name;
  model.setValue(text);
  $("file-name").textContent = name;
  output.replaceChildren();
}

// Examples menu.
const examplesMenu = $<HTMLSelectElement>("examples");
for (const name of Object.keys(examples).sort()) examplesMenu.add(new Option(name, name));
examplesMenu.addEventListener("change", () => {
  const text = examples[examplesMenu.value];
  if (text !== undefined) setText(examplesMenu.value, text);
});

// Run, in a worker the Stop button terminates.
let runner: Worker | undefined;
const runButton = $<HTMLButtonElement>("run"),
  stopButton = $<HTMLButtonElement>("stop");
function stopRun(note?: string): void {
  runner?.terminate();
  runner = undefined;
  runButton.disabled = false;
  stopButton.disabled = true;
  if (note) showMessage(output, note, "failure");
}
runButton.addEventListener("click", () => {
  stopRun();
  const worker = startWorker(runWorker, "run");
  runner = worker;
  runButton.disabled = true;
  stopButton.disabled = false;
  document.body.dataset["run"] = "running";
  showMessage(output, "Running…", "status");
  worker.onmessage = (e: MessageEvent<RunResult>) => {
    if (runner !== worker) return;
    stopRun();
    const r = e.data;
    if (r.ok) showOutputs(output, r.outputs, r.elapsedMs, r.inputSources);
    else showMessage(output, `Run failed: ${r.message}`, "failure");
    document.body.dataset["run"] = r.ok ? "done" : "failed";
  };
  worker.onerror = (e) => {
    if (runner !== worker) return;
    stopRun(`Run failed: the run worker stopped (${e.message || "out of memory?"})`);
    document.body.dataset["run"] = "failed";
  };
  worker.postMessage({ text: model.getValue() });
});
// The server's code lens (▶ Run above the graph) names this command: it runs as the button does
// (the browser language server does not run models).
monaco.editor.registerCommand("onnxtxt.run", () => runButton.click());
stopButton.addEventListener("click", () => {
  stopRun("Run stopped.");
  document.body.dataset["run"] = "stopped";
});

// Downloads.
function download(name: string, data: BlobPart, type: string): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([data], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
$("download-text").addEventListener("click", () => download(fileName, model.getValue(), "text/plain"));
$("download-onnx").addEventListener("click", () => {
  const r = modelFromText(model.getValue());
  if (!r.model) {
    const first = r.diagnostics.find((d) => d.severity === "error");
    const at = first?.span ? model.getPositionAt(first.span.start) : undefined;
    say(`Cannot convert: ${at ? `${fileName}:${at.lineNumber}:${at.column}: ` : ""}${first?.message ?? "the text has errors"}`, "error");
    return;
  }
  download(fileName.replace(/\.onnxtxt$/, "") + ".onnx", encodeModel(r.model) as BlobPart, "application/octet-stream");
});

// Open and drop.
async function openFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  say(`Opening ${files.map((f) => f.name).join(", ")}…`);
  const r = await openModelFiles(files);
  if ("message" in r) return say(r.message, "error");
  setText(r.name, r.text);
  say(`Opened ${r.name}`);
}
const picker = $<HTMLInputElement>("open-file");
$("open").addEventListener("click", () => picker.click());
picker.addEventListener("change", () => void openFiles([...(picker.files ?? [])]));
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  void openFiles([...(e.dataTransfer?.files ?? [])]);
});

// Share.
$("share").addEventListener("click", async () => {
  const r = await shareLink(location.href, model.getValue());
  if (!r.ok) return say(r.message, "error");
  history.replaceState(null, "", r.url);
  $<HTMLInputElement>("share-url").value = r.url;
  try {
    await navigator.clipboard.writeText(r.url);
    say("Share link copied (the text is in the link; nothing is uploaded).");
  } catch {
    say("Share link ready in the box on the right (the text is in the link; nothing is uploaded).");
  }
});

$("theme").addEventListener("click", () => applyTheme(dark() ? "light" : "dark"));

async function start(): Promise<void> {
  await lsp.initialized;
  model = monaco.editor.createModel("", LANGUAGE, uri);
  editor.setModel(model);
  const shared = await sharedText(location.hash);
  if (shared.kind === "text") {
    setText("shared.onnxtxt", shared.text);
    say("Opened the text of a share link.");
  } else {
    setText(DEFAULT_EXAMPLE, examples[DEFAULT_EXAMPLE] ?? "");
    if (shared.kind === "broken") say(shared.message, "error");
  }
  document.body.dataset["started"] = "1";
}

void start();
