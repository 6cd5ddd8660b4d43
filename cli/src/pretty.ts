// How diagnostics look on stderr. Piped, they are the machine-readable `FILE:LINE:COL: ...`
// lines and nothing else; on a terminal they get the source line with a caret, colour (unless
// NO_COLOR) and a cap (`--max-errors`). `--color auto|always|never` and `--max-errors N` are
// global flags: main takes them off the command line before a command sees it.
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { formatDiagnostics } from "../../core/src/diagnostic-format.js";
import { UsageError } from "./args.js";
import type { Output } from "./command.js";
import { escapeControls } from "./terminal-text.js";

/** How many diagnostics a terminal shows per file when --max-errors is not given. */
export const DEFAULT_MAX_ERRORS = 50;

export interface DiagnosticStyle {
  readonly color: boolean;
  readonly source: boolean;
  readonly maxErrors?: number;
}

let style: DiagnosticStyle = { color: false, source: false };

/** Removes `--color` and `--max-errors` from `argv` (before any `--`) and sets the style they ask for. */
export function takeDiagnosticFlags(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, terminal: boolean): string[] {
  const rest: string[] = [];
  let color = "auto";
  let maxErrors: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const m = /^--(color|max-errors)(?:=(.*))?$/.exec(arg);
    if (!m) {
      rest.push(arg);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`option '--${m[1]}' needs a value`);
    if (m[1] === "color") color = value;
    else maxErrors = value;
  }
  if (color !== "auto" && color !== "always" && color !== "never") throw new UsageError(`--color must be auto, always or never, not '${color}'`);
  if (maxErrors !== undefined && !/^\d+$/.test(maxErrors)) throw new UsageError(`--max-errors must be a whole number, not '${maxErrors}'`);
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  const colored = color === "always" || (color === "auto" && (forced || (terminal && !noColor)));
  const source = terminal || color === "always";
  const cap = maxErrors !== undefined ? Number(maxErrors) : terminal ? DEFAULT_MAX_ERRORS : undefined;
  style = { color: colored, source, ...(cap !== undefined && cap > 0 && { maxErrors: cap }) };
  return rest;
}

/** The text of `diagnostics` of one file as the current style shows them. */
export function diagnosticsText(file: string, text: string | undefined, diagnostics: readonly Diagnostic[]): string {
  return formatDiagnostics(diagnostics, {
    file,
    ...(text !== undefined && { text }),
    color: style.color,
    source: style.source,
    ...(style.maxErrors !== undefined && { maxErrors: style.maxErrors }),
    sanitize: escapeControls,
  });
}

/** Writes `diagnostics` on stderr in the current style (colour escapes are written as is; the user's text is escaped). */
export function printDiagnostics(io: Output, file: string, text: string | undefined, diagnostics: readonly Diagnostic[]): void {
  const out = diagnosticsText(file, text, diagnostics);
  if (out === "") return;
  if (style.color) io.status(out);
  else io.err(out);
}

/** Writes a ready report (from diagnosticsText) on stderr. */
export function printReport(io: Output, report: string): void {
  if (style.color) io.status(report);
  else io.err(report);
}
