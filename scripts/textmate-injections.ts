// The shared part of the injection grammars that colour ONNX text inside other languages' files
// (textmate-injection-*.ts): each embeds copies of the .onnxtxt rules whose every rule stops at
// the host's closing delimiter.
import { buildTextMateGrammar, type HostEmbedding, type LexicalVocabulary, type Rule } from "./textmate-grammar.js";

/** The scope VS Code maps to the onnxtxt language inside a host file (embeddedLanguages). */
export const EMBEDDED_BLOCK = "meta.embedded.block.onnxtxt";
export const EMBEDDED_LINE = "meta.embedded.line.onnxtxt";

export interface InjectionGrammar {
  readonly $schema: string;
  readonly scopeName: string;
  readonly injectionSelector: string;
  readonly patterns: readonly Rule[];
  readonly repository: Readonly<Record<string, Rule>>;
}

/** One injection grammar, the file it is written to and the host scopes it is injected into. */
export interface Injection {
  readonly file: string;
  readonly injectTo: readonly string[];
  readonly grammar: InjectionGrammar;
}

export function injectionGrammar(scopeName: string, injectionSelector: string, patterns: readonly Rule[], repository: Record<string, Rule>): InjectionGrammar {
  return {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    scopeName,
    injectionSelector,
    patterns,
    repository,
  };
}

function relink(rule: Rule, prefix: string): Rule {
  const include = rule.include === "$self" ? `#${prefix}` : rule.include?.startsWith("#") ? `#${prefix}-${rule.include.slice(1)}` : rule.include;
  return {
    ...rule,
    ...(include === undefined ? {} : { include }),
    ...(rule.patterns ? { patterns: rule.patterns.map((r) => relink(r, prefix)) } : {}),
  };
}

/**
 * The .onnxtxt rules for one kind of host string, as repository entries named `prefix-*`;
 * `#prefix` includes them all. `$self` in the rules (a nested graph) points at `#prefix`.
 */
export function embeddedRules(v: LexicalVocabulary, prefix: string, host: HostEmbedding): Record<string, Rule> {
  const grammar = buildTextMateGrammar(v, host);
  const out: Record<string, Rule> = { [prefix]: { patterns: grammar.patterns.map((r) => relink(r, prefix)) } };
  for (const [key, rule] of Object.entries(grammar.repository)) out[`${prefix}-${key}`] = relink(rule, prefix);
  return out;
}

/** Escapes a literal for a TextMate (Oniguruma) regex. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
