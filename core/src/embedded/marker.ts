// The marker comment that makes the next string a region in any host: `# onnxtxt: graph`,
// `// onnxtxt: nodes`, `<!-- onnxtxt: model -->`.
import { EMBEDDED_KINDS, type EmbeddedKind } from "./types.js";

export const MARKER_WORD = "onnxtxt:";

const MARKER = /\bonnxtxt:\s*(model|graph|function|nodes|node)\b/;

/** The kind a comment's marker names, if it has one. */
export function markerKind(comment: string): EmbeddedKind | undefined {
  const m = MARKER.exec(comment);
  return m && (EMBEDDED_KINDS as readonly string[]).includes(m[1]!) ? (m[1] as EmbeddedKind) : undefined;
}
