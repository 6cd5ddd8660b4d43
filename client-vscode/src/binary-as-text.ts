// The content of the `onnxtxt-binary:` file system: a binary .onnx read as text, and text
// written back as binary. VS Code's FileSystemProvider adapter (binary-fs-provider.ts)
// delegates here. Big tensors are shown as external-data references to a sidecar that lives
// only in memory; saving reads them back from it, so the view never writes extra files.
import type { FileAccess } from "./editor-host.js";
import type { ExternalDataSource, ModelConverter } from "./model-converter.js";
import { baseName, binaryOfTextView, type UriParts } from "./uris.js";

/** A write refused because the text does not convert; VS Code shows `message` on save. */
export class ConversionFailed extends Error {}

export class NotATextView extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/** The folder the in-memory sidecar pretends to be in; only its own name resolves there. */
const VIEW_DIR = "/onnxtxt-binary-view";

function sidecarSource(location: string, data: Uint8Array): ExternalDataSource {
  const own = `${VIEW_DIR}/${location}`;
  return {
    baseDir: VIEW_DIR,
    read(absPath, offset, length) {
      if (absPath.replace(/\\/g, "/").replace(/^[A-Za-z]:/, "") !== own) {
        throw new Error(`external data '${absPath.slice(VIEW_DIR.length + 1)}' is not part of this view; only '${location}' is`);
      }
      const end = length === undefined ? data.length : offset + length;
      if (offset > data.length || end > data.length)
        throw new Error(`'${location}': ${end - offset} bytes at offset ${offset} run past its end (${data.length} bytes)`);
      return data.subarray(offset, end);
    },
  };
}

export class BinaryAsText {
  private readonly sidecars = new Map<string, Uint8Array>();

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

  /** The sidecar's name in the text: `model.onnx.data`. */
  static locationFor(binary: UriParts): string {
    return `${baseName(binary)}.data`;
  }

  async read(viewUri: UriParts): Promise<Uint8Array> {
    const binary = this.binaryOf(viewUri);
    const bytes = await this.files.readFile(binary);
    const view = this.converter.binaryToText(bytes, { ...this.options(), location: BinaryAsText.locationFor(binary) });
    this.sidecars.set(binary.path, view.sidecar);
    return encoder.encode(view.text);
  }

  async write(viewUri: UriParts, content: Uint8Array): Promise<void> {
    const binary = this.binaryOf(viewUri);
    const sidecar = sidecarSource(BinaryAsText.locationFor(binary), this.sidecars.get(binary.path) ?? new Uint8Array(0));
    const result = this.converter.textToBinary(decoder.decode(content), binary.path, sidecar);
    if (!result.ok) {
      const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : "";
      throw new ConversionFailed(`not saved as binary: ${result.errors[0] ?? "the text has errors"}${more}`);
    }
    await this.files.writeFile(binary, result.bytes);
  }
}
