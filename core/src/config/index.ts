// Project configuration and inline suppressions: reading `onnxtxt.toml` / `[tool.onnxtxt]`, and
// applying them to diagnostics. Finding the files is the caller's (the CLI and the server walk up
// from each document).
export { readConfig, isRuleCode, isRuleGroup, OTHER_RULE_CODES } from "./config.js";
export type { OnnxtxtConfig, PerFileIgnore, RuleSeverity, ConfigProblem, ConfigResult } from "./config.js";
export { applyConfig, enabledCodes, isExcluded } from "./rules.js";
export { applySuppressions } from "./suppressions.js";
export { configuredDiagnostics } from "./configured.js";
export { globMatches } from "./glob.js";
export { parseToml, TomlError, type TomlValue, type TomlTable, type TomlPos } from "./toml.js";
