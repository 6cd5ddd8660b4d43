// The CLI's side of the configuration: the --config and --isolated flags; the finding is in
// core/src/node/config-files.ts (shared with the language server).
import { ConfigFinder } from "../../core/src/node/config-files.js";
import { flag, hasFlag, type ParsedArgs } from "./args.js";

export { ConfigFileError, ConfigFinder, type FoundConfig } from "../../core/src/node/config-files.js";

/** The `--config FILE` and `--isolated` flags, for parseArgs. */
export const CONFIG_FLAGS = { config: { value: true }, isolated: {} } as const;

export const CONFIG_USAGE = `  --config FILE             use this onnxtxt.toml (or pyproject.toml) for every file instead of
                            the nearest one above each file
  --isolated                use no configuration file`;

/** The finder the flags ask for. */
export function configFinder(args: ParsedArgs): ConfigFinder {
  const configFile = flag(args, "config");
  return new ConfigFinder({ ...(configFile !== undefined && { configFile }), isolated: hasFlag(args, "isolated") });
}
