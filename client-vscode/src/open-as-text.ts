// `onnxtxt.openAsText` and the offer made when a binary .onnx is opened.
import type { Messages } from "./editor-host.js";
import { baseName, isBinaryModel, textViewOf, type UriParts } from "./uris.js";

export const OPEN_AS_TEXT = "Open as Text";
export const NEVER_ASK = "Don't Ask Again";

/** The text view to open for a command invocation; undefined (after a message) if none fits. */
export function textViewForCommand(target: UriParts | undefined, messages: Messages): UriParts | undefined {
  if (!target || !isBinaryModel(target)) {
    messages.error("Open as Text works on a binary .onnx file: pick one in the explorer or open it first.");
    return undefined;
  }
  return textViewOf(target);
}

/** Remembers which files were offered, so each opening of a file asks at most once. */
export class OpenAsTextOffer {
  private readonly offered = new Set<string>();

  constructor(
    private readonly messages: Messages,
    private readonly enabled: () => boolean,
    private readonly disable: () => Promise<void>,
    private readonly open: (viewUri: UriParts) => Promise<void>,
  ) {}

  /** Called for each newly opened editor tab; returns whether an offer was shown. */
  async onOpened(uri: UriParts): Promise<boolean> {
    if (uri.scheme !== "file" || !isBinaryModel(uri) || !this.enabled()) return false;
    const key = uri.path;
    if (this.offered.has(key)) return false;
    this.offered.add(key);
    const choice = await this.messages.suggest(`${baseName(uri)} is a binary ONNX model. Open it as text?`, OPEN_AS_TEXT, NEVER_ASK);
    if (choice === OPEN_AS_TEXT) await this.open(textViewOf(uri));
    else if (choice === NEVER_ASK) await this.disable();
    return true;
  }

  /** A closed file is offered again when it is opened again. */
  onClosed(uri: UriParts): void {
    this.offered.delete(uri.path);
  }
}
