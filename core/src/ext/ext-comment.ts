// The lossless extension comments: `#@KIND {json}` on its own line, right before the element
// it extends (`#@model` may stand anywhere). Official parsers skip them as comments; ours
// reads them back (apply-extensions.ts). See docs/syntax.md, "Lossless extensions".
import type { JsonObject } from "@bufbuild/protobuf";

export const EXT_KINDS = ["model", "graph", "function", "node", "attr", "value", "tensor"] as const;
export type ExtKind = (typeof EXT_KINDS)[number];

export interface ExtComment {
  readonly kind: ExtKind;
  readonly data: JsonObject;
}

const PATTERN = /^@([a-z]+)\s+(\{.*\})\s*$/s;

/** The comment text (after `#`) for an extension. */
export function extCommentText(kind: ExtKind, data: JsonObject): string {
  return `@${kind} ${JSON.stringify(data)}`;
}

export type ExtParse = { ok: true; ext: ExtComment } | { ok: false; message: string } | undefined;

/** Reads a comment's text (after `#`): undefined when it is an ordinary comment. */
export function parseExtComment(text: string): ExtParse {
  if (!text.startsWith("@")) return undefined;
  const m = PATTERN.exec(text);
  if (!m) return { ok: false, message: "an extension comment is '#@KIND {json}'" };
  const kind = m[1] as ExtKind;
  if (!EXT_KINDS.includes(kind)) return { ok: false, message: `unknown extension kind '@${m[1]}'` };
  let data: unknown;
  try {
    data = JSON.parse(m[2]!);
  } catch (e) {
    return { ok: false, message: `extension data is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, message: "extension data must be a JSON object" };
  return { ok: true, ext: { kind, data: data as JsonObject } };
}
