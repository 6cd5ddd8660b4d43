// A small, strict command-line parser: flags are declared per command, unknown flags and
// missing values are usage errors (exit code 2).
import { CloseNames, didYouMean } from "../../core/src/check/suggest.js";

export class UsageError extends Error {}

interface FlagSpec {
  /** A flag that takes a value (`--out-dir DIR` or `--out-dir=DIR`); otherwise boolean. */
  value?: boolean;
  /** May be given several times; values are collected in order. */
  repeat?: boolean;
  short?: string;
}

export interface ParsedArgs {
  flags: Map<string, string[]>;
  positional: string[];
}

export function parseArgs(argv: readonly string[], spec: Readonly<Record<string, FlagSpec>>): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  const byShort = new Map<string, string>();
  for (const [name, s] of Object.entries(spec)) if (s.short) byShort.set(s.short, name);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
    } else if (arg.length > 1 && arg.startsWith("-") && !/^-\d/.test(arg)) {
      name = byShort.get(arg.slice(1));
      if (!name) throw new UsageError(`unknown option '${arg}'`);
    } else {
      positional.push(arg);
      continue;
    }
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option '--${name}'${flagHint(name, spec)}`);
    let value = "";
    if (s.value) {
      if (inline !== undefined) value = inline;
      else if (i + 1 < argv.length) value = argv[++i]!;
      else throw new UsageError(`option '--${name}' needs a value`);
    } else if (inline !== undefined) {
      throw new UsageError(`option '--${name}' takes no value`);
    }
    const list = flags.get(name) ?? [];
    if (list.length > 0 && !s.repeat) throw new UsageError(`option '--${name}' given twice`);
    list.push(value);
    flags.set(name, list);
  }
  return { flags, positional };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.[0];
}

export function hasFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

/** `; did you mean '--input'?` for a misspelt flag, or nothing. */
function flagHint(name: string, spec: Readonly<Record<string, FlagSpec>>): string {
  const close = new CloseNames(name, 1);
  for (const known of Object.keys(spec)) close.consider(known);
  const best = close.closest()[0];
  return best === undefined ? "" : `; ${didYouMean(`--${best}`)}`;
}
