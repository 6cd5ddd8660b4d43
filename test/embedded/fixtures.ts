// The host-file fixtures of test/embedded/fixtures and what the tests need around them:
// reading them, positions as LINE:COL counted here (not by the code under test), and the
// damage the tests seed into copies of them.
import * as fs from "node:fs";
import * as path from "node:path";
import type { HostLanguage } from "../../core/src/embedded/index.js";
import { REPO } from "../helpers/paths.js";

export const FIXTURES = path.join(REPO, "test/embedded/fixtures");

export interface Fixture {
  readonly name: string;
  readonly language: HostLanguage;
  readonly text: string;
}

export function fixture(name: string, language: HostLanguage): Fixture {
  return { name, language, text: fs.readFileSync(path.join(FIXTURES, name), "utf8") };
}

/** The fixtures whose every text is valid. */
export const CLEAN: readonly Fixture[] = [
  fixture("clean.py", "python"),
  fixture("clean.cc", "cpp"),
  fixture("clean.md", "markdown"),
  fixture("templates.mjs", "javascript"),
];

/** 1-based line and column (UTF-16 units) of `offset`, counted from the text alone. */
export function lineCol(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++)
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  return `${line}:${offset - lineStart + 1}`;
}

/** An op call in host text: `Name (` or `Name <...> (`, and its first argument if it has one. */
const OP_CALL = /\b([A-Z][A-Za-z]*)\s*(?:<[^>]*>\s*)?\(\s*(\\x41|[A-Za-z_]\w*)?/g;

export interface OpCall {
  /** Host offset of the op name. */
  readonly op: number;
  readonly name: string;
  /** Host offset of its opening parenthesis. */
  readonly paren: number;
  /** Host offset and spelling of the first argument, if any. */
  readonly arg?: { readonly at: number; readonly text: string };
}

/** The op calls written in host text [from, to), found with a regular expression on the host text. */
export function opCalls(host: string, from: number, to: number): OpCall[] {
  const out: OpCall[] = [];
  const slice = host.slice(from, to);
  OP_CALL.lastIndex = 0;
  for (let m = OP_CALL.exec(slice); m; m = OP_CALL.exec(slice)) {
    const at = from + m.index;
    const argText = m[2];
    out.push({
      op: at,
      name: m[1]!,
      paren: at + m[0].lastIndexOf("("),
      ...(argText !== undefined && { arg: { at: at + m[0].length - argText.length, text: argText } }),
    });
  }
  return out;
}

/** `host` with `insert` put in place of [at, at + remove). */
export function splice(host: string, at: number, remove: number, insert: string): string {
  return host.slice(0, at) + insert + host.slice(at + remove);
}
