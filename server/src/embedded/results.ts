// Moving a virtual document's answers to its host: every range (and inlay hint position) goes
// through the region's map, its URI becomes the host's, and what lies in the wrapper is dropped
// (an outline item of the wrapper gives way to its children).
// Commands keep the region's URI: executing one runs the region's document.
import type { Position, Range } from "vscode-languageserver";
import type { HostDoc, Hosts, RegionDoc } from "./hosts.js";

const DROP = Symbol("drop");

function isPosition(v: unknown): v is Position {
  return typeof v === "object" && v !== null && typeof (v as Position).line === "number" && typeof (v as Position).character === "number";
}

function isRange(v: unknown): v is Range {
  return typeof v === "object" && v !== null && isPosition((v as Range).start) && isPosition((v as Range).end);
}

interface Fold {
  readonly startLine: number;
  readonly endLine: number;
}

function isFold(v: object): v is Fold {
  return typeof (v as Fold).startLine === "number" && typeof (v as Fold).endLine === "number" && !("range" in v);
}

export function resultToHost(hosts: Hosts, host: HostDoc, r: RegionDoc, value: unknown): unknown {
  /** A folding range counts lines: from its first line's start to its last line's end. */
  const foldToHost = (f: Fold): unknown => {
    // a fold of the wrapper (a node list's function) is none of the host's
    if (r.doc.offsetAt({ line: f.startLine, character: 0 }) < r.fragment.offset) return DROP;
    const range = hosts.rangeToHost(host, r, { start: { line: f.startLine, character: 0 }, end: { line: f.endLine, character: Number.MAX_SAFE_INTEGER } });
    if (!range || range.end.line <= range.start.line) return DROP;
    const { startCharacter: _, endCharacter: __, ...rest } = f as Fold & { startCharacter?: number; endCharacter?: number };
    return { ...rest, startLine: range.start.line, endLine: range.end.line };
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const item of v) {
        const mapped = walk(item);
        if (mapped !== DROP) out.push(mapped);
        // an outline item of the wrapper (a node list's function) leaves its children in its place
        else if (typeof item === "object" && item !== null && Array.isArray((item as { children?: unknown }).children))
          out.push(...(walk((item as { children: unknown[] }).children) as unknown[]));
      }
      return out;
    }
    if (isRange(v)) return hosts.rangeToHost(host, r, v) ?? DROP;
    if (typeof v !== "object" || v === null) return v === r.doc.uri ? host.doc.uri : v;
    if (isFold(v)) return foldToHost(v);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      // a command (the Run lens's) names the region's own document, which the server runs
      if (key === "command" && typeof item === "object") {
        out[key] = item;
        continue;
      }
      if (key === "position" && isPosition(item)) {
        const mapped = hosts.rangeToHost(host, r, { start: item, end: item });
        if (!mapped) return DROP;
        out[key] = mapped.start;
        continue;
      }
      const mapped = walk(item);
      if (mapped === DROP) return DROP;
      out[key === r.doc.uri ? host.doc.uri : key] = mapped;
    }
    return out;
  };
  const mapped = walk(value);
  return mapped === DROP ? null : mapped;
}

/** Semantic tokens of several regions, decoded, moved to the host and encoded again. */
export function mergeTokens(hosts: Hosts, host: HostDoc, parts: readonly { region: RegionDoc; data: readonly number[] }[]): number[] {
  const tokens: [line: number, char: number, length: number, type: number, mods: number][] = [];
  for (const { region, data } of parts) {
    let line = 0;
    let char = 0;
    for (let i = 0; i + 4 < data.length; i += 5) {
      line += data[i]!;
      char = data[i]! === 0 ? char + data[i + 1]! : data[i + 1]!;
      const range = hosts.rangeToHost(host, region, { start: { line, character: char }, end: { line, character: char + data[i + 2]! } });
      if (!range || range.start.line !== range.end.line || range.end.character <= range.start.character) continue;
      tokens.push([range.start.line, range.start.character, range.end.character - range.start.character, data[i + 3]!, data[i + 4]!]);
    }
  }
  tokens.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: number[] = [];
  let line = 0;
  let char = 0;
  for (const [l, c, len, type, mods] of tokens) {
    out.push(l - line, l === line ? c - char : c, len, type, mods);
    line = l;
    char = c;
  }
  return out;
}
