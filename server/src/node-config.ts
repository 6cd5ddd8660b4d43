// Node's configuration source for the language server: the nearest onnxtxt.toml or
// pyproject.toml [tool.onnxtxt] above each file, as the CLI finds it. A configuration with a
// mistake is reported once on the server's log and the document is checked without it.
import { fileURLToPath } from "node:url";
import { ConfigFileError, ConfigFinder } from "../../core/src/node/config-files.js";
import { FileError } from "../../core/src/io/files.js";
import type { ConfigSource } from "./lint-config.js";

export function nodeConfigSource(log: (message: string) => void): ConfigSource {
  const finder = new ConfigFinder();
  const reported = new Set<string>();
  return {
    forUri(uri) {
      if (!uri.startsWith("file:")) return undefined;
      try {
        return finder.forFile(fileURLToPath(uri));
      } catch (e) {
        if (!(e instanceof ConfigFileError || e instanceof FileError)) throw e;
        if (!reported.has(e.message)) {
          reported.add(e.message);
          log(`configuration ignored:\n${e.message}`);
        }
        return undefined;
      }
    },
    reload() {
      finder.clear();
      reported.clear();
    },
  };
}
