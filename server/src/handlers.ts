// One short handler per request: convert LSP -> offsets, call core/ide, convert back.
import {
  CodeActionKind,
  CodeLens,
  CompletionItemKind,
  DocumentHighlightKind,
  ErrorCodes,
  FoldingRangeKind,
  InsertTextFormat,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  TextDocumentSyncKind,
  type Connection,
  type CancellationToken,
  type InitializeResult,
  type Location,
  type Range,
  type SemanticTokens,
  type WorkspaceEdit,
} from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { codeActionSteps, codeActionsNeedSemantics } from "../../core/src/ide/code-actions.js";
import { codeLenses } from "../../core/src/ide/code-lens.js";
import { completion, type CompletionKind } from "../../core/src/ide/completion.js";
import { formatEdits } from "../../core/src/ide/formatting.js";
import { hover } from "../../core/src/ide/hover.js";
import { inlayHints } from "../../core/src/ide/inlay-hints.js";
import { fixAnswers } from "../../core/src/ide/reported-fixes.js";
import { definition, documentHighlights, references } from "../../core/src/ide/navigation.js";
import { documentOutline, flatOutline } from "../../core/src/ide/outline.js";
import { OUTLINE_KINDS } from "./outline-symbols.js";
import { prepareRename, rename } from "../../core/src/ide/rename.js";
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "../../core/src/ide/semantic-tokens.js";
import { signatureHelp } from "../../core/src/ide/signature-help.js";
import type { Span } from "../../grammar/src/span.js";
import { configured, configuredLineWidth, watchConfig } from "./lint-config.js";
import { encodeSemanticTokens, toLspDiagnostic, toOffset, toRange, toSpan } from "./convert.js";
import { DocumentFeatures } from "./document-features.js";
import { mapBack, mapSpan } from "./map-offsets.js";
import { snippetAsPlainText } from "./snippets.js";
import { describe, guarded } from "./guard.js";
import { registerGraphRequest } from "./graph-request.js";
import { registerDiffRequest } from "./diff-request.js";
import { registerOpsetRequest } from "./opset-request.js";
import { paramsProblem } from "./params.js";
import { orderState, type OrderState } from "./priority.js";
import { runCommand, type RunPlatform } from "./run-command.js";
import { runSummary } from "./run-summary.js";
import { runSliced, Superseded } from "./slices.js";
import { symbolIndexInSlices } from "./symbol-index.js";
import { Workspace, type Need } from "./workspace.js";

export const RUN_COMMAND = "onnxtxt.run";

/** Outline items per document unless the client says otherwise (as VS Code's JSON support does). */
// The outline's size is paid in VS Code's window after every edit (breadcrumbs, sticky scroll
// and the outline view rebuild their model): with 5,000 items a hover right after an edit on a
// 50k-node document took up to 163 ms, with 1,000 at most 57 ms (bench/vscode-latency.ts).
const DEFAULT_OUTLINE_ITEMS = 1000;

function positiveCount(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined;
}

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
  operator: CompletionItemKind.Function,
  function: CompletionItemKind.Method,
  attribute: CompletionItemKind.Property,
  value: CompletionItemKind.Variable,
  type: CompletionItemKind.TypeParameter,
  keyword: CompletionItemKind.Keyword,
  domain: CompletionItemKind.Module,
  constant: CompletionItemKind.Value,
};

export function capabilities(): InitializeResult["capabilities"] {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    documentHighlightProvider: true,
    renameProvider: { prepareProvider: true },
    completionProvider: { triggerCharacters: ["=", "<", "(", ",", ".", " ", "@"] },
    signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: [","] },
    documentSymbolProvider: true,
    workspaceSymbolProvider: true,
    semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: { delta: true }, range: true },
    foldingRangeProvider: true,
    documentFormattingProvider: true,
    documentRangeFormattingProvider: true,
    inlayHintProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
    codeLensProvider: { resolveProvider: false },
    executeCommandProvider: { commands: [RUN_COMMAND] },
  };
}

/**
 * The cheap requests about one position that priority.ts puts ahead of the whole-document ones.
 * Inlay hints are not among them: they wait for the full analysis after every edit.
 */
const POSITION = new Set(["hover", "definition", "completion", "signatureHelp", "references", "documentHighlight", "prepareRename", "rename"]);

/**
 * `outputPending`: whether responses are still being written (background analysis waits).
 * `positions`: shared with the message order (priority.ts): the position requests being answered
 * (whole-document requests wait), and the whole-document requests it holds back.
 */
export function registerHandlers(
  connection: Connection,
  runs: RunPlatform,
  outputPending: () => boolean = () => false,
  positions: OrderState = orderState(),
): Workspace {
  /**
   * Requests being answered, but for commands (a run may take minutes). Each `await` in a handler
   * would otherwise let a slice of background re-inference in ahead of the answer.
   */
  let answering = 0;
  const publish = (uri: string, version: number, lines: Analysis["lines"], diagnostics: readonly Diagnostic[]): void => {
    const shown = configured(uri, workspace.document(uri)?.getText(), diagnostics);
    void connection.sendDiagnostics({ uri, version, diagnostics: shown.map((d) => toLspDiagnostic(lines, d, uri, relatedInformation)) });
  };
  const workspace = new Workspace(
    publish,
    (uri, e) => connection.console.error(`analysis of ${uri} failed: ${describe(e)}`),
    () => answering > 0 || outputPending(),
  );
  const notOpen = (uri: string): ResponseError<void> =>
    new ResponseError(ErrorCodes.InvalidParams, `no analysis of ${uri}: the document is not open, or its analysis failed (see the log)`);
  /** A snapshot that has at least the parse, computed now: only for requests over every document. */
  const analysisOf = (uri: string, need: Need): Analysis => {
    const a = workspace.analysis(uri, need);
    if (!a) throw notOpen(uri);
    return a;
  };
  /** A request about a text that has changed since is answered ContentModified; a cancelled one, RequestCancelled. */
  const checkCurrent = (uri: string, version: number, token?: CancellationToken): void => {
    if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, "request cancelled");
    if (workspace.version(uri) !== version) throw new ResponseError(LSPErrorCodes.ContentModified, "the document changed; ask again");
  };
  /** The current text's analysis with at least the parse, awaited without blocking other requests. */
  const syntaxOf = async (uri: string, token?: CancellationToken): Promise<{ a: Analysis; version: number }> => {
    const version = workspace.version(uri);
    const a = version === undefined ? undefined : await workspace.syntaxAnalysis(uri);
    if (!a || version === undefined) throw notOpen(uri);
    checkCurrent(uri, version, token);
    return { a, version };
  };
  /** The full analysis of the current text, awaited without blocking the early diagnostics of an edit. */
  const fullAnalysisOf = async (uri: string, token?: CancellationToken): Promise<Analysis> => {
    const version = workspace.version(uri);
    const a = version === undefined ? undefined : await workspace.fullAnalysis(uri);
    if (!a || version === undefined) throw notOpen(uri);
    checkCurrent(uri, version, token);
    return a;
  };
  /** What whole-document work in slices waits for: position requests being answered, and messages just read. */
  const waitFor = { hold: () => positions.count > 0, arrivals: () => positions.arrived };
  const features = new DocumentFeatures(workspace, waitFor, positions.held);
  /**
   * For requests over the whole document. After an edit, the parse suffices: their earlier
   * results are carried across it, and nothing they show needs types. On open there is nothing
   * to carry, and the full analysis goes first so that its diagnostics are not held up.
   * Position requests that waited for the same analysis are answered before the walk.
   */
  const wholeDocumentOf = async (uri: string, token?: CancellationToken): Promise<{ a: Analysis; version: number }> => {
    const version = workspace.version(uri);
    const a = features.has(uri) ? (await syntaxOf(uri, token)).a : await fullAnalysisOf(uri, token);
    await new Promise((resolve) => setImmediate(resolve));
    checkCurrent(uri, version!, token);
    return { a, version: version! };
  };
  const on = <P extends unknown[], R>(name: string, f: (...args: P) => R | Promise<R>) =>
    guarded(connection, name, async (...args: P): Promise<R> => {
      if (name === "executeCommand") return f(...args);
      const position = POSITION.has(name);
      answering++;
      if (position) positions.count++;
      try {
        return await f(...args);
      } catch (e) {
        // Whole-document work stopped by an edit (slices.ts).
        if (e instanceof Superseded) throw new ResponseError(LSPErrorCodes.ContentModified, e.message);
        throw e;
      } finally {
        answering--;
        if (position) positions.count--;
      }
    });

  /** What the client said it can do (LSP's capabilities, and ours in initializationOptions). */
  let snippetSupport = false;
  let relatedInformation = false;
  /** A client with the onnxtxt run view shows run results itself; others (Neovim) drop them, so a summary goes out as a message. */
  let runView = false;
  /** A client that shows a disabled action's reason; others are not sent disabled actions (LSP 3.16). */
  let disabledActions = false;
  connection.onInitialize((p) => {
    disabledActions = p.capabilities.textDocument?.codeAction?.disabledSupport === true;
    snippetSupport = p.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    relatedInformation = p.capabilities.textDocument?.publishDiagnostics?.relatedInformation === true;
    const options = p.initializationOptions as { runView?: unknown; maxOutlineItems?: unknown } | undefined;
    runView = options?.runView === true;
    runs.initialize?.(p.initializationOptions);
    features.limits = {
      outline: positiveCount(options?.maxOutlineItems) ?? DEFAULT_OUTLINE_ITEMS,
      folds: positiveCount(p.capabilities.textDocument?.foldingRange?.rangeLimit) ?? Infinity,
    };
    watchedFiles = p.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return { capabilities: capabilities(), serverInfo: { name: "onnxtxt-ls", version: "0.1.0" } };
  });
  let watchedFiles = false;
  watchConfig(
    connection,
    () => watchedFiles,
    () => {
      for (const uri of workspace.uris())
        void workspace.fullAnalysis(uri).then((a) => {
          const version = workspace.version(uri);
          if (a && version !== undefined) publish(uri, version, a.lines, a.diagnostics);
        });
    },
  );

  /** A notification cannot be answered: malformed params are logged on one line and ignored. */
  const malformed = (name: string, p: unknown): boolean => {
    const problem = paramsProblem(name, p);
    if (problem) connection.console.error(`${name} ignored: ${problem}`);
    return problem !== undefined;
  };

  connection.onDidOpenTextDocument((p) => {
    if (malformed("didOpen", p)) return;
    try {
      workspace.open(p.textDocument.uri, p.textDocument.languageId, p.textDocument.version, p.textDocument.text);
    } catch (e) {
      connection.console.error(`didOpen failed: ${describe(e)}`);
    }
  });
  connection.onDidChangeTextDocument((p) => {
    if (malformed("didChange", p)) return;
    try {
      workspace.change(p.textDocument.uri, p.textDocument.version, p.contentChanges);
    } catch (e) {
      connection.console.error(`didChange failed: ${describe(e)}`);
    }
  });
  connection.onDidCloseTextDocument((p) => {
    if (malformed("didClose", p)) return;
    workspace.close(p.textDocument.uri);
    features.forget(p.textDocument.uri);
    void connection.sendDiagnostics({ uri: p.textDocument.uri, diagnostics: [] });
  });

  connection.onHover(
    on("hover", async (p, token) => {
      const uri = p.textDocument.uri;
      const doc = workspace.document(uri);
      if (!doc) throw notOpen(uri);
      const ready = workspace.ready(uri);
      const answer = (a: Analysis, offset: number, toCurrent: (s: Span) => Span | undefined) => {
        const h = hover(a, offset);
        const span = h && toCurrent(h.span);
        return h && span
          ? { range: { start: doc.positionAt(span.start), end: doc.positionAt(span.end) }, contents: { kind: "markdown" as const, value: h.markdown } }
          : undefined;
      };
      if (ready) return answer(ready, doc.offsetAt(p.position), (s) => s) ?? null;
      // While the new text is analysed, the last complete analysis answers for what the edits did not touch.
      const last = workspace.lastComplete(uri);
      if (last) {
        const back = mapBack(last.change, doc.offsetAt(p.position));
        const h = back === undefined ? undefined : answer(last.analysis, back, (s) => mapSpan(last.change, s));
        if (h) return h;
      }
      // An edit that took over the last analysis's tree: its parse, with the last types where
      // inference has not run yet. The parse of such an edit is started at once (syntaxOf),
      // not after the typing pause.
      const early = workspace.spliced(uri) ?? ((await syntaxOf(uri, token)) && workspace.spliced(uri));
      if (early) return answer(early, doc.offsetAt(p.position), (s) => s) ?? null;
      const a = await fullAnalysisOf(uri, token);
      return answer(a, toOffset(a.lines, p.position), (s) => s) ?? null;
    }),
  );

  connection.onDefinition(
    on("definition", async (p, token): Promise<Location[]> => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      return definition(a, toOffset(a.lines, p.position)).map((s) => ({ uri: p.textDocument.uri, range: toRange(a.lines, s) }));
    }),
  );

  connection.onReferences(
    on("references", async (p, token): Promise<Location[]> => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      return references(a, toOffset(a.lines, p.position), p.context.includeDeclaration).map((s) => ({
        uri: p.textDocument.uri,
        range: toRange(a.lines, s),
      }));
    }),
  );

  connection.onDocumentHighlight(
    on("documentHighlight", async (p, token) => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      const kinds = { read: DocumentHighlightKind.Read, write: DocumentHighlightKind.Write, text: DocumentHighlightKind.Text };
      return documentHighlights(a, toOffset(a.lines, p.position)).map((h) => ({ range: toRange(a.lines, h.span), kind: kinds[h.kind] }));
    }),
  );

  connection.onPrepareRename(
    on("prepareRename", async (p, token) => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      const r = prepareRename(a, toOffset(a.lines, p.position));
      if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.reason);
      return { range: toRange(a.lines, r.span), placeholder: r.placeholder };
    }),
  );

  connection.onRenameRequest(
    on("rename", async (p, token): Promise<WorkspaceEdit> => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      const r = rename(a, toOffset(a.lines, p.position), p.newName);
      if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.reason);
      return { changes: { [p.textDocument.uri]: r.edits.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } };
    }),
  );

  connection.onCompletion(
    on("completion", async (p, token) => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      const offset = toOffset(a.lines, p.position);
      const c = completion(a, offset);
      const range = toRange(a.lines, { start: c.replaceStart, end: offset });
      return {
        isIncomplete: false,
        items: c.items.map((i) => ({
          label: i.label,
          kind: COMPLETION_KINDS[i.kind],
          ...(i.detail !== undefined ? { detail: i.detail } : {}),
          ...(i.documentation !== undefined ? { documentation: i.documentation } : {}),
          ...(i.sortText !== undefined ? { sortText: i.sortText } : {}),
          // A client without snippet support would insert `${1:x}` literally.
          textEdit: { range, newText: i.snippet && !snippetSupport ? snippetAsPlainText(i.insertText) : i.insertText },
          insertTextFormat: i.snippet && snippetSupport ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        })),
      };
    }),
  );

  connection.onSignatureHelp(
    on("signatureHelp", async (p, token) => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      const s = signatureHelp(a, toOffset(a.lines, p.position));
      if (!s) return null;
      return {
        signatures: [
          {
            label: s.label,
            ...(s.documentation !== undefined ? { documentation: s.documentation } : {}),
            parameters: s.parameters.map((x) => ({ label: x.label })),
          },
        ],
        activeSignature: 0,
        activeParameter: s.activeParameter,
      };
    }),
  );

  connection.onDocumentSymbol(
    on("documentSymbol", (p, token) =>
      features.answeringOutline(p.textDocument.uri, async () => {
        const { a, version } = await wholeDocumentOf(p.textDocument.uri, token);
        return features.outline(p.textDocument.uri, a, version);
      }),
    ),
  );

  connection.onWorkspaceSymbol(
    on("workspaceSymbol", (p) => {
      const query = p.query.toLowerCase();
      const out = [];
      for (const uri of workspace.uris()) {
        const a = analysisOf(uri, "syntax");
        for (const { item, container } of flatOutline(documentOutline(a))) {
          if (item.kind === "input" || item.kind === "output" || item.kind === "initializer") continue;
          if (query && !item.name.toLowerCase().includes(query)) continue;
          out.push({
            name: item.name || " ",
            kind: OUTLINE_KINDS[item.kind],
            location: { uri, range: toRange(a.lines, item.selectionSpan) },
            ...(container !== undefined ? { containerName: container } : {}),
          });
        }
      }
      return out;
    }),
  );

  connection.languages.semanticTokens.on(
    on("semanticTokens", async (p, token): Promise<SemanticTokens> => {
      const { a, version } = await wholeDocumentOf(p.textDocument.uri, token);
      return features.full(p.textDocument.uri, a, version);
    }),
  );

  connection.languages.semanticTokens.onDelta(
    on("semanticTokensDelta", async (p, token) => {
      const { a, version } = await wholeDocumentOf(p.textDocument.uri, token);
      return features.delta(p.textDocument.uri, a, version, p.previousResultId);
    }),
  );

  connection.languages.semanticTokens.onRange(
    on("semanticTokensRange", async (p, token): Promise<SemanticTokens> => {
      const { a } = await syntaxOf(p.textDocument.uri, token);
      return { data: Array.from(encodeSemanticTokens(a.lines, semanticTokens(a, toSpan(a.lines, p.range)), a.text)) };
    }),
  );

  connection.onFoldingRanges(
    on("foldingRange", async (p, token) => {
      const { a, version } = await wholeDocumentOf(p.textDocument.uri, token);
      return (await features.folds(p.textDocument.uri, a, version)).map((f) => {
        const r = toRange(a.lines, f.span);
        return {
          startLine: r.start.line,
          endLine: f.kind === "comment" ? r.end.line : Math.max(r.start.line, r.end.line - 1),
          kind: f.kind === "comment" ? FoldingRangeKind.Comment : FoldingRangeKind.Region,
        };
      });
    }),
  );

  connection.languages.inlayHint.on(
    on("inlayHint", async (p, token) => {
      const uri = p.textDocument.uri;
      const a = await fullAnalysisOf(uri, token);
      // The hints name values through the symbol index: on opening a big document, built in
      // slices (not in one block of 100 ms and more that other requests would wait behind).
      if (a.ast) {
        const version = workspace.version(uri);
        await symbolIndexInSlices(a.ast, { stale: () => workspace.version(uri) !== version, ...waitFor });
        checkCurrent(uri, version!, token);
      }
      const span = toSpan(a.lines, p.range);
      return inlayHints(a, span.start, span.end).map((h) => ({ position: a.lines.position(h.offset), label: h.label, paddingLeft: false }));
    }),
  );

  /** With syntax errors there is nothing safe to format: null (no edits), so format-on-save saves as is. */
  const formatting = async (uri: string, token: CancellationToken, range?: Range) => {
    const { a } = await syntaxOf(uri, token);
    const r = formatEdits(a, range && toSpan(a.lines, range), configuredLineWidth(uri));
    if (!r.ok) {
      connection.console.info(`formatting ${uri}: ${r.reason}`);
      return null;
    }
    return r.edits.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText }));
  };
  connection.onDocumentFormatting(on("formatting", (p, token) => formatting(p.textDocument.uri, token)));
  connection.onDocumentRangeFormatting(on("rangeFormatting", (p, token) => formatting(p.textDocument.uri, token, p.range)));

  connection.onCodeAction(
    on("codeAction", async (p, token) => {
      const uri = p.textDocument.uri;
      // Asked on every cursor move and edit: the parse answers unless a fix needs the checks or
      // types. VS Code asks again when the diagnostics at the cursor change.
      const parsed = workspace.ready(uri) ?? (await syntaxOf(uri, token)).a;
      const range = toSpan(parsed.lines, p.range);
      const a = parsed.complete || !codeActionsNeedSemantics(parsed, range, p.context.diagnostics) ? parsed : await fullAnalysisOf(uri, token);
      // In slices: an undefined name is weighed against every value in scope (50k of them).
      const version = workspace.version(uri);
      const all = await runSliced(codeActionSteps(a, range), { stale: () => workspace.version(uri) !== version, ...waitFor });
      // Not a fix of a diagnostic the configuration or a suppression hides (as `check --fix`).
      const shown = all.some((action) => action.fixes) ? fixAnswers(a.diagnostics, configured(uri, a.text, a.diagnostics)) : undefined;
      const offered = all.filter((action) => (disabledActions || action.disabled === undefined) && (!action.fixes || !shown || shown.isReported(action.fixes)));
      return offered.map((action) => {
        const fixes = action.fixes;
        const diagnostics = fixes
          ? p.context.diagnostics.filter((d) => {
              const s = toSpan(a.lines, d.range);
              return s.start <= fixes.end && fixes.start <= s.end;
            })
          : [];
        return {
          title: action.title,
          kind: action.kind === "quickfix" ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite,
          ...(diagnostics.length > 0 ? { diagnostics } : {}),
          ...(action.disabled !== undefined
            ? { disabled: { reason: action.disabled } }
            : { edit: { changes: { [uri]: action.edits.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } } }),
        };
      });
    }),
  );

  connection.onCodeLens(
    on("codeLens", async (p, token): Promise<CodeLens[]> => {
      // A few names from the parse: no need to wait, on opening a document, for its full analysis.
      const { a } = await syntaxOf(p.textDocument.uri, token);
      return codeLenses(a).map((l) => ({
        range: toRange(a.lines, l.span),
        command: { title: l.title, command: RUN_COMMAND, arguments: [{ uri: p.textDocument.uri, graph: l.graph }] },
      }));
    }),
  );

  connection.onExecuteCommand(
    on("executeCommand", (p) => {
      if (p.command !== RUN_COMMAND) throw new ResponseError(ErrorCodes.MethodNotFound, `unknown command ${p.command}`);
      return runCommand(workspace, p.arguments, runs).then(
        // window/showMessage, a notification: the library's show*Message send showMessageRequest,
        // which Neovim answers with a prompt that holds the editor until a key is pressed.
        (r) => {
          if (!runView) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: runSummary(r) });
          return r;
        },
        (e: unknown) => {
          const message = `Run failed: ${e instanceof Error ? e.message : String(e)}`;
          if (!runView) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
          throw e;
        },
      );
    }),
  );
  registerGraphRequest(connection, fullAnalysisOf);
  registerDiffRequest(connection, fullAnalysisOf);
  registerOpsetRequest(connection, fullAnalysisOf);

  return workspace;
}
