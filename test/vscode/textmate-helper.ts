// Tokenizes text with the committed TextMate grammars through vscode-textmate and Oniguruma,
// the same engines VS Code uses, and answers "which scopes are at this offset". Host files
// (Python, C++, Markdown) are tokenized with VS Code's grammars for them and our injections.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import oniguruma from "vscode-oniguruma";
import vsctm from "vscode-textmate";
import { LineIndex } from "../../grammar/src/line-index.js";
import { REPO } from "../helpers/paths.js";

const CLIENT = path.join(REPO, "client-vscode");

/** The host grammars the injection tests load from tm-grammars, VS Code's own grammars. */
const HOST_GRAMMARS: Readonly<Record<string, string>> = {
  "source.python": "python",
  "source.cpp": "cpp",
  "source.cpp.embedded.macro": "cpp-macro",
  "source.c": "c",
  "text.html.markdown": "markdown",
};

interface ManifestGrammar {
  readonly scopeName: string;
  readonly path: string;
  readonly injectTo?: readonly string[];
  readonly embeddedLanguages?: Readonly<Record<string, string>>;
}

/** The `contributes.grammars` of the extension manifest, as VS Code reads them. */
export function manifestGrammars(): ManifestGrammar[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, "package.json"), "utf8")) as { contributes: { grammars: ManifestGrammar[] } };
  return manifest.contributes.grammars;
}

let registryPromise: Promise<vsctm.Registry> | undefined;

async function createRegistry(): Promise<vsctm.Registry> {
  const require = createRequire(import.meta.url);
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  // Ours come from the manifest (the files VS Code would load), the hosts from tm-grammars.
  const ours = manifestGrammars();
  const fileOf = (scope: string): string | undefined => {
    const contributed = ours.find((g) => g.scopeName === scope);
    if (contributed) return path.join(CLIENT, contributed.path);
    const host = HOST_GRAMMARS[scope];
    return host ? require.resolve(`tm-grammars/grammars/${host}.json`) : undefined;
  };
  return new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) => {
      const file = fileOf(scope);
      return file ? vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file) : null;
    },
    getInjections: (scope: string) => ours.filter((g) => g.injectTo?.includes(scope)).map((g) => g.scopeName),
  });
}

/** A grammar by scope name: `source.onnxtxt`, or a host (`source.python`, ...) with our injections. */
export async function grammarFor(scope: string): Promise<vsctm.IGrammar> {
  registryPromise ??= createRegistry();
  const grammar = await (await registryPromise).loadGrammar(scope);
  if (!grammar) throw new Error(`the ${scope} grammar did not load`);
  return grammar;
}

export function onnxtxtGrammar(): Promise<vsctm.IGrammar> {
  return grammarFor("source.onnxtxt");
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

/** Tokenizes `text` with the grammar of `scope` (default: .onnxtxt), line by line as VS Code does. */
export async function highlight(text: string, scope = "source.onnxtxt"): Promise<Highlighted> {
  const grammar = await grammarFor(scope);
  let state = vsctm.INITIAL;
  const lines: ScopedToken[][] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const r = grammar.tokenizeLine(line, state);
    lines.push(r.tokens.map((t) => ({ start: t.startIndex, end: t.endIndex, scopes: t.scopes })));
    state = r.ruleStack;
  }
  return new Highlighted(text, lines);
}
