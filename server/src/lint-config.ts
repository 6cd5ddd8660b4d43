// The project configuration in the editor: the diagnostics published for a document go through
// the same suppressions and configuration as `onnxtxt check` (core/src/config). Where the
// configuration comes from is the platform's: Node's main.ts finds the nearest onnxtxt.toml or
// pyproject.toml of each file (core/src/node/config-files.ts); the browser has none. A change of
// a configuration file (workspace/didChangeWatchedFiles) re-reads them and republishes.
import { type Connection, DidChangeWatchedFilesNotification } from "vscode-languageserver";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { configuredDiagnostics } from "../../core/src/config/configured.js";
import type { OnnxtxtConfig } from "../../core/src/config/config.js";

export interface ConfigSource {
  /** The configuration of the document at `uri` and its path relative to the config's folder. */
  forUri(uri: string): { readonly config: OnnxtxtConfig; readonly relPath: string } | undefined;
  /** Forgets what was read. */
  reload(): void;
}

let source: ConfigSource | undefined;

/** Installs where configurations come from (before the server starts). */
export function useConfigSource(s: ConfigSource): void {
  source = s;
}

/** The diagnostics of the document at `uri` (whose text is `text`) as the configuration wants them. */
export function configured(uri: string, text: string | undefined, diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  const found = source?.forUri(uri);
  return configuredDiagnostics(text, diagnostics, found?.config, found?.relPath);
}

/** The formatter's line width for the document at `uri`, when its configuration sets one. */
export function configuredLineWidth(uri: string): number | undefined {
  return source?.forUri(uri)?.config.lineWidth;
}

const CONFIG_FILES = /(^|\/)(onnxtxt\.toml|pyproject\.toml)$/;

/**
 * Watches the configuration files: registers the watcher when the client can (`dynamic`), and on
 * a change of one re-reads them and calls `republish`.
 */
export function watchConfig(connection: Connection, dynamic: () => boolean, republish: () => void): void {
  connection.onInitialized(() => {
    if (!source || !dynamic()) return;
    connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/{onnxtxt.toml,pyproject.toml}" }] })
      .catch((e: unknown) => connection.console.error(`cannot watch the configuration files: ${String(e)}`));
  });
  connection.onDidChangeWatchedFiles((p) => {
    if (!source || !p.changes.some((c) => CONFIG_FILES.test(c.uri))) return;
    source.reload();
    republish();
  });
}
