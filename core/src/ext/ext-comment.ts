// The lossless extension comments: `#@KIND {json}` on its own line, right before the element
// it extends (`#@model` may stand anywhere). Official parsers skip them as comments; ours
// reads them back (apply-extensions.ts). See docs/syntax.md, "Lossless extensions".
import type { JsonObject } from "@bufbuild/protobuf";

const EXT_KINDS = ["model", "graph", "function", "node", "attr", "value", "tensor"] as const;
export type ExtKind = (typeof EXT_KINDS)[number];

export interface ExtComment {
  readonly kind: ExtKind;
  readonly data: JsonObject;
}

const PATTERN = /^@([A-Za-z_]\w*)\s+(\{.*)$/s;

/** The comment text (after `#`) for an extension. */
export function extCommentText(kind: ExtKind, data: JsonObject): string {
  return `@${kind} ${JSON.stringify(data)}`;
}

type ExtParse = { ok: true; ext: ExtComment } | { ok: false; message: string; severity: "error" | "warning" } | undefined;

const KIND_WORD = /^@([A-Za-z_]\w*)(?=\s|$)/;

/**
 * Reads a comment's text (after `#`): undefined when it is an ordinary comment. Only `@KIND`
 * with a known kind, a blank and `{` is an extension (whose JSON must then be valid);
 * anything else after `#@` (`#@todo: ...`) is an ordinary comment, and one that looks like a
 * misspelt kind (`#@tensr {...}`) gets a warning.
 */
export function parseExtComment(text: string): ExtParse {
  if (!text.startsWith("@")) return undefined;
  const word = KIND_WORD.exec(text)?.[1];
  if (word === undefined) return undefined;
  const known = (EXT_KINDS as readonly string[]).includes(word);
  const m = PATTERN.exec(text);
  if (!known && m)
    return { ok: false, severity: "warning", message: `'#@${word}' is not a residual kind (${EXT_KINDS.join(", ")}); the line is an ordinary comment` };
  if (!known) return undefined;
  if (!m) return { ok: false, severity: "warning", message: `'#@${word}' without a JSON object is an ordinary comment (a residual is '#@${word} {json}')` };
  const kind = m[1] as ExtKind;
  let data: unknown;
  try {
    data = JSON.parse(m[2]!.trim());
  } catch (e) {
    return { ok: false, severity: "error", message: `residual data is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, severity: "error", message: "residual data must be a JSON object" };
  return { ok: true, ext: { kind, data: data as JsonObject } };
}

/** `#@model` keys that name statements: an edit of one of those needs the whole text again. */
const MODEL_KEYS_NAMING_STATEMENTS: ReadonlySet<string> = new Set(["@node_domain_except", "@tensor_name_except"]);

/**
 * Whether any comment is a residual (or looks like one) other than a `#@model` line that names
 * no statement: the language server then analyses the whole text on each edit, as `check` does.
 */
export function residualsBeyondDefaults(comments: readonly { readonly text: string }[]): boolean {
  for (const c of comments) {
    const r = parseExtComment(c.text);
    if (r === undefined) continue;
    if (!r.ok || r.ext.kind !== "model") return true;
    for (const k in r.ext.data) if (MODEL_KEYS_NAMING_STATEMENTS.has(k)) return true;
  }
  return false;
}
