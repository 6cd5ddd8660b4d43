// Open documents and their analyses. Analysis runs in steps after a short pause in typing; a
// newer edit abandons the steps of an older one, and a request analyses at once if it must.
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { analyzeSteps } from "../../core/src/ide/analyze.js";
import type { RunValues } from "../../core/src/ide/run-values.js";

/** Pause after an edit before analysing, so a burst of keystrokes is analysed once. */
export const DEBOUNCE_MS = 60;

interface Entry {
  doc: TextDocument;
  analysis?: Analysis;
  analysedVersion: number;
  timer?: NodeJS.Timeout;
  /** Bumped on each edit; running steps stop when it changes. */
  generation: number;
  run?: { version: number; values: RunValues };
  runAbort?: AbortController;
}

export class Workspace {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly onAnalysed: (uri: string, version: number, a: Analysis) => void,
    private readonly onError: (uri: string, e: unknown) => void,
  ) {}

  open(uri: string, languageId: string, version: number, text: string): void {
    this.close(uri);
    const entry: Entry = { doc: TextDocument.create(uri, languageId, version, text), analysedVersion: -1, generation: 0 };
    this.entries.set(uri, entry);
    this.schedule(entry, 0);
  }

  change(uri: string, version: number, changes: Parameters<typeof TextDocument.update>[1]): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    entry.doc = TextDocument.update(entry.doc, changes, version);
    entry.generation++;
    // A stale run is worthless once the text moved on.
    entry.runAbort?.abort();
    this.schedule(entry, DEBOUNCE_MS);
  }

  close(uri: string): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.runAbort?.abort();
    entry.generation++;
    this.entries.delete(uri);
  }

  uris(): string[] {
    return [...this.entries.keys()];
  }

  document(uri: string): TextDocument | undefined {
    return this.entries.get(uri)?.doc;
  }

  /** The analysis of the current text, computed now if the scheduled one has not finished. */
  analysis(uri: string): Analysis | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    if (entry.analysedVersion !== entry.doc.version || !entry.analysis) {
      const steps = analyzeSteps(entry.doc.getText());
      let r = steps.next();
      while (!r.done) r = steps.next();
      this.store(entry, r.value, entry.doc.version);
    }
    return entry.analysis;
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
    if (entry.analysis && entry.analysedVersion === version) entry.analysis = { ...entry.analysis, run: values };
  }

  private schedule(entry: Entry, delay: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.runSteps(entry);
    }, delay);
  }

  /** Runs the analysis one stage per macrotask, giving newer edits and requests a turn. */
  private runSteps(entry: Entry): void {
    const generation = entry.generation;
    const version = entry.doc.version;
    const steps = analyzeSteps(entry.doc.getText());
    const step = (): void => {
      if (entry.generation !== generation || !this.entries.has(entry.doc.uri)) return;
      if (entry.analysedVersion === version && entry.analysis) {
        // A request already analysed this version synchronously.
        this.onAnalysed(entry.doc.uri, version, entry.analysis);
        return;
      }
      try {
        const r = steps.next();
        if (!r.done) {
          setImmediate(step);
          return;
        }
        this.store(entry, r.value, version);
        this.onAnalysed(entry.doc.uri, version, r.value);
      } catch (e) {
        this.onError(entry.doc.uri, e);
      }
    };
    step();
  }

  private store(entry: Entry, analysis: Analysis, version: number): void {
    const run = entry.run?.version === version ? entry.run.values : undefined;
    entry.analysis = run ? { ...analysis, run } : analysis;
    entry.analysedVersion = version;
  }
}
