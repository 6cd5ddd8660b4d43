// The project configuration (`onnxtxt.toml`, or `[tool.onnxtxt]` in `pyproject.toml`): which rules
// run, at what severity, where, and the formatter's line width. Reading checks every key and type
// and names the place of each mistake.
import type { Severity } from "../diagnostics.js";
import { CHECK_CODES, CODE_GROUPS } from "../check/codes.js";
import { parseToml, TomlError, type TomlEntry, type TomlPos, type TomlTable, type TomlValue } from "./toml.js";

/** A severity for one rule, or "off" to drop it. */
export type RuleSeverity = Severity | "off";

export interface PerFileIgnore {
  /** Relative to the configuration file's folder; `*`, `**`, `?` as in .gitignore. */
  readonly glob: string;
  readonly codes: readonly string[];
}

export interface OnnxtxtConfig {
  /** Codes or groups to report; all rules when absent. */
  readonly select?: readonly string[];
  /** Added to `select` (or to all rules). */
  readonly extendSelect?: readonly string[];
  /** Codes or groups not to report; wins over select. */
  readonly ignore?: readonly string[];
  readonly severity?: Readonly<Record<string, RuleSeverity>>;
  readonly perFileIgnores?: readonly PerFileIgnore[];
  /** Files not to check or format (globs relative to the configuration file's folder). */
  readonly exclude?: readonly string[];
  /** The formatter's line width (default 100). */
  readonly lineWidth?: number;
  /** The oldest opset of the default domain a model may import (rule opset-below-minimum). */
  readonly minOpset?: number;
}

export interface ConfigProblem {
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

export type ConfigResult = { readonly ok: true; readonly config: OnnxtxtConfig } | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Codes a configuration may name beside the checker's: those other stages report. */
export const OTHER_RULE_CODES = [
  "external-data",
  "negative-dimension",
  "residual-stale",
  "unused-suppression",
  "unknown-suppression-code",
  "opset-below-minimum",
] as const;

export function isRuleCode(code: string): boolean {
  return code in CHECK_CODES || (OTHER_RULE_CODES as readonly string[]).includes(code);
}

export function isRuleGroup(name: string): name is keyof typeof CODE_GROUPS {
  return Object.hasOwn(CODE_GROUPS, name);
}

const SEVERITIES: readonly RuleSeverity[] = ["error", "warning", "info", "hint", "off"];

/** Reads a configuration file's text; `pyproject` reads only its `[tool.onnxtxt]` table. */
export function readConfig(text: string, pyproject = false): ConfigResult {
  let root: TomlTable;
  try {
    root = parseToml(text, pyproject ? ["tool", "onnxtxt"] : undefined);
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    return { ok: false, problems: [{ ...e.pos, message: e.reason }] };
  }
  const problems: ConfigProblem[] = [];
  const config = new ConfigReader(problems).table(root);
  problems.sort((a, b) => a.line - b.line || a.col - b.col);
  return problems.length ? { ok: false, problems } : { ok: true, config };
}

class ConfigReader {
  constructor(private readonly problems: ConfigProblem[]) {}

  /** An integer key's value within [min, max], or undefined after a problem. */
  private integerIn(key: string, v: TomlValue, min: number, max: number): number | undefined {
    if (v.kind !== "integer") this.wrongType(key, "an integer", v);
    else if (v.value < min || v.value > max) this.problem(v.pos, `'${key}' must be between ${min} and ${max}, not ${v.value}`);
    else return v.value;
    return undefined;
  }

  table(root: TomlTable): OnnxtxtConfig {
    const config: { -readonly [K in keyof OnnxtxtConfig]: OnnxtxtConfig[K] } = {};
    for (const [key, entry] of root.entries) {
      switch (key) {
        case "select":
        case "ignore":
        case "extend-select": {
          const codes = this.codes(key, entry, true);
          if (codes) config[key === "extend-select" ? "extendSelect" : key] = codes;
          break;
        }
        case "exclude": {
          const globs = this.strings(key, entry.value);
          if (globs) config.exclude = globs;
          break;
        }
        case "line-width": {
          const width = this.integerIn(key, entry.value, 20, 1000);
          if (width !== undefined) config.lineWidth = width;
          break;
        }
        case "min-opset": {
          const opset = this.integerIn(key, entry.value, 1, 100);
          if (opset !== undefined) config.minOpset = opset;
          break;
        }
        case "severity": {
          const severity = this.severities(entry);
          if (severity) config.severity = severity;
          break;
        }
        case "per-file-ignores": {
          const ignores = this.perFileIgnores(entry);
          if (ignores) config.perFileIgnores = ignores;
          break;
        }
        default:
          this.problem(
            entry.keyPos,
            `unknown key '${key}' (known: select, extend-select, ignore, exclude, line-width, min-opset, [severity], [per-file-ignores])`,
          );
      }
    }
    return config;
  }

  private codes(key: string, entry: TomlEntry, groups: boolean): string[] | undefined {
    const items = this.stringItems(key, entry.value);
    if (!items) return undefined;
    for (const item of items)
      if (!isRuleCode(item.value) && !(groups && (isRuleGroup(item.value) || item.value === "ALL")))
        this.problem(item.pos, `unknown rule code or group '${item.value}' in '${key}'`);
    return items.map((i) => i.value);
  }

  private severities(entry: TomlEntry): Record<string, RuleSeverity> | undefined {
    if (entry.value.kind !== "table") return this.wrongType("severity", "a table ([severity])", entry.value);
    const out: Record<string, RuleSeverity> = {};
    for (const [code, e] of entry.value.entries) {
      if (!isRuleCode(code)) this.problem(e.keyPos, `unknown rule code '${code}' in [severity]`);
      const v = e.value;
      if (v.kind !== "string" || !(SEVERITIES as readonly string[]).includes(v.value))
        this.problem(v.pos, `the severity of '${code}' must be one of ${SEVERITIES.map((s) => `"${s}"`).join(", ")}`);
      else out[code] = v.value as RuleSeverity;
    }
    return out;
  }

  private perFileIgnores(entry: TomlEntry): PerFileIgnore[] | undefined {
    if (entry.value.kind !== "table") return this.wrongType("per-file-ignores", "a table ([per-file-ignores])", entry.value);
    const out: PerFileIgnore[] = [];
    for (const [glob, e] of entry.value.entries) {
      const codes = this.codes(`per-file-ignores."${glob}"`, e, true);
      if (codes) out.push({ glob, codes });
    }
    return out;
  }

  private strings(key: string, v: TomlValue): string[] | undefined {
    return this.stringItems(key, v)?.map((i) => i.value);
  }

  private stringItems(key: string, v: TomlValue): { value: string; pos: TomlPos }[] | undefined {
    if (v.kind !== "array") return this.wrongType(key, "an array of strings", v);
    const out: { value: string; pos: TomlPos }[] = [];
    for (const item of v.items) {
      if (item.kind !== "string") this.wrongType(`an item of '${key}'`, "a string", item);
      else out.push({ value: item.value, pos: item.pos });
    }
    return out;
  }

  private wrongType(what: string, expected: string, v: TomlValue): undefined {
    const name = what.startsWith("an item") ? what : `'${what}'`;
    this.problem(v.pos, `${name} must be ${expected}, not ${v.kind === "table" ? "a table" : `${v.kind === "integer" ? "an" : "a"} ${v.kind}`}`);
    return undefined;
  }

  private problem(pos: TomlPos, message: string): void {
    this.problems.push({ line: pos.line, col: pos.col, message });
  }
}
