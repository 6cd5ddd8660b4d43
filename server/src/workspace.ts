// Open documents and their analyses. Analysis runs in steps after a short pause in typing; a
// newer edit abandons the steps of an older one, and a request analyses at once if it must.
// Right after parsing, an early set of diagnostics goes out: the new syntax diagnostics plus
// the last full analysis's semantic ones carried across the edits; the full set follows.
// A single edit inside one node statement reuses the last complete analysis (incremental.ts),
// whose checks go out as soon as they are done, before inference.
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { analyzeSteps } from "../../core/src/ide/analyze.js";
import { isConsumed, reanalyzeSteps } from "../../core/src/ide/incremental.js";
import { composeChanges } from "../../core/src/ide/text-change.js";
import type { RunValues } from "../../core/src/ide/run-values.js";
import { movedDiagnostic, shiftDiagnostics, type TextChange } from "../../core/src/ide/shift-diagnostics.js";
import { statementSyntaxCheck } from "../../core/src/ide/statement-check.js";
import { Superseded } from "./slices.js";
import { symbolIndexInSlices } from "./symbol-index.js";

/** Pause after an edit before analysing, so a burst of keystrokes is analysed once. */
const DEBOUNCE_MS = 60;

/** How long background analysis waits for requests to be answered and sent before it goes on anyway. */
const MAX_OUTPUT_WAIT_MS = 200;

/** Quiet time after the full diagnostics before the symbol index is built in advance. */
const SYMBOLS_DELAY_MS = 150;

/** "syntax": the parse and the symbol index suffice; "full": types, checks and the model too. */
export type Need = "syntax" | "full";

interface Entry {
  doc: TextDocument;
  /** The newest analysis and the version it belongs to. */
  analysis?: Analysis;
  analysedVersion: number;
  /** The last complete analysis (an edit may reuse its tree and model). */
  lastComplete?: Analysis;
  /** Its semantic diagnostics, copied: carried across edits while the next analysis runs. */
  lastSemantic: Diagnostic[];
  /** Edits since `lastComplete`'s text; undefined when one could not be mapped. */
  changes: TextChange[] | undefined;
  timer?: NodeJS.Timeout | undefined;
  /** The analysis in progress, shared by the background steps and synchronous requests. */
  steps?: { version: number; gen: Generator<Analysis | undefined, Analysis, void>; incremental: boolean; progress: Progress };
  /** Bumped on each edit; running steps stop when it changes. */
  generation: number;
  run?: { version: number; values: RunValues };
  runAbort?: AbortController;
  /** The version whose full diagnostics were last published. */
  publishedVersion: number;
  /** Requests waiting for the full analysis of the current text. */
  waiters: ((a: Analysis | undefined) => void)[];
  /** Requests waiting for any analysis (the parse at least) of the current text. */
  syntaxWaiters: ((a: Analysis | undefined) => void)[];
  /** The last complete analysis that parsed cleanly: a later edit inside one of its statements re-analyses that statement only. */
  base?: Analysis;
  /** Edits since `base`'s text; undefined when one could not be mapped. */
  baseChanges: TextChange[] | undefined;
  /** The last edits, by the version they produced, for carrying results across them. */
  history: { from: number; version: number; change: TextChange | undefined }[];
  /** An incremental analysis of an older version being run to its end (see finishStale). */
  finishing?: Promise<void> | undefined;
}

/** Texts up to this many characters (a ResNet-50 is about 110k) are analysed at once when a request needs it. */
const SMALL_TEXT = 256 * 1024;

/** How many edits `changesBetween` can look back. */
const HISTORY = 64;

type RangedChange = Extract<TextDocumentContentChangeEvent, { range: unknown }>;

function isRanged(c: TextDocumentContentChangeEvent): c is RangedChange {
  return "range" in c && c.range !== undefined;
}

/** Whether an analysis's steps have started and ended. */
interface Progress {
  started: boolean;
  done: boolean;
}

/** `gen`, noting in `progress` when it starts and ends. */
function* tracked<Y, R>(gen: Generator<Y, R, void>, progress: Progress): Generator<Y, R, void> {
  progress.started = true;
  const r = yield* gen;
  progress.done = true;
  return r;
}

type Publish = (uri: string, version: number, lines: Analysis["lines"], diagnostics: readonly Diagnostic[]) => void;

export class Workspace {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly publish: Publish,
    private readonly onError: (uri: string, e: unknown) => void,
    /** Whether requests are being answered or their responses are on their way: background steps wait meanwhile. */
    private readonly answering: () => boolean = () => false,
  ) {}

  open(uri: string, languageId: string, version: number, text: string): void {
    this.close(uri);
    const entry: Entry = {
      doc: TextDocument.create(uri, languageId, version, text),
      analysedVersion: -1,
      generation: 0,
      changes: undefined,
      waiters: [],
      syntaxWaiters: [],
      publishedVersion: -1,
      lastSemantic: [],
      baseChanges: undefined,
      history: [],
    };
    this.entries.set(uri, entry);
    this.schedule(entry, 0);
  }

  change(uri: string, version: number, changes: readonly TextDocumentContentChangeEvent[]): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    const before = entry.analysedVersion === entry.doc.version ? entry.analysis : undefined;
    const single = changes.length === 1 ? changes[0] : undefined;
    const singleChange =
      single && isRanged(single)
        ? { start: entry.doc.offsetAt(single.range.start), end: entry.doc.offsetAt(single.range.end), newLength: single.text.length }
        : undefined;
    const from = entry.doc.version;
    const applied: TextChange[] = [];
    let mapped = true;
    for (const c of changes) {
      const change = isRanged(c) ? { start: entry.doc.offsetAt(c.range.start), end: entry.doc.offsetAt(c.range.end), newLength: c.text.length } : undefined;
      if (change) {
        entry.changes?.push(change);
        entry.baseChanges?.push(change);
        applied.push(change);
      } else {
        entry.changes = undefined;
        entry.baseChanges = undefined;
        mapped = false;
      }
      entry.doc = TextDocument.update(entry.doc, [c], version);
    }
    entry.history.push({ from, version, change: mapped ? composeChanges(applied) : undefined });
    if (entry.history.length > HISTORY) entry.history.splice(0, entry.history.length - HISTORY);
    entry.generation++;
    // An incremental analysis under way has taken over the last one's tree: it is finished
    // (the newer edit's analysis waits for it and splices into it).
    const overtaken = entry.steps;
    if (overtaken?.incremental && overtaken.version === from && overtaken.progress.started && !overtaken.progress.done && !entry.finishing)
      this.finishStale(entry, overtaken.gen, overtaken.version);
    // A stale run is worthless once the text moved on.
    entry.runAbort?.abort();
    if (before && singleChange) this.publishStatementCheck(entry, before, singleChange);
    this.schedule(entry, DEBOUNCE_MS);
  }

  /** Diagnostics right after a keystroke: the edited statement's syntax plus carried ones. */
  private publishStatementCheck(entry: Entry, before: Analysis, change: TextChange): void {
    const text = entry.doc.getText();
    const syntax = statementSyntaxCheck(before, change, text);
    if (!syntax) return;
    const carried = entry.changes ? shiftDiagnostics(entry.lastSemantic, entry.changes) : [];
    this.publish(entry.doc.uri, entry.doc.version, before.lines.edited(text, change), [...syntax, ...carried]);
  }

  close(uri: string): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.runAbort?.abort();
    entry.generation++;
    this.entries.delete(uri);
    for (const w of entry.waiters.splice(0)) w(undefined);
    for (const w of entry.syntaxWaiters.splice(0)) w(undefined);
  }

  /** The complete analysis of the current text if it is ready (never computes). */
  ready(uri: string): Analysis | undefined {
    const entry = this.entries.get(uri);
    return entry && entry.analysedVersion === entry.doc.version && entry.analysis?.complete ? entry.analysis : undefined;
  }

  /**
   * The current text's parse when it was spliced into the last analysis's tree (incremental.ts),
   * which answers with the last types until inference has run (never computes).
   */
  spliced(uri: string): Analysis | undefined {
    const entry = this.entries.get(uri);
    const current = entry && entry.analysedVersion === entry.doc.version && entry.steps?.version === entry.doc.version;
    return current && entry.steps?.incremental ? entry.analysis : undefined;
  }

  /** The version of the open document, or undefined. */
  version(uri: string): number | undefined {
    return this.entries.get(uri)?.doc.version;
  }

  /**
   * The edits from version `from` to version `to` folded into one replacement (see
   * composeChanges): null when the texts are the same, undefined when not known.
   */
  changesBetween(uri: string, from: number, to: number): TextChange | null | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    if (from === to) return null;
    const changes: TextChange[] = [];
    let at = from;
    for (const h of entry.history) {
      if (h.from !== at) continue;
      if (!h.change) return undefined;
      changes.push(h.change);
      at = h.version;
      if (at === to) break;
    }
    if (at !== to) return undefined;
    return composeChanges(changes) ?? null;
  }

  /**
   * An analysis of the current text with the parse at least, without blocking: it resolves
   * when the analysis after the typing pause gets there (so a request never parses the whole
   * text in its own turn, holding up the position requests queued behind it); undefined if
   * the document closes.
   */
  syntaxAnalysis(uri: string): Promise<Analysis | undefined> {
    const entry = this.entries.get(uri);
    if (!entry) return Promise.resolve(undefined);
    if (entry.analysedVersion === entry.doc.version && entry.analysis) return Promise.resolve(entry.analysis);
    const waiting = new Promise<Analysis | undefined>((resolve) => entry.syntaxWaiters.push(resolve));
    // An edit inside one statement is parsed in a moment however long the text. (While an older
    // incremental analysis finishes, its steps are not made yet: they may splice into it.)
    if (entry.doc.getText().length <= SMALL_TEXT || (!entry.finishing && this.stepsFor(entry).incremental)) this.hurry(entry);
    else void entry.finishing?.then(() => this.stepsFor(entry).incremental && this.hurry(entry));
    return waiting;
  }

  /**
   * The newest complete analysis and the edits made since its text (folded into one), for
   * answering a position request at once while the current text is analysed; undefined when
   * there is none or its tree already belongs to a newer text.
   */
  lastComplete(uri: string): { analysis: Analysis; change: TextChange | null } | undefined {
    const entry = this.entries.get(uri);
    const a = entry?.lastComplete;
    if (!entry || !a || !entry.changes || isConsumed(a)) return undefined;
    const change = composeChanges(entry.changes) ?? null;
    return { analysis: a, change };
  }

  uris(): string[] {
    return [...this.entries.keys()];
  }

  document(uri: string): TextDocument | undefined {
    return this.entries.get(uri)?.doc;
  }

  /**
   * The full analysis of the current text, without blocking: resolves when the background
   * analysis finishes (with a newer text's analysis if the document changed meanwhile).
   */
  fullAnalysis(uri: string): Promise<Analysis | undefined> {
    const entry = this.entries.get(uri);
    if (!entry) return Promise.resolve(undefined);
    if (entry.analysedVersion === entry.doc.version && entry.analysis?.complete) return Promise.resolve(entry.analysis);
    const waiting = new Promise<Analysis | undefined>((resolve) => entry.waiters.push(resolve));
    // A small text is analysed in a few milliseconds: no need to wait out the typing pause.
    if (entry.doc.getText().length <= SMALL_TEXT) this.hurry(entry);
    return waiting;
  }

  /** An analysis of the current text that meets `need`, computed now if none is ready. */
  analysis(uri: string, need: Need = "full"): Analysis | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    const version = entry.doc.version;
    const current = entry.analysedVersion === version ? entry.analysis : undefined;
    if (current && (current.complete || need === "syntax")) return current;
    // Continue the analysis in progress for this version rather than starting over.
    const { gen } = this.stepsFor(entry);
    for (;;) {
      const r = gen.next();
      if (r.done) {
        this.store(entry, r.value, version);
        return entry.analysis;
      }
      if (r.value) {
        this.store(entry, r.value, version);
        if (need === "syntax") return entry.analysis;
      }
    }
  }

  private stepsFor(entry: Entry): { gen: Generator<Analysis | undefined, Analysis, void>; incremental: boolean } {
    if (entry.steps?.version !== entry.doc.version) {
      const { gen, incremental } = this.newSteps(entry);
      const progress = { started: false, done: false };
      entry.steps = { version: entry.doc.version, gen: tracked(gen, progress), incremental, progress };
    }
    return entry.steps;
  }

  /**
   * Edits that, folded together, stay inside one statement of the last clean analysis: splice
   * them into that one (so restoring a `(` just deleted re-analyses one statement, not all).
   */
  private newSteps(entry: Entry): { gen: Generator<Analysis | undefined, Analysis, void>; incremental: boolean } {
    const text = entry.doc.getText();
    const base = entry.base;
    const change = entry.baseChanges && composeChanges(entry.baseChanges);
    const spliced = base && change && reanalyzeSteps(base, change, text);
    return spliced ? { gen: spliced, incremental: true } : { gen: analyzeSteps(text), incremental: false };
  }

  /** Starts a run for the current version; a later edit aborts its signal. */
  beginRun(uri: string): { signal: AbortSignal; version: number } | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    entry.runAbort?.abort();
    entry.runAbort = new AbortController();
    return { signal: entry.runAbort.signal, version: entry.doc.version };
  }

  /** Keeps the values of a finished run, if the text has not changed since it started. */
  recordRun(uri: string, version: number, values: RunValues): void {
    const entry = this.entries.get(uri);
    if (!entry || entry.doc.version !== version) return;
    entry.run = { version, values };
    if (entry.analysis && entry.analysedVersion === version) entry.analysis = entry.analysis.withRun(values);
  }

  /** Starts a pending analysis now instead of after the typing pause. */
  private hurry(entry: Entry): void {
    if (!entry.timer) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    this.runSteps(entry);
  }

  private schedule(entry: Entry, delay: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.runSteps(entry);
    }, delay);
  }

  /** Runs the analysis one step per macrotask (a stage, or a slice of one: analyze.ts), giving newer edits and requests a turn. */
  private runSteps(entry: Entry): void {
    if (entry.finishing) {
      void entry.finishing.then(() => this.runSteps(entry));
      return;
    }
    const generation = entry.generation;
    const version = entry.doc.version;
    const uri = entry.doc.uri;
    const steps = this.stepsFor(entry).gen;
    let early = false;
    let waitedSince: number | undefined;
    const step = (): void => {
      if (!this.entries.has(uri)) return;
      // A newer edit: the steps stop here (change() has them finished if they are incremental).
      if (entry.generation !== generation) return;
      // Responses first, unless a request waits for this analysis (or the client stopped reading).
      if (this.answering() && entry.waiters.length === 0 && entry.syntaxWaiters.length === 0) {
        waitedSince ??= performance.now();
        if (performance.now() - waitedSince < MAX_OUTPUT_WAIT_MS) {
          setTimeout(step, 1);
          return;
        }
      }
      waitedSince = undefined;
      try {
        if (entry.analysedVersion === version && entry.analysis?.complete) {
          // A request finished this version's analysis.
          this.publishComplete(entry, entry.analysis, version);
          return;
        }
        if (!early && entry.analysedVersion === version && entry.analysis) {
          // A request got this version's early snapshot first.
          early = true;
          this.publishEarly(entry, entry.analysis, version);
        }
        const r = steps.next();
        if (r.done) {
          this.store(entry, r.value, version);
          this.publishComplete(entry, r.value, version);
          // Build the symbol index once typing pauses, so requests find it ready but a
          // keystroke right after the diagnostics is not held up by it.
          // In slices: a keystroke or hover meanwhile is not held up by it either.
          const ast = r.value.ast;
          setTimeout(() => {
            if (entry.generation !== generation || !ast) return;
            symbolIndexInSlices(ast, { stale: () => entry.generation !== generation, hold: this.answering }).catch((e: unknown) => {
              if (!(e instanceof Superseded)) this.onError(uri, e);
            });
          }, SYMBOLS_DELAY_MS);
          return;
        }
        if (r.value) {
          this.store(entry, r.value, version);
          if (!early) {
            early = true;
            this.publishEarly(entry, r.value, version);
          }
          // A later snapshot has an incremental analysis's checks, while inference runs on: they replace the carried ones.
          else this.publish(entry.doc.uri, version, r.value.lines, r.value.diagnostics);
        }
        setImmediate(step);
      } catch (e) {
        this.onError(uri, e);
        for (const w of entry.waiters.splice(0)) w(undefined);
        for (const w of entry.syntaxWaiters.splice(0)) w(undefined);
      }
    };
    step();
  }

  /**
   * Runs an incremental analysis that a newer edit overtook to its end (a few steps of
   * re-inference): its tree is the last analysis's, taken over, so without it the newer edit
   * could not splice into any tree and would parse the whole text again (an undo right after
   * a typo on a 50k-node document: half a second with the event loop held). The newer
   * version's analysis waits for it (runSteps); then it is the base the newer edits splice into.
   */
  private finishStale(entry: Entry, steps: Generator<Analysis | undefined, Analysis, void>, version: number): void {
    const uri = entry.doc.uri;
    const done = new Promise<void>((resolve) => {
      const step = (): void => {
        if (!this.entries.has(uri)) return resolve();
        try {
          const r = steps.next();
          if (!r.done) {
            setImmediate(step);
            return;
          }
          this.adoptStale(entry, r.value, version);
        } catch (e) {
          this.onError(uri, e);
        }
        resolve();
      };
      // Not in the turn of the edit that overtook it: its own diagnostics go out first.
      setImmediate(step);
    });
    entry.finishing = done;
    void done.then(() => {
      if (entry.finishing === done) entry.finishing = undefined;
    });
  }

  /** A complete analysis of an older version: the base and last complete analysis, with the edits since mapped. */
  private adoptStale(entry: Entry, a: Analysis, version: number): void {
    // Steps already made for the current text (a request that could not wait) keep their own start.
    if (!a.complete || entry.steps?.version === entry.doc.version) return;
    const change = this.changesBetween(entry.doc.uri, version, entry.doc.version);
    if (change === undefined) return;
    const since = change ? [change] : [];
    if (a.syntaxCount === 0 && a.model) {
      entry.base = a;
      entry.baseChanges = [...since];
    }
    entry.lastComplete = a;
    entry.lastSemantic = a.diagnostics.slice(a.syntaxCount).map((d) => (d.span ? movedDiagnostic(d, d.span, (s) => ({ ...s }))! : d));
    entry.changes = [...since];
  }

  private publishEarly(entry: Entry, partial: Analysis, version: number): void {
    const carried = entry.changes ? shiftDiagnostics(entry.lastSemantic, entry.changes) : [];
    this.publish(entry.doc.uri, version, partial.lines, [...partial.diagnostics, ...carried]);
  }

  private publishComplete(entry: Entry, a: Analysis, version: number): void {
    if (entry.publishedVersion === version) return;
    entry.publishedVersion = version;
    this.publish(entry.doc.uri, version, a.lines, a.diagnostics);
  }

  private store(entry: Entry, analysis: Analysis, version: number): void {
    const run = entry.run?.version === version ? entry.run.values : undefined;
    entry.analysis = run ? analysis.withRun(run) : analysis;
    entry.analysedVersion = version;
    if (version === entry.doc.version) for (const w of entry.syntaxWaiters.splice(0)) w(entry.analysis);
    if (analysis.complete && version === entry.doc.version) {
      if (analysis.syntaxCount === 0 && analysis.model) {
        entry.base = analysis;
        entry.baseChanges = [];
      }
      entry.lastComplete = analysis;
      // A copy: an incremental analysis moves the spans of the tree these point into.
      entry.lastSemantic = analysis.diagnostics.slice(analysis.syntaxCount).map((d) => (d.span ? movedDiagnostic(d, d.span, (s) => ({ ...s }))! : d));
      entry.changes = [];
      // Whoever finished the analysis (the background steps or a request), its diagnostics
      // go out before any waiting request is answered.
      this.publishComplete(entry, analysis, version);
      for (const w of entry.waiters.splice(0)) w(entry.analysis);
    }
  }
}
