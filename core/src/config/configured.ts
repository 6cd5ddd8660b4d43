// The one way diagnostics meet the project's settings, shared by `check` and the language server
// so both report the same: inline suppressions first (so a suppression of a rule the
// configuration turns off still counts as used), then the configuration.
import type { Diagnostic } from "../diagnostics.js";
import type { OnnxtxtConfig } from "./config.js";
import { minimumOpsetDiagnostics } from "./min-opset.js";
import { applyConfig } from "./rules.js";
import { applySuppressions } from "./suppressions.js";

/** `text` is the document's (absent for binary input); `relPath` is relative to the config's folder. */
export function configuredDiagnostics(
  text: string | undefined,
  diagnostics: readonly Diagnostic[],
  config: OnnxtxtConfig | undefined,
  relPath?: string,
): Diagnostic[] {
  const all = config?.minOpset !== undefined && text !== undefined ? [...diagnostics, ...minimumOpsetDiagnostics(text, config.minOpset)] : diagnostics;
  const suppressed = text !== undefined ? applySuppressions(text, all) : [...all];
  return config ? applyConfig(suppressed, config, relPath) : suppressed;
}
