// Whole-document results (semantic tokens, folds, the outline, code lenses) kept per document
// version: asked again for the same text they are answered from memory; after an edit inside
// one statement the tokens and folds of the previous version are carried across it and only
// that statement is walked again. Semantic tokens also answer `full/delta` from the last result.
import type { DocumentSymbol, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit } from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { foldingRanges, updatedFolds, type Fold } from "../../core/src/ide/folding.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { semanticTokens, updatedTokens, type SemanticToken } from "../../core/src/ide/semantic-tokens.js";
import type { Spliced } from "../../core/src/ide/text-change.js";
import { encodeSemanticTokens, spliceEncodedTokens } from "./convert.js";
import { outlineSymbols, type ConvertedOutline } from "./outline-symbols.js";
import type { Workspace } from "./workspace.js";

/** The encoded tokens and the id a `full/delta` request refers to them by. */
interface Encoded {
  readonly data: Uint32Array;
  readonly resultId: string;
}

interface Cached {
  readonly version: number;
  readonly text: string;
  tokens?: SemanticToken[];
  /** How `tokens` were made from the previous entry's, when they were carried across the edit. */
  tokensSplice?: Spliced<SemanticToken> | undefined;
  encoded?: Encoded;
  folds?: Fold[];
  outline?: ConvertedOutline;
  /** The entry of the version before, whose results the first requests for this one carry across the edit. */
  previous?: Cached | undefined;
}

let nextResultId = 1;

export class DocumentFeatures {
  private readonly cache = new Map<string, Cached>();
  /** The encoded tokens last sent per document, by result id (one kept: the client sends the last). */
  private readonly sent = new Map<string, Encoded>();

  /** How many outline items and folding ranges a client takes (from its settings and capabilities). */
  limits = { outline: Infinity, folds: Infinity };

  constructor(private readonly workspace: Workspace) {}

  /** True when some result for the document is kept (an edit can carry it across). */
  has(uri: string): boolean {
    return this.cache.has(uri);
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.sent.delete(uri);
  }

  /** The cache entry for `a`, which is the analysis of the document's version `version`. */
  private entry(uri: string, a: Analysis, version: number): { now: Cached; before?: Cached } {
    const cached = this.cache.get(uri);
    if (cached && cached.version === version && cached.text === a.text) return cached.previous ? { now: cached, before: cached.previous } : { now: cached };
    // One version back is kept, no more: each feature carries its result from there.
    const now: Cached = cached ? { version, text: a.text, previous: { ...cached, previous: undefined } } : { version, text: a.text };
    this.cache.set(uri, now);
    return now.previous ? { now, before: now.previous } : { now };
  }

  private carried<T, R = T>(
    uri: string,
    before: Cached | undefined,
    version: number,
    old: T | undefined,
    update: (old: T, change: NonNullable<ReturnType<Workspace["changesBetween"]>>) => R | undefined,
  ): R | undefined {
    if (!before || old === undefined) return undefined;
    const change = this.workspace.changesBetween(uri, before.version, version);
    return change ? update(old, change) : undefined;
  }

  tokens(uri: string, a: Analysis, version: number): SemanticToken[] {
    const { now, before } = this.entry(uri, a, version);
    if (!now.tokens) {
      now.tokensSplice = this.carried(uri, before, version, before?.tokens, (old, change) => updatedTokens(a, old, change));
      now.tokens = now.tokensSplice?.items ?? semanticTokens(a);
    }
    return now.tokens;
  }

  /** The current encoding, kept as the one sent: a later `full/delta` is relative to it. */
  private encoded(uri: string, a: Analysis, version: number): Encoded {
    const tokens = this.tokens(uri, a, version);
    const now = this.cache.get(uri)!;
    if (!now.encoded) {
      // Carried tokens are encoded from the last encoding: only the edited statement's change.
      const old = now.tokensSplice && now.previous?.encoded?.data;
      const data = (old && spliceEncodedTokens(old, a.lines, now.tokensSplice!, a.text)) ?? encodeSemanticTokens(a.lines, tokens, a.text);
      now.encoded = { data, resultId: String(nextResultId++) };
    }
    this.sent.set(uri, now.encoded);
    return now.encoded;
  }

  full(uri: string, a: Analysis, version: number): SemanticTokens {
    const encoded = this.encoded(uri, a, version);
    return { resultId: encoded.resultId, data: Array.from(encoded.data) };
  }

  /** The edit from the result the client has to the current one, or the full result. */
  delta(uri: string, a: Analysis, version: number, previousResultId: string): SemanticTokens | SemanticTokensDelta {
    const previous = this.sent.get(uri);
    if (!previous || previous.resultId !== previousResultId) return this.full(uri, a, version);
    const encoded = this.encoded(uri, a, version);
    return { resultId: encoded.resultId, edits: diff(previous.data, encoded.data) };
  }

  folds(uri: string, a: Analysis, version: number): Fold[] {
    const { now, before } = this.entry(uri, a, version);
    now.folds ??= this.carried(uri, before, version, before?.folds, (old, change) => updatedFolds(a, old, change)) ?? foldingRanges(a);
    // The first ones by place: a client that took no more would drop the rest itself.
    return now.folds.length > this.limits.folds ? now.folds.slice(0, this.limits.folds) : now.folds;
  }

  outline(uri: string, a: Analysis, version: number): DocumentSymbol[] {
    const { now, before } = this.entry(uri, a, version);
    if (!now.outline) {
      const items = documentOutline(a, this.limits.outline);
      const symbols =
        this.carried(uri, before, version, before?.outline, (old, change) => outlineSymbols(a.lines, a.text, items, old, change)) ??
        outlineSymbols(a.lines, a.text, items);
      now.outline = { text: a.text, items, symbols };
    }
    return now.outline.symbols;
  }
}

/** One edit that turns `before` into `after`: what lies between their common ends. */
function diff(before: Uint32Array, after: Uint32Array): SemanticTokensEdit[] {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before[start] === after[start]) start++;
  let end = 0;
  while (end < max - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  if (start === before.length && start === after.length) return [];
  // Tokens are 5 numbers: keep the edit on token boundaries, as clients expect.
  start -= start % 5;
  end -= end % 5;
  return [{ start, deleteCount: before.length - end - start, data: Array.from(after.subarray(start, after.length - end)) }];
}
