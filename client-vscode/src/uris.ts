// The URI shapes the extension works with, kept to the fields that `vscode.Uri` has, so the
// logic runs in tests without VS Code.

export interface UriParts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
}

/** The file-system scheme under which a binary `.onnx` is shown as editable text. */
export const BINARY_AS_TEXT_SCHEME = "onnxtxt-binary";
const TEXT_SUFFIX = ".onnxtxt";

function hasExtension(uri: UriParts, ext: string): boolean {
  return uri.path.toLowerCase().endsWith(ext);
}

export function isTextModel(uri: UriParts): boolean {
  return hasExtension(uri, ".onnxtxt") || hasExtension(uri, ".onnxtext");
}

export function isBinaryModel(uri: UriParts): boolean {
  return hasExtension(uri, ".onnx");
}

/** `a/b/model.onnxtxt` -> `a/b/model.onnx`, on the same scheme. */
export function binaryUriFor(textUri: UriParts): UriParts {
  const stem = textUri.path.replace(/\.onnx(txt|text)$/i, "");
  return { ...textUri, path: `${stem}.onnx`, query: "", fragment: "" };
}

/**
 * `file:///a/model.onnx` -> `onnxtxt-binary:/a/model.onnx.onnxtxt?{"scheme":"file","path":"/a/model.onnx"}`.
 * The `.onnxtxt` suffix makes VS Code pick the onnxtxt language; the query remembers the
 * original scheme, and its path is what the tab shows (`model.onnx (text)`, through the
 * resourceLabelFormatters in package.json, which read JSON queries only).
 */
export function textViewOf(binaryUri: UriParts): UriParts {
  return {
    scheme: BINARY_AS_TEXT_SCHEME,
    authority: binaryUri.authority,
    path: binaryUri.path + TEXT_SUFFIX,
    query: JSON.stringify({ scheme: binaryUri.scheme, path: binaryUri.path }),
    fragment: "",
  };
}

/** The inverse of textViewOf; undefined for a URI that is not a text view. */
export function binaryOfTextView(viewUri: UriParts): UriParts | undefined {
  if (viewUri.scheme !== BINARY_AS_TEXT_SCHEME || !viewUri.path.endsWith(TEXT_SUFFIX)) return undefined;
  return {
    scheme: originalScheme(viewUri.query),
    authority: viewUri.authority,
    path: viewUri.path.slice(0, -TEXT_SUFFIX.length),
    query: "",
    fragment: "",
  };
}

/** The scheme a view's query names: JSON, or the bare scheme that views opened by 0.1.0 kept. */
function originalScheme(query: string): string {
  if (!query.startsWith("{")) return query || "file";
  try {
    const scheme = (JSON.parse(query) as { scheme?: unknown }).scheme;
    return typeof scheme === "string" && scheme !== "" ? scheme : "file";
  } catch {
    return "file";
  }
}

export function baseName(uri: UriParts): string {
  const i = uri.path.lastIndexOf("/");
  return i < 0 ? uri.path : uri.path.slice(i + 1);
}
