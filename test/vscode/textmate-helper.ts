// Tokenizes text with the committed TextMate grammar through vscode-textmate and Oniguruma,
// the same engines VS Code uses, and answers "which scopes are at this offset".
import * as fs from "node:fs";
import { createRequire } from "node:module";
import oniguruma from "vscode-oniguruma";
import vsctm from "vscode-textmate";
import { LineIndex } from "../../grammar/src/line-index.js";
import { GRAMMAR_FILE } from "../../scripts/gen-textmate.js";

let grammarPromise: Promise<vsctm.IGrammar> | undefined;

async function loadGrammar(): Promise<vsctm.IGrammar> {
  const require = createRequire(import.meta.url);
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) => (scope === "source.onnxtxt" ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR_FILE, "utf8"), GRAMMAR_FILE) : null),
  });
  const grammar = await registry.loadGrammar("source.onnxtxt");
  if (!grammar) throw new Error("the onnxtxt grammar did not load");
  return grammar;
}

export function onnxtxtGrammar(): Promise<vsctm.IGrammar> {
  grammarPromise ??= loadGrammar();
  return grammarPromise;
}

export interface ScopedToken {
  readonly start: number;
  readonly end: number;
  readonly scopes: readonly string[];
}

/** A tokenized document: the tokens of each line, and lookup by offset. */
export class Highlighted {
  private readonly lineIndex: LineIndex;

  constructor(
    readonly text: string,
    private readonly lines: readonly (readonly ScopedToken[])[],
  ) {
    this.lineIndex = new LineIndex(text);
  }

  /** The scopes of the token covering `offset`, innermost last. */
  scopesAt(offset: number): readonly string[] {
    const pos = this.lineIndex.position(offset);
    const tokens = this.lines[pos.line] ?? [];
    return tokens.find((t) => t.start <= pos.character && pos.character < t.end)?.scopes ?? [];
  }

  /** The scopes at the `occurrence`-th (0-based) appearance of `needle`. */
  scopesOf(needle: string, occurrence = 0): readonly string[] {
    let at = -1;
    for (let i = 0; i <= occurrence; i++) {
      at = this.text.indexOf(needle, at + 1);
      if (at < 0) throw new Error(`'${needle}' occurs fewer than ${occurrence + 1} times`);
    }
    return this.scopesAt(at);
  }

  /** The innermost scope at `needle`. */
  scopeOf(needle: string, occurrence = 0): string {
    const s = this.scopesOf(needle, occurrence);
    return s[s.length - 1] ?? "";
  }
}

export async function highlight(text: string): Promise<Highlighted> {
  const grammar = await onnxtxtGrammar();
  let state = vsctm.INITIAL;
  const lines: ScopedToken[][] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const r = grammar.tokenizeLine(line, state);
    lines.push(r.tokens.map((t) => ({ start: t.startIndex, end: t.endIndex, scopes: t.scopes })));
    state = r.ruleStack;
  }
  return new Highlighted(text, lines);
}
