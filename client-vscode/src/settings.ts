// The extension's settings with their defaults, read through a getter so tests need no VS Code.

export interface Settings {
  /** A server script to run instead of the bundled one; empty for the bundled server. */
  readonly serverPath: string;
  readonly trace: "off" | "messages" | "verbose";
  /** Elements per tensor shown in the run output before it truncates. */
  readonly maxTensorElements: number;
  /** Tensors above this many bytes stay out of the text when a binary model is opened as text (0: none). */
  readonly externalDataThreshold: number;
  readonly offerOpenAsText: boolean;
  /** Items in a document's outline before the rest are left out (a 50k-node graph). */
  readonly maxOutlineItems: number;
}

export const SETTINGS_SECTION = "onnxtxt";

/** Reads `onnxtxt.<key>`; `vscode.workspace.getConfiguration("onnxtxt").get` fits. */
export type SettingGetter = <T>(key: string, fallback: T) => T;

function positiveInt(value: unknown, fallback: number, min: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= min ? value : fallback;
}

export function readSettings(get: SettingGetter): Settings {
  const trace = get<string>("trace.server", "off");
  return {
    serverPath: get<string>("server.path", "").trim(),
    trace: trace === "messages" || trace === "verbose" ? trace : "off",
    maxTensorElements: positiveInt(get<unknown>("run.maxTensorElements", 100), 100, 1),
    externalDataThreshold: positiveInt(get<unknown>("externalDataThreshold", 65536), 65536, 0),
    offerOpenAsText: get<boolean>("offerOpenAsText", true) !== false,
    maxOutlineItems: positiveInt(get<unknown>("outline.maxItems", 1000), 1000, 1),
  };
}

/** What the server receives at start-up and on every settings change. */
export function serverSettings(s: Settings): { maxTensorElements: number; externalDataThreshold: number; maxOutlineItems: number; runView: true } {
  // runView: this client shows run results in its view, so the server sends no summary message.
  return { maxTensorElements: s.maxTensorElements, externalDataThreshold: s.externalDataThreshold, maxOutlineItems: s.maxOutlineItems, runView: true };
}
