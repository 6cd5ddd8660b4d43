// The content of the `onnxtxt-binary:` file system: a binary .onnx read as text, and text
// written back as binary. VS Code's FileSystemProvider adapter (extension.ts) delegates here.
import type { FileAccess } from "./editor-host.js";
import type { ModelConverter } from "./model-converter.js";
import { binaryOfTextView, type UriParts } from "./uris.js";

/** A write refused because the text does not convert; VS Code shows `message` on save. */
export class ConversionFailed extends Error {}

export class NotATextView extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

export class BinaryAsText {
  constructor(
    private readonly files: FileAccess,
    private readonly converter: ModelConverter,
    private readonly options: () => { externalDataThreshold: number },
  ) {}

  binaryOf(viewUri: UriParts): UriParts {
    const binary = binaryOfTextView(viewUri);
    if (!binary) throw new NotATextView(`not an onnxtxt-binary URI: ${viewUri.path}`);
    return binary;
  }

  async read(viewUri: UriParts): Promise<Uint8Array> {
    const bytes = await this.files.readFile(this.binaryOf(viewUri));
    return encoder.encode(this.converter.binaryToText(bytes, this.options()));
  }

  async write(viewUri: UriParts, content: Uint8Array): Promise<void> {
    const binary = this.binaryOf(viewUri);
    const result = this.converter.textToBinary(decoder.decode(content), binary.path);
    if (!result.ok) {
      const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : "";
      throw new ConversionFailed(`not saved as binary: ${result.errors[0] ?? "the text has errors"}${more}`);
    }
    await this.files.writeFile(binary, result.bytes);
  }
}
