// `onnxtxt.convertToBinary`: writes `model.onnx` beside `model.onnxtxt`, asking before it
// replaces an existing file.
import type { EditorHost } from "./editor-host.js";
import type { ExternalDataSource, ModelConverter } from "./model-converter.js";
import { BINARY_AS_TEXT_SCHEME, baseName, binaryOfTextView, binaryUriFor, isTextModel, type UriParts } from "./uris.js";

interface TextDocumentLike {
  readonly uri: UriParts;
  /** A path for messages (`fsPath` in VS Code). */
  readonly fileName: string;
  getText(): string;
}

type ConvertOutcome = "written" | "cancelled" | "failed" | "not-onnxtxt" | "already-binary";

export const OVERWRITE = "Overwrite";

export async function convertToBinary(
  doc: TextDocumentLike | undefined,
  host: EditorHost,
  converter: ModelConverter,
  external: ExternalDataSource,
): Promise<ConvertOutcome> {
  if (doc?.uri.scheme === BINARY_AS_TEXT_SCHEME) {
    const binary = binaryOfTextView(doc.uri);
    host.info(`This is ${binary ? baseName(binary) : "a binary model"} opened as text: saving it writes the binary file.`);
    return "already-binary";
  }
  if (!doc || !isTextModel(doc.uri)) {
    host.error("Convert to Binary works on an .onnxtxt file: open one first.");
    return "not-onnxtxt";
  }
  const target = binaryUriFor(doc.uri);
  const name = baseName(target);
  if (await host.exists(target)) {
    const choice = await host.ask(`${name} already exists. Replace it?`, OVERWRITE);
    if (choice !== OVERWRITE) return "cancelled";
  }
  const result = converter.textToBinary(doc.getText(), doc.fileName, external);
  if (!result.ok) {
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : "";
    host.error(`Not converted: ${result.errors[0] ?? "the text has errors"}${more}`);
    return "failed";
  }
  try {
    await host.writeFile(target, result.bytes);
  } catch (e) {
    host.error(`Could not write ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return "failed";
  }
  host.info(`Wrote ${name} (${result.bytes.length} bytes).`);
  return "written";
}
