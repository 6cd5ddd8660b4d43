// `check --fix`: applies the editor's quick fixes to a whole text, round after round until no
// applicable fix is left (a fix can reveal another: a quoted name then resolves). Which fixes
// apply is decided by their safety (code-actions.ts) and, when the caller says which diagnostics
// it reports (a configuration, suppressions, `--ignore`), by whether the diagnostic a fix answers
// is one of them. Edits replace only their spans, so every comment outside them stays as written.
import { LineIndex } from "../../../grammar/src/line-index.js";
import { overlaps, type Span } from "../../../grammar/src/span.js";
import type { Diagnostic } from "../diagnostics.js";
import { analyze } from "./analyze.js";
import { type ClassifiedAction, classifiedCodeActions } from "./code-actions.js";
import { fixAnswers } from "./reported-fixes.js";
import type { TextEdit } from "./text-edit.js";

export interface AppliedFix {
  /** The code of the diagnostic fixed, when the fix answers one. */
  readonly code?: string;
  readonly title: string;
  /** 1-based, in the text as it was in the round the fix was applied (round 1: the input). */
  readonly line: number;
  readonly column: number;
}

export interface FixResult {
  readonly text: string;
  readonly applied: AppliedFix[];
}

/** More rounds than any chain of fixes needs; a fix that undoes another would otherwise loop. */
const MAX_ROUNDS = 10;

export interface FixOptions {
  /** Also the fixes that guess an intent, change versions or the declared interface (`--unsafe-fixes`). */
  readonly unsafe?: boolean;
  /**
   * The diagnostics of `text` the caller reports (`check` applies the configuration and the
   * suppressions to them): a fix of any other diagnostic is left unapplied. Without it, all are.
   */
  readonly reported?: (text: string, diagnostics: readonly Diagnostic[]) => readonly Diagnostic[];
}

export function fixAll(text: string, options: FixOptions = {}): FixResult {
  const applied: AppliedFix[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const chosen = chooseFixes(text, options);
    if (chosen.length === 0) break;
    const lines = new LineIndex(text);
    for (const { action, code } of chosen) {
      const at = lines.position(action.fixes?.start ?? action.edits[0]!.span.start);
      applied.push({ ...(code !== undefined && { code }), title: action.title, line: at.line + 1, column: at.character + 1 });
    }
    text = applyEdits(
      text,
      chosen.flatMap((c) => c.action.edits),
    );
  }
  return { text, applied };
}

const touches = (a: Span, b: Span): boolean => overlaps(a, b) || a.start === b.start || a.end === b.start || b.end === a.start;

/** One applicable fix per diagnostic (the first offered: the closest name), none of whose edits touch another's. */
function chooseFixes(text: string, options: FixOptions): { action: ClassifiedAction; code: string | undefined }[] {
  const unsafe = options.unsafe ?? false;
  const a = analyze(text);
  const { answered: answeredDiagnostic, isReported } = fixAnswers(a.diagnostics, options.reported?.(text, a.diagnostics));
  const actions = classifiedCodeActions(a, { start: 0, end: text.length }).filter(
    (x) =>
      x.kind === "quickfix" &&
      !x.disabled &&
      x.edits.length > 0 &&
      (x.safety === "safe" || (unsafe && x.safety === "unsafe")) &&
      (!x.fixes || isReported(x.fixes)),
  );
  const taken: TextEdit[] = [];
  const answered = new Set<number>();
  const out: { action: ClassifiedAction; code: string | undefined }[] = [];
  // Fixes of diagnostics first; the others (declaring inferred types) only once those are done,
  // when inference sees the repaired graph.
  const answering = actions.filter((x) => x.fixes);
  for (const action of answering.length > 0 ? answering : actions) {
    if (action.fixes && answered.has(action.fixes.start)) continue;
    if (action.edits.some((e) => taken.some((t) => touches(e.span, t.span)))) continue;
    if (action.fixes) answered.add(action.fixes.start);
    taken.push(...action.edits);
    out.push({ action, code: action.fixes && answeredDiagnostic(action.fixes)?.code });
  }
  return out;
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((x, y) => y.span.start - x.span.start)) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
