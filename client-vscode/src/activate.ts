// The extension, wherever it runs: wires the language client, the commands, the binary-as-text
// file system and the run view to VS Code. extension.ts (desktop) and browser-extension.ts
// (VS Code for the Web) call it with what differs: how the server starts and how external
// data is read. Logic lives in the modules it imports.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { BinaryAsText } from "./binary-as-text.js";
import { BinaryFsProvider } from "./binary-fs-provider.js";
import { convertToBinary } from "./convert-to-binary.js";
import { coreConverter } from "./core-converter.js";
import { type ClientFactory, HOST_LANGUAGES, requestGraph, RUN_COMMAND, sendRun } from "./language-client.js";
import { OpenAsTextOffer, textViewForCommand } from "./open-as-text.js";
import { diffEditorArgs } from "./compare-with.js";
import { convertModelOpset, type ConvertOpsetHost } from "./convert-opset.js";
import type { ConvertOpsetResult } from "../../server/src/opset-request.js";
import { runCell, type RunHost } from "./run-cell.js";
import { GraphPanel } from "./graph-panel.js";
import { RunPanel } from "./run-panel.js";
import { readSettings, SETTINGS_SECTION, type Settings } from "./settings.js";
import type { ExternalDataSource } from "./model-converter.js";
import { BINARY_AS_TEXT_SCHEME, baseName, type UriParts } from "./uris.js";
import { toUri, vscodeHost } from "./vscode-host.js";

/** What differs between the desktop and the web. */
export interface Platform {
  readonly createClient: ClientFactory;
  /** Where the tensors an .onnxtxt document keeps as external data are read from. */
  externalData(uri: vscode.Uri, text: string): Promise<ExternalDataSource>;
}

let client: BaseLanguageClient | undefined;
let starting: Promise<BaseLanguageClient> | undefined;

/**
 * Starts the language server once, when the first onnxtxt document opens (or a run needs it),
 * so that activating for the open-binary command alone costs no server process.
 */
function startClient(context: vscode.ExtensionContext, platform: Platform, run: (args: unknown[]) => Promise<unknown>): Promise<BaseLanguageClient> {
  starting ??= (async () => {
    const c = platform.createClient(context, settings(), run);
    await c.start();
    client = c;
    // A server that does not advertise `onnxtxt.run` leaves the command to us.
    if (!(await vscode.commands.getCommands(true)).includes(RUN_COMMAND)) {
      context.subscriptions.push(vscode.commands.registerCommand(RUN_COMMAND, (...args: unknown[]) => run(args)));
    }
    return c;
  })();
  return starting;
}

function settings(): Settings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return readSettings((key, fallback) => config.get(key, fallback));
}

async function openTextView(viewUri: UriParts): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(toUri(viewUri));
  await vscode.window.showTextDocument(doc, { preview: false });
}

/** For a command without a document: nothing to read. */
const NO_EXTERNAL_DATA: ExternalDataSource = {
  baseDir: "/",
  read: () => {
    throw new Error("no document to read external data beside");
  },
};

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  return tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
}

export async function activateWith(context: vscode.ExtensionContext, platform: Platform): Promise<void> {
  const panel = new RunPanel();
  const runHost: RunHost = {
    activeDocumentUri: () => {
      const doc = vscode.window.activeTextEditor?.document;
      return doc?.languageId === "onnxtxt" ? doc.uri.toString() : undefined;
    },
    documentText: (uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText(),
    execute: async (args) => sendRun(await startClient(context, platform, run), args),
    show: (model) => panel.show(model),
    markFailure: (uri, failure) => panel.markFailure(uri, failure),
    error: (message) => vscodeHost.error(message),
  };
  const run = (args: unknown[]) => runCell(args, runHost, settings().maxTensorElements);

  const content = new BinaryAsText(vscodeHost, coreConverter, () => ({ externalDataThreshold: settings().externalDataThreshold }));
  const offer = new OpenAsTextOffer(
    vscodeHost,
    () => settings().offerOpenAsText,
    () => Promise.resolve(vscode.workspace.getConfiguration(SETTINGS_SECTION).update("offerOpenAsText", false, vscode.ConfigurationTarget.Global)),
    openTextView,
  );

  // in a host file, the graph of the ONNX text under the cursor
  const cursorIn = (uri: string) => {
    const editor = vscode.window.activeTextEditor;
    return editor?.document.uri.toString() === uri && editor.document.languageId !== "onnxtxt" ? editor.selection.active : undefined;
  };
  const graph = new GraphPanel(context.extensionUri, async (uri, compareTo) =>
    requestGraph(await startClient(context, platform, run), uri, compareTo, cursorIn(uri)),
  );

  context.subscriptions.push(
    panel,
    graph,
    vscode.commands.registerCommand("onnxtxt.showGraph", () => {
      const editor = vscode.window.activeTextEditor;
      const language = editor?.document.languageId;
      if (editor && (language === "onnxtxt" || (HOST_LANGUAGES as readonly string[]).includes(language ?? ""))) graph.show(editor);
      else
        vscodeHost.error(
          "ONNX: Show Graph needs an .onnxtxt document (or a binary model opened as text, or ONNX text in a Python, C++ or Markdown file) in the active editor",
        );
    }),
    vscode.workspace.registerFileSystemProvider(BINARY_AS_TEXT_SCHEME, new BinaryFsProvider(content), { isCaseSensitive: true }),
    vscode.commands.registerCommand("onnxtxt.convertToBinary", async (target?: vscode.Uri) => {
      const doc = await documentFor(target);
      const text = doc && { uri: doc.uri, fileName: doc.fileName, getText: () => doc.getText() };
      const external = doc ? await platform.externalData(doc.uri, doc.getText()) : NO_EXTERNAL_DATA;
      return convertToBinary(text, vscodeHost, coreConverter, external);
    }),
    vscode.commands.registerCommand("onnxtxt.openAsText", async (target?: vscode.Uri) => {
      const view = textViewForCommand(target ?? vscode.window.activeTextEditor?.document.uri ?? activeTabUri(), vscodeHost);
      if (view) await openTextView(view);
    }),
    vscode.commands.registerCommand("onnxtxt.convertOpset", async () => {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc?.languageId !== "onnxtxt") return vscodeHost.error("ONNX: Convert Model to Opset needs an .onnxtxt document in the active editor");
      const c = await startClient(context, platform, run);
      const host: ConvertOpsetHost = {
        ...vscodeHost,
        convertOpset: (uri, target) => c.sendRequest<ConvertOpsetResult>("onnxtxt/convertOpset", { uri, ...(target !== undefined && { target }) }),
        pick: (items, placeHolder) => Promise.resolve(vscode.window.showQuickPick(items, { placeHolder })),
        apply: (uri, edits) => {
          const edit = new vscode.WorkspaceEdit();
          const range = (r: (typeof edits)[number]["range"]) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
          edit.set(
            vscode.Uri.parse(uri),
            edits.map((e) => new vscode.TextEdit(range(e.range), e.newText)),
          );
          return Promise.resolve(vscode.workspace.applyEdit(edit));
        },
      };
      try {
        await convertModelOpset(doc.uri.toString(), host);
      } catch (e) {
        vscodeHost.error(`ONNX: Convert Model to Opset failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }),
    vscode.commands.registerCommand("onnxtxt.showGraphChanges", async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== "onnxtxt") {
        vscodeHost.error("ONNX: Show Graph Changes needs an .onnxtxt document (or a binary model opened as text) in the active editor");
        return;
      }
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: "Show changes from",
        filters: { "ONNX models": ["onnx", "onnxtxt"] },
      });
      if (!picked?.[0]) return;
      const other = await modelText(picked[0]);
      if (other !== undefined) graph.show(editor, { text: other, name: baseName(picked[0]) });
    }),
    vscode.commands.registerCommand("onnxtxt.compareWith", async (target?: vscode.Uri) => {
      const base = target ?? vscode.window.activeTextEditor?.document.uri ?? activeTabUri();
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: "Compare", filters: { "ONNX models": ["onnx", "onnxtxt"] } });
      if (picked?.[0]) await openDiff(base, picked[0]);
    }),
    vscode.commands.registerCommand("onnxtxt.compareSelected", async (target?: vscode.Uri, selected?: vscode.Uri[]) => {
      const [a, b] = selected && selected.length === 2 ? selected : [target, undefined];
      await openDiff(a, b);
    }),
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const tab of e.opened) {
        const uri = tabUri(tab);
        if (uri) void offer.onOpened(uri);
      }
      for (const tab of e.closed) {
        const uri = tabUri(tab);
        if (uri) offer.onClosed(uri);
      }
    }),
  );
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const uri = tabUri(tab);
      if (uri) void offer.onOpened(uri);
    }
  }

  const isOnnxtxt = (d: vscode.TextDocument) => d.languageId === "onnxtxt";
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (isOnnxtxt(d)) void startClient(context, platform, run);
    }),
  );
  if (vscode.workspace.textDocuments.some(isOnnxtxt)) await startClient(context, platform, run);
}

/** A model file's text: an .onnxtxt as it is, a binary .onnx printed; undefined after a message. */
async function modelText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (!uri.path.toLowerCase().endsWith(".onnx")) return new TextDecoder("utf-8").decode(bytes);
    return coreConverter.binaryToText(bytes, { externalDataThreshold: 0, location: "" }).text;
  } catch (e) {
    vscodeHost.error(`${baseName(uri)}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** VS Code's diff editor on the texts of two models (binary ones through their text views). */
async function openDiff(a: vscode.Uri | undefined, b: vscode.Uri | undefined): Promise<void> {
  const args = diffEditorArgs(a, b, vscodeHost);
  if (args) await vscode.commands.executeCommand("vscode.diff", toUri(args.left), toUri(args.right), args.title);
}

/** The explorer's file (opened if needed), else the active editor's document. */
async function documentFor(target: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (!target || active?.uri.toString() === target.toString()) return active;
  return vscode.workspace.openTextDocument(target);
}

function activeTabUri(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab ? tabUri(tab) : undefined;
}

export async function deactivateClient(): Promise<void> {
  const c = client;
  client = undefined;
  starting = undefined;
  await c?.stop();
}
