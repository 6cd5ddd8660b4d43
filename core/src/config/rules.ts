// Applying a configuration to one file's diagnostics: rule selection (select, extend-select,
// ignore, by code or group), per-file ignores and per-rule severity. Codes no rule selection can
// name (syntax errors and the like) always pass.
import type { Diagnostic } from "../diagnostics.js";
import { CHECK_CODES, CODE_GROUPS } from "../check/codes.js";
import { isRuleCode, isRuleGroup, OTHER_RULE_CODES, type OnnxtxtConfig } from "./config.js";
import { globMatches } from "./glob.js";

const ALL_CODES: readonly string[] = [...Object.keys(CHECK_CODES), ...OTHER_RULE_CODES];

function expand(names: readonly string[]): string[] {
  return names.flatMap((n) => (n === "ALL" ? ALL_CODES : isRuleGroup(n) ? CODE_GROUPS[n] : [n]));
}

/** The rule codes `config` reports in the file at `relPath` (relative to the config's folder). */
export function enabledCodes(config: OnnxtxtConfig, relPath?: string): Set<string> {
  const on = new Set(expand(config.select ?? ["ALL"]));
  for (const c of expand(config.extendSelect ?? [])) on.add(c);
  for (const c of expand(config.ignore ?? [])) on.delete(c);
  if (relPath !== undefined) for (const p of config.perFileIgnores ?? []) if (globMatches(p.glob, relPath)) for (const c of expand(p.codes)) on.delete(c);
  for (const [code, s] of Object.entries(config.severity ?? {})) if (s === "off") on.delete(code);
  return on;
}

/** Keeps the diagnostics `config` selects for the file at `relPath`, at their configured severity. */
export function applyConfig(diagnostics: readonly Diagnostic[], config: OnnxtxtConfig, relPath?: string): Diagnostic[] {
  const on = enabledCodes(config, relPath);
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (isRuleCode(d.code) && !on.has(d.code)) continue;
    const s = config.severity?.[d.code];
    out.push(s && s !== "off" && s !== d.severity ? { ...d, severity: s } : d);
  }
  return out;
}

/** Is the file at `relPath` (relative to the config's folder) excluded from check and format? */
export function isExcluded(config: OnnxtxtConfig, relPath: string): boolean {
  return (config.exclude ?? []).some((g) => globMatches(g, relPath));
}
