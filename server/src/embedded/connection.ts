// The language server on host files (Python, C/C++, Markdown, JavaScript): a connection that
// the handlers of handlers.ts register on as usual, which shows each ONNX text of a host to them
// as a document of its own and maps every request and answer between host and region. Nothing
// is published or answered outside a region, and a host without ONNX text costs a scan per edit.
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Connection, Diagnostic, Position, PublishDiagnosticsParams, Range, SemanticTokens, TextEdit } from "vscode-languageserver";
import { formatRegion, hostLanguageOfId } from "../../../core/src/embedded/index.js";
import { configuredLineWidth } from "../lint-config.js";
import { Hosts, type HostDoc, type RegionDoc } from "./hosts.js";
import { mergeTokens, resultToHost } from "./results.js";

type Handler = (params: unknown, ...rest: unknown[]) => unknown;
type Register = (handler: Handler) => unknown;

interface DocParams {
  readonly textDocument: { readonly uri: string; readonly languageId?: string; readonly version?: number; readonly text?: string };
  readonly position?: Position;
  readonly range?: Range;
  readonly contentChanges?: readonly ({ text: string } | { range: Range; text: string })[];
}

/** Requests about one position: answered by the region under it. */
const AT_POSITION = [
  "onHover",
  "onDefinition",
  "onReferences",
  "onDocumentHighlight",
  "onPrepareRename",
  "onRenameRequest",
  "onCompletion",
  "onSignatureHelp",
] as const;
/** Requests about the whole document: each region answers, the answers are joined. */
const WHOLE = ["onDocumentSymbol", "onFoldingRanges", "onCodeLens"] as const;

/**
 * Diagnostics of a region's old text in its new text, after one replacement: those before it
 * stay, those after it move with it, those it touches are dropped.
 */
function carry(diagnostics: readonly Diagnostic[], before: TextDocument, after: TextDocument, edit: { range: Range; text: string }): Diagnostic[] {
  const start = before.offsetAt(edit.range.start);
  const end = before.offsetAt(edit.range.end);
  const delta = edit.text.length - (end - start);
  const move = (p: Position): Position | undefined => {
    const o = before.offsetAt(p);
    return o < start ? p : o > end ? after.positionAt(o + delta) : undefined;
  };
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const s = move(d.range.start);
    const e = move(d.range.end);
    // related places are left out until the new analysis places them again
    const { relatedInformation: _, ...rest } = d;
    if (s && e && (before.offsetAt(d.range.end) < start || before.offsetAt(d.range.start) > end)) out.push({ ...rest, range: { start: s, end: e } });
  }
  return out;
}

/** The document a request is about; undefined for malformed params (the handler answers those). */
function uriOf(p: unknown): string | undefined {
  const uri = (p as Partial<DocParams> | undefined)?.textDocument?.uri;
  return typeof uri === "string" ? uri : undefined;
}

export function withEmbeddedDocuments(connection: Connection): Connection {
  const hosts = new Hosts();
  const hostOf = (p: unknown): HostDoc | undefined => {
    const uri = uriOf(p);
    return uri === undefined ? undefined : hosts.get(uri);
  };
  /** Each region's last diagnostics, in its virtual document. */
  const regionDiagnostics = new Map<string, Diagnostic[]>();
  /** The handlers the server registered, called for the regions' documents. */
  const handlers: { open?: Handler; close?: Handler; tokens?: Handler } = {};

  const publishHost = (host: HostDoc) => {
    const diagnostics: Diagnostic[] = [];
    for (const r of host.regions)
      for (const d of regionDiagnostics.get(r.doc.uri) ?? []) {
        const mapped = diagnosticToHost(host, r, d);
        if (mapped) diagnostics.push(mapped);
      }
    void connection.sendDiagnostics({ uri: host.doc.uri, version: host.doc.version, diagnostics });
  };

  const diagnosticToHost = (host: HostDoc, r: RegionDoc, d: Diagnostic): Diagnostic | undefined => {
    let range = hosts.rangeToHost(host, r, d.range);
    if (!range) {
      // a syntax error that runs into the wrapper (an unclosed brace) is shown at the region's edge
      if (d.code !== "syntax") return undefined;
      const span = r.region.map.hostSpan;
      const before = r.doc.offsetAt(d.range.start) < r.fragment.offset;
      const at = host.doc.positionAt(before ? span.start : span.end);
      range = { start: at, end: at };
    }
    const related = d.relatedInformation
      ?.map((info) => {
        const to = hosts.rangeToHost(host, r, info.location.range);
        return to && { ...info, location: { uri: host.doc.uri, range: to } };
      })
      .filter((x) => x !== undefined);
    return { ...d, range, ...(related && { relatedInformation: related }) };
  };

  const openRegions = (regions: readonly RegionDoc[]) => {
    for (const r of regions) handlers.open?.({ textDocument: { uri: r.doc.uri, languageId: "onnxtxt", version: r.doc.version, text: r.doc.getText() } });
  };
  const closeRegions = (uris: readonly string[]) => {
    for (const uri of uris) {
      regionDiagnostics.delete(uri);
      handlers.close?.({ textDocument: { uri } });
    }
  };

  const overrides: Record<string, unknown> = {
    onDidOpenTextDocument: (h: Handler) => {
      handlers.open = h;
      return connection.onDidOpenTextDocument((p) => {
        const language = typeof p?.textDocument?.languageId === "string" ? hostLanguageOfId(p.textDocument.languageId) : undefined;
        if (!language) {
          h(p);
          return;
        }
        openRegions(hosts.open(p.textDocument.uri, language, p.textDocument.version, p.textDocument.text));
      });
    },
    onDidChangeTextDocument: (h: Handler) => {
      return connection.onDidChangeTextDocument((p) => {
        const uri = uriOf(p);
        const c = uri !== undefined && Array.isArray(p.contentChanges) ? hosts.change(uri, p.textDocument.version, p.contentChanges) : undefined;
        if (!c) {
          h(p);
          return;
        }
        closeRegions(c.closed);
        for (const { region, before, edit } of c.changed) {
          // shown where they moved to until the region's analysis sends its own
          const carried = carry(regionDiagnostics.get(region.doc.uri) ?? [], before, region.doc, edit);
          regionDiagnostics.set(region.doc.uri, carried);
          h({ textDocument: { uri: region.doc.uri, version: region.doc.version }, contentChanges: [edit] });
        }
        openRegions(c.opened);
        // positions of the other regions' problems moved with the edit
        publishHost(hosts.get(uri!)!);
      });
    },
    onDidCloseTextDocument: (h: Handler) => {
      handlers.close = h;
      return connection.onDidCloseTextDocument((p) => {
        if (!hostOf(p)) {
          h(p);
          return;
        }
        closeRegions(hosts.close(p.textDocument.uri));
        void connection.sendDiagnostics({ uri: p.textDocument.uri, diagnostics: [] });
      });
    },
    sendDiagnostics: (p: PublishDiagnosticsParams) => {
      const v = hosts.byVirtual(p.uri);
      if (!v) return connection.sendDiagnostics(p);
      regionDiagnostics.set(p.uri, p.diagnostics);
      publishHost(v.host);
      return Promise.resolve();
    },
    onDocumentFormatting: (h: Handler) =>
      (connection.onDocumentFormatting as unknown as Register)((p, ...rest) => {
        const host = hostOf(p);
        return host ? formatHost(host) : h(p, ...rest);
      }),
    onDocumentRangeFormatting: (h: Handler) =>
      (connection.onDocumentRangeFormatting as unknown as Register)((p, ...rest) => {
        const params = p as DocParams;
        const host = hostOf(p);
        return host ? formatHost(host, params.range) : h(p, ...rest);
      }),
    onCodeAction: (h: Handler) => (connection.onCodeAction as unknown as Register)(ranged(h)),
    onRequest: (method: string, h: Handler) => {
      if (method !== "onnxtxt/graph") return (connection.onRequest as unknown as (m: string, h: Handler) => unknown)(method, h);
      return (connection.onRequest as unknown as (m: string, h: Handler) => unknown)(method, (p: unknown, ...rest: unknown[]) => {
        const q = p as { uri?: unknown; position?: Position };
        const host = typeof q?.uri === "string" ? hosts.get(q.uri) : undefined;
        if (!host) return h(p, ...rest);
        const region = (q.position && hosts.at(q.uri as string, q.position)?.region) ?? host.regions[0];
        return region ? h({ uri: region.doc.uri }, ...rest) : null;
      });
    },
  };

  /** A request about a position: asked of the region there, answered in host terms (null outside regions). */
  const positioned =
    (h: Handler): Handler =>
    async (p, ...rest) => {
      const params = p as DocParams;
      const host = hostOf(p);
      if (!host || !params.position) return h(p, ...rest);
      const at = hosts.at(host.doc.uri, params.position);
      if (!at) return null;
      const answer = await h({ ...params, textDocument: { uri: at.region.doc.uri }, position: at.position }, ...rest);
      return resultToHost(hosts, host, at.region, answer);
    };

  /** A request about a range: each region it meets answers for its part. */
  const ranged =
    (h: Handler): Handler =>
    async (p, ...rest) => {
      const params = p as DocParams;
      const host = hostOf(p);
      if (!host || !params.range) return h(p, ...rest);
      const out: unknown[] = [];
      for (const r of host.regions) {
        const range = hosts.rangeIn(host, r, params.range);
        if (!range) continue;
        const answer = await h({ ...params, textDocument: { uri: r.doc.uri }, range }, ...rest);
        const mapped = resultToHost(hosts, host, r, answer);
        if (Array.isArray(mapped)) out.push(...mapped);
      }
      return out;
    };

  /** A request about the whole document: every region answers. */
  const whole =
    (h: Handler): Handler =>
    async (p, ...rest) => {
      const params = p as DocParams;
      const host = hostOf(p);
      if (!host) return h(p, ...rest);
      const out: unknown[] = [];
      for (const r of host.regions) {
        const mapped = resultToHost(hosts, host, r, await h({ ...params, textDocument: { uri: r.doc.uri } }, ...rest));
        if (Array.isArray(mapped)) out.push(...mapped);
      }
      return out;
    };

  const tokensOf = async (host: HostDoc, rest: unknown[], range?: Range): Promise<SemanticTokens> => {
    const parts: { region: RegionDoc; data: readonly number[] }[] = [];
    for (const r of host.regions) {
      if (range && !hosts.rangeIn(host, r, range)) continue;
      const answer = (await handlers.tokens?.({ textDocument: { uri: r.doc.uri } }, ...rest)) as SemanticTokens | null | undefined;
      if (answer?.data) parts.push({ region: r, data: answer.data });
    }
    return { data: mergeTokens(hosts, host, parts) };
  };

  const formatHost = (host: HostDoc, range?: Range): TextEdit[] | null => {
    const text = host.doc.getText();
    const width = configuredLineWidth(host.doc.uri);
    const edits: TextEdit[] = [];
    for (const r of host.regions) {
      const span = r.region.literal.content;
      if (range && (host.doc.offsetAt(range.end) < span.start || host.doc.offsetAt(range.start) > span.end)) continue;
      const f = formatRegion(text, r.region, width !== undefined ? { width } : {});
      if (f.ok && f.edit)
        edits.push({ range: { start: host.doc.positionAt(f.edit.span.start), end: host.doc.positionAt(f.edit.span.end) }, newText: f.edit.text });
      else if (!f.ok) connection.console.info(`formatting ${host.doc.uri}, ONNX text ${r.region.index + 1}: ${f.reason}`);
    }
    return edits;
  };

  for (const name of AT_POSITION) overrides[name] = (h: Handler) => (connection[name] as unknown as Register)(positioned(h));
  for (const name of WHOLE) overrides[name] = (h: Handler) => (connection[name] as unknown as Register)(whole(h));

  const tokens = {
    on: (h: Handler) => {
      handlers.tokens = h;
      return (connection.languages.semanticTokens.on as unknown as Register)(async (p, ...rest) => {
        const host = hostOf(p);
        return host ? tokensOf(host, rest) : h(p, ...rest);
      });
    },
    onDelta: (h: Handler) =>
      (connection.languages.semanticTokens.onDelta as unknown as Register)(async (p, ...rest) => {
        // a host's tokens are sent whole (a valid answer to a delta request)
        const host = hostOf(p);
        return host ? tokensOf(host, rest) : h(p, ...rest);
      }),
    onRange: (h: Handler) =>
      (connection.languages.semanticTokens.onRange as unknown as Register)(async (p, ...rest) => {
        const params = p as DocParams;
        const host = hostOf(p);
        return host && params.range ? tokensOf(host, rest, params.range) : h(p, ...rest);
      }),
  };
  const inlayHint = { on: (h: Handler) => (connection.languages.inlayHint.on as unknown as Register)(ranged(h)) };
  const languages = new Proxy(connection.languages, {
    get: (target, key, receiver) =>
      key === "semanticTokens"
        ? { ...target.semanticTokens, ...tokens }
        : key === "inlayHint"
          ? { ...target.inlayHint, ...inlayHint }
          : Reflect.get(target, key, receiver),
  });
  overrides.languages = languages;

  return new Proxy(connection, {
    get: (target, key, receiver) => (typeof key === "string" && key in overrides ? overrides[key] : Reflect.get(target, key, receiver)),
  });
}
