// Open host documents (Python, C/C++, Markdown, JavaScript) and the ONNX texts in them. Each
// region is analysed as a document of its own, under a virtual URI, whose text is the model
// core/src/embedded/fragment.ts wraps it in; this module maps positions between the two.
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import type { Position, Range } from "vscode-languageserver";
import { findRegions, fragmentModel, regionSpan, type EmbeddedRegion, type FragmentModel, type HostLanguage } from "../../../core/src/embedded/index.js";

/** Typed text that cannot start or end a string, a comment or a call. */
const PLAIN = /^[A-Za-z0-9_ \t.,=+\-*\/:;!?&|%^@$]*$/;

/** The `#` part that marks a region's virtual URI. */
const MARK = "#onnxtxt-region-";

export interface RegionDoc {
  readonly region: EmbeddedRegion;
  readonly fragment: FragmentModel;
  /** The virtual document: the wrapper model's text. */
  readonly doc: TextDocument;
}

export interface HostDoc {
  doc: TextDocument;
  readonly language: HostLanguage;
  regions: RegionDoc[];
}

/** What an edit of a host did to its regions' virtual documents. */
export interface RegionChanges {
  readonly opened: RegionDoc[];
  /** Regions whose text changed, with the one replacement that turns the old virtual text into the new. */
  readonly changed: { readonly region: RegionDoc; readonly before: TextDocument; readonly edit: { readonly range: Range; readonly text: string } }[];
  readonly closed: string[];
}

export function virtualUri(host: string, index: number): string {
  return `${host}${MARK}${index}`;
}

export function hostOfVirtual(uri: string): { host: string; index: number } | undefined {
  const at = uri.lastIndexOf(MARK);
  if (at < 0) return undefined;
  const index = Number(uri.slice(at + MARK.length));
  return Number.isInteger(index) ? { host: uri.slice(0, at), index } : undefined;
}

function regionDocs(host: string, doc: TextDocument, language: HostLanguage, version: number): RegionDoc[] {
  return findRegions(doc.getText(), language).regions.map((region) => {
    const fragment = fragmentModel(region);
    return { region, fragment, doc: TextDocument.create(virtualUri(host, region.index), "onnxtxt", version, fragment.text) };
  });
}

/**
 * The one replacement that turns `before`'s text into `after` (their common start and end kept):
 * sent as a ranged edit, the region's document keeps its analysis's carried results and its
 * incremental re-analysis, as an edit of an .onnxtxt file does.
 */
function replacement(before: TextDocument, after: string): { range: Range; text: string } {
  const old = before.getText();
  let start = 0;
  const shorter = Math.min(old.length, after.length);
  while (start < shorter && old.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && old.charCodeAt(old.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { range: { start: before.positionAt(start), end: before.positionAt(old.length - end) }, text: after.slice(start, after.length - end) };
}

export class Hosts {
  private readonly docs = new Map<string, HostDoc>();

  get(uri: string): HostDoc | undefined {
    return this.docs.get(uri);
  }

  open(uri: string, language: HostLanguage, version: number, text: string): RegionDoc[] {
    const doc = TextDocument.create(uri, language, version, text);
    const regions = regionDocs(uri, doc, language, version);
    this.docs.set(uri, { doc, language, regions });
    return regions;
  }

  /** Applies an edit and finds the regions again; a region whose text is unchanged keeps its document. */
  change(uri: string, version: number, changes: readonly TextDocumentContentChangeEvent[]): RegionChanges | undefined {
    const host = this.docs.get(uri);
    if (!host) return undefined;
    const single = changes.length === 1 ? changes[0] : undefined;
    const range = single && "range" in single ? (single.range as Range | undefined) : undefined;
    if (single && range && this.shiftOnly(host, range, single.text, version)) return { opened: [], changed: [], closed: [] };
    host.doc = TextDocument.update(host.doc, [...changes], version);
    const before = host.regions;
    const found = findRegions(host.doc.getText(), host.language).regions;
    const opened: RegionDoc[] = [];
    const changed: RegionChanges["changed"][number][] = [];
    host.regions = found.map((region) => {
      const fragment = fragmentModel(region);
      const old = before[region.index];
      if (old && old.fragment.text === fragment.text) return { region, fragment, doc: old.doc };
      const doc = TextDocument.create(virtualUri(uri, region.index), "onnxtxt", version, fragment.text);
      if (old) changed.push({ region: { region, fragment, doc }, before: old.doc, edit: replacement(old.doc, fragment.text) });
      else opened.push({ region, fragment, doc });
      return { region, fragment, doc };
    });
    const closed = before.slice(found.length).map((r) => r.doc.uri);
    return { opened, changed, closed };
  }

  /**
   * A keystroke in plain host code (no quote, comment sign, backslash, bracket or line break typed
   * or deleted, on a line without a quote, a marker or a call the finders look for, away from
   * every literal) cannot change what the regions are: they only move. Applies such an edit.
   */
  private shiftOnly(host: HostDoc, range: Range, text: string, version: number): boolean {
    const start = host.doc.offsetAt(range.start);
    const end = host.doc.offsetAt(range.end);
    const source = host.doc.getText();
    if (!PLAIN.test(text) || !PLAIN.test(source.slice(start, end)) || range.start.line !== range.end.line) return false;
    const lineStart = source.lastIndexOf("\n", start - 1) + 1;
    let lineEnd = source.indexOf("\n", end);
    if (lineEnd < 0) lineEnd = source.length;
    const line = source.slice(lineStart, lineEnd);
    if (/["'`\\]|parse_|from_onnx_text|onnxtxt|FunctionBody|Add|OnnxParser|SCHEMA|dedent/.test(line)) return false;
    for (const r of host.regions) {
      const span = r.region.literal.span;
      if (end >= span.start - 1 && start <= span.end + 1) return false;
    }
    const delta = text.length - (end - start);
    host.doc = TextDocument.update(host.doc, [{ range, text }], version);
    host.regions = host.regions.map((r) => {
      if (r.region.literal.span.start < start) return r;
      const { literal } = r.region;
      const move = (s: { start: number; end: number }) => ({ start: s.start + delta, end: s.end + delta });
      const region = { ...r.region, map: r.region.map.shifted(delta), literal: { ...literal, span: move(literal.span), content: move(literal.content) } };
      return { ...r, region };
    });
    return true;
  }

  close(uri: string): string[] {
    const host = this.docs.get(uri);
    this.docs.delete(uri);
    return host ? host.regions.map((r) => r.doc.uri) : [];
  }

  /** The region under a host position, and that position in its virtual document. */
  at(uri: string, pos: Position): { region: RegionDoc; position: Position } | undefined {
    const host = this.docs.get(uri);
    if (!host) return undefined;
    const offset = host.doc.offsetAt(pos);
    for (const r of host.regions) {
      const inText = r.region.map.toText(offset);
      if (inText === undefined) continue;
      return { region: r, position: r.doc.positionAt(inText + r.fragment.offset) };
    }
    return undefined;
  }

  /** A host range in a region's virtual document, clipped to the region; undefined when they do not meet. */
  rangeIn(host: HostDoc, r: RegionDoc, range: Range): Range | undefined {
    const span = r.region.map.hostSpan;
    const start = Math.max(host.doc.offsetAt(range.start), span.start);
    const end = Math.min(host.doc.offsetAt(range.end), span.end);
    if (start > end) return undefined;
    const a = r.region.map.toText(start);
    const b = r.region.map.toText(end);
    if (a === undefined || b === undefined) return undefined;
    return { start: r.doc.positionAt(a + r.fragment.offset), end: r.doc.positionAt(b + r.fragment.offset) };
  }

  /** A virtual range in the host, or undefined where it lies in the wrapper alone. */
  rangeToHost(host: HostDoc, r: RegionDoc, range: Range): Range | undefined {
    // a range reaching into the wrapper is cut at the region's edge, as `check` cuts it
    const inRegion = regionSpan(r.fragment, { start: r.doc.offsetAt(range.start), end: r.doc.offsetAt(range.end) });
    if (!inRegion) return undefined;
    const span = r.region.map.spanToHost(inRegion);
    return { start: host.doc.positionAt(span.start), end: host.doc.positionAt(span.end) };
  }

  /** The region a virtual URI names, with its host. */
  byVirtual(uri: string): { host: HostDoc; region: RegionDoc } | undefined {
    const v = hostOfVirtual(uri);
    const host = v && this.docs.get(v.host);
    const region = host?.regions[v!.index];
    return host && region && region.doc.uri === uri ? { host, region } : undefined;
  }
}
