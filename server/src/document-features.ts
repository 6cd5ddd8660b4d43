// Whole-document results (semantic tokens, folds, the outline, code lenses) kept per document
// version: asked again for the same text they are answered from memory; after an edit inside
// one statement the tokens and folds of the previous version are carried across it and only
// that statement is walked again. Semantic tokens also answer `full/delta` from the last result.
// What is computed afresh runs in slices (slices.ts), so that position requests are answered
// in between; requests for the same result share one computation.
import type { DocumentSymbol, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit } from "vscode-languageserver";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { foldingRangeSteps, updatedFolds, type Fold } from "../../core/src/ide/folding.js";
import { documentOutlineSteps } from "../../core/src/ide/outline.js";
import { semanticTokenSteps, updatedTokens, type SemanticToken } from "../../core/src/ide/semantic-tokens.js";
import type { Spliced } from "../../core/src/ide/text-change.js";
import { encodeSemanticTokenSteps, numberArraySteps, spliceEncodedTokens } from "./convert.js";
import { outlineSymbolSteps, type ConvertedOutline } from "./outline-symbols.js";
import { pause, runSliced, Superseded, type SliceOptions } from "./slices.js";
import { symbolIndexInSlices } from "./symbol-index.js";
import type { HeldRequests } from "./priority.js";
import type { Workspace } from "./workspace.js";

/** The encoded tokens and the id a `full/delta` request refers to them by. */
interface Encoded {
  readonly data: Uint32Array;
  readonly resultId: string;
  /** `data` as the plain array a full response carries, once one was asked for; `plain` once made. */
  array?: Promise<number[]>;
  plain?: number[];
}

interface Cached {
  readonly version: number;
  readonly text: string;
  /** The results being computed, by field name; each goes into its field once done. */
  readonly running: Map<string, Promise<unknown>>;
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

  /** The outline requests being answered, by document (answeringOutline). */
  private readonly outlinesAnswering = new Map<string, Set<Promise<unknown>>>();

  /** How many outline items and folding ranges a client takes (from its settings and capabilities). */
  limits = { outline: Infinity, folds: Infinity };

  /** `wait`: what the slices and the gaps between stages wait for (position requests, messages just read). */
  constructor(
    private readonly workspace: Workspace,
    private readonly wait: Omit<SliceOptions, "stale"> = {},
    /** The requests the message order holds back (priority.ts): an outline among them is waited for too. */
    private readonly held?: HeldRequests,
  ) {}

  /** Runs `steps` in slices; they stop (rejecting with Superseded) once the document is past `version`. */
  private sliced<T>(uri: string, version: number, steps: Iterator<unknown, T, undefined>): Promise<T> {
    return runSliced(steps, this.sliceOptions(uri, version));
  }

  /**
   * A gap between two unsliced stages (carrying tokens across an edit, encoding them, the plain
   * array, writing a response: each a few milliseconds on a big document, chained by awaits that
   * let no message in), in which position requests read meanwhile are answered first.
   */
  private async gap(uri: string, version: number): Promise<void> {
    // Two pauses, though one already waits for a message read during it to be handed over
    // (arrivals): the second gives a hover on its way one more poll before the next stage. The
    // keystroke bench's "hover during work" median is 7-11 ms with it, 14-23 ms without.
    await pause(this.sliceOptions(uri, version));
    await pause(this.sliceOptions(uri, version));
  }

  private sliceOptions(uri: string, version: number): SliceOptions {
    return { stale: () => this.workspace.version(uri) !== version, ...this.wait };
  }

  /**
   * The entry's field `key`, computed by `work()` if not done, once: whoever asks meanwhile
   * shares the computation. A failure is forgotten (the next request tries again).
   */
  private shared<K extends "tokens" | "encoded" | "folds" | "outline">(
    now: Cached,
    key: K,
    work: () => Promise<NonNullable<Cached[K]>>,
  ): Promise<NonNullable<Cached[K]>> {
    type T = NonNullable<Cached[K]>;
    const done = now[key];
    if (done !== undefined) return Promise.resolve(done as T);
    const running = now.running.get(key) as Promise<T> | undefined;
    if (running) return running;
    const p = work().then(
      (r) => {
        now[key] = r as Cached[K];
        now.running.delete(key);
        return r;
      },
      (e: unknown) => {
        now.running.delete(key);
        throw e;
      },
    );
    now.running.set(key, p);
    return p;
  }

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
    // A request whose text was replaced meanwhile stops here (after an await): its entry would replace the newer one.
    if (this.workspace.version(uri) !== version) throw new Superseded();
    const cached = this.cache.get(uri);
    if (cached && cached.version === version && cached.text === a.text) return cached.previous ? { now: cached, before: cached.previous } : { now: cached };
    // One version back is kept, no more: each feature carries its result from there.
    const now: Cached = cached
      ? { version, text: a.text, running: new Map(), previous: { ...cached, running: new Map(), previous: undefined } }
      : { version, text: a.text, running: new Map() };
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

  tokens(uri: string, a: Analysis, version: number): Promise<SemanticToken[]> {
    const { now, before } = this.entry(uri, a, version);
    return this.shared(now, "tokens", async () => {
      now.tokensSplice = this.carried(uri, before, version, before?.tokens, (old, change) => updatedTokens(a, old, change));
      if (now.tokensSplice) return now.tokensSplice.items;
      // The classes of names come from the symbol index: built in slices too, before the walk needs it.
      if (a.ast) await symbolIndexInSlices(a.ast, this.sliceOptions(uri, version));
      return this.sliced(uri, version, semanticTokenSteps(a));
    });
  }

  /** The current encoding, kept as the one sent: a later `full/delta` is relative to it. */
  private async encoded(uri: string, a: Analysis, version: number): Promise<Encoded> {
    const tokens = await this.tokens(uri, a, version);
    const { now } = this.entry(uri, a, version);
    const encoded = await this.shared(now, "encoded", async () => {
      await this.gap(uri, version);
      // Carried tokens are encoded from the last encoding: only the edited statement's change.
      const old = now.tokensSplice && now.previous?.encoded?.data;
      const data =
        (old && spliceEncodedTokens(old, a.lines, now.tokensSplice!, a.text)) ??
        (await this.sliced(uri, version, encodeSemanticTokenSteps(a.lines, tokens, a.text)));
      return { data, resultId: String(nextResultId++) };
    });
    this.sent.set(uri, encoded);
    return encoded;
  }

  async full(uri: string, a: Analysis, version: number): Promise<SemanticTokens> {
    const encoded = await this.encoded(uri, a, version);
    if (!encoded.array) {
      await this.gap(uri, version);
      // After an edit, the last plain array with the changed run replaced: copying the runs
      // before and after it as they are takes a few milliseconds, converting all some thirty.
      const last = this.cache.get(uri)?.previous?.encoded;
      const plain = last?.plain && splicedPlain(last.plain, diff(last.data, encoded.data));
      encoded.array = (plain ? Promise.resolve(plain) : this.sliced(uri, version, numberArraySteps(encoded.data))).then((p) => (encoded.plain = p));
    }
    const data = await encoded.array;
    await this.afterOutline(uri);
    // Megabytes of JSON are written when this returns.
    await this.gap(uri, version);
    return { resultId: encoded.resultId, data };
  }

  /**
   * Waits for the outline requests of `uri` being answered (answeringOutline) and for their
   * responses to go out. VS Code asks for tokens and the outline together, and the priority
   * strategy (priority.ts) dispatches them in one turn, so an outline asked with the tokens is
   * registered by the time they are ready. A full token response is megabytes of JSON written
   * in one block: an outline queued behind it in the pipe reached the client 50-80 ms later (its
   * `documentSymbol` max in bench/lsp-keystrokes went from 102-136 ms to 54-68 ms; the tokens'
   * median from ~62 to ~64-75 ms).
   */
  private async afterOutline(uri: string): Promise<void> {
    // One that arrived a few turns after the tokens may still be held back, not yet registered.
    await this.held?.handedOver("textDocument/documentSymbol", uri);
    const answering = this.outlinesAnswering.get(uri);
    if (answering) await Promise.all(answering);
  }

  /** Runs `answer`, the handling of an outline request for `uri`; full token responses wait for it (afterOutline). */
  answeringOutline<T>(uri: string, answer: () => Promise<T>): Promise<T> {
    const p = answer();
    const set = this.outlinesAnswering.get(uri) ?? new Set<Promise<unknown>>();
    this.outlinesAnswering.set(uri, set);
    // Settled, and a turn later: the response has been written.
    const done: Promise<unknown> = p
      .catch(() => undefined)
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => {
        set.delete(done);
        if (set.size === 0 && this.outlinesAnswering.get(uri) === set) this.outlinesAnswering.delete(uri);
      });
    set.add(done);
    return p;
  }

  /** The edit from the result the client has to the current one, or the full result. */
  async delta(uri: string, a: Analysis, version: number, previousResultId: string): Promise<SemanticTokens | SemanticTokensDelta> {
    const previous = this.sent.get(uri);
    if (!previous || previous.resultId !== previousResultId) return this.full(uri, a, version);
    const encoded = await this.encoded(uri, a, version);
    return { resultId: encoded.resultId, edits: diff(previous.data, encoded.data) };
  }

  async folds(uri: string, a: Analysis, version: number): Promise<Fold[]> {
    const { now, before } = this.entry(uri, a, version);
    const folds = await this.shared(
      now,
      "folds",
      async () =>
        this.carried(uri, before, version, before?.folds, (old, change) => updatedFolds(a, old, change)) ?? this.sliced(uri, version, foldingRangeSteps(a)),
    );
    // The first ones by place: a client that took no more would drop the rest itself.
    return folds.length > this.limits.folds ? folds.slice(0, this.limits.folds) : folds;
  }

  async outline(uri: string, a: Analysis, version: number): Promise<DocumentSymbol[]> {
    const { now, before } = this.entry(uri, a, version);
    const outline = await this.shared(now, "outline", async () => {
      const items = await this.sliced(uri, version, documentOutlineSteps(a, this.limits.outline));
      const change = before?.outline && this.workspace.changesBetween(uri, before.version, version);
      const symbols = await this.sliced(uri, version, outlineSymbolSteps(a.lines, a.text, items, before?.outline, change));
      return { text: a.text, items, symbols };
    });
    await this.gap(uri, version);
    return outline.symbols;
  }
}

/** `plain` with `edits` (from diff) applied, as a new array. */
function splicedPlain(plain: number[], edits: SemanticTokensEdit[]): number[] {
  const e = edits[0];
  return e ? plain.slice(0, e.start).concat(e.data ?? [], plain.slice(e.start + e.deleteCount)) : plain;
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
